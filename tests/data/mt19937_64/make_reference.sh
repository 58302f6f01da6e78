#!/bin/sh
# Writes reference.txt: per seed, the SHA-256 of the first 100000 outputs, the first 10 outputs and the
# 10000th. Built with g++ 12.2 (Debian 12.2.0-14), libstdc++, x86-64.
set -e
cd "$(dirname "$0")"
g++ -O2 -Wall -o /tmp/rnglab_mt19937_64_reference reference.cpp
for seed in 5489 0 12345 18446744073709551615; do
    echo "$(/tmp/rnglab_mt19937_64_reference $seed binary | sha256sum | cut -d' ' -f1) $(/tmp/rnglab_mt19937_64_reference $seed text)"
done > reference.txt
