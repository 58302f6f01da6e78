#!/bin/sh
# Writes deals.txt: node 20's JavaScript Fisher-Yates deal for each seed (see deal.js).
cd "$(dirname "$0")"
for seed in 1 2 42 -1 12345 -2147483648 2147483647 987654321; do
  node --random_seed=$seed deal.js
done > deals.txt
