#!/bin/sh
# Writes reference.txt with node 20.20.2 (V8 11.3.244.8-node.38): seeds 1, 2, 12345, -1 (the uint64 2^64 - 1)
# and -2147483648 (the flag is a 32-bit int: --random_seed=2147483648 wraps to it). --random_seed=0 is not
# deterministic (V8 seeds from the OS when the flag is 0).
set -e
cd "$(dirname "$0")"
for seed in 1 2 12345 -1 -2147483648; do node --random_seed=$seed reference.js; done > reference.txt
