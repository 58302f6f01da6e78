#!/bin/sh
# Writes reference.txt: per generator, its name, the SHA-256 of its first 100000 outputs as little-endian
# 64-bit words, and its first 10 outputs. Built with gcc 12.2 (Debian 12.2.0-14), x86-64.
set -e
cd "$(dirname "$0")"
gcc -O2 -Wall -o /tmp/rnglab_xorshift_reference reference.c
for name in xorshift32 xorshift64 xorshift128 xoroshiro128+ xoroshiro128++ xoroshiro128** xoshiro256+ xoshiro256** \
        well512a; do
    digest=$(/tmp/rnglab_xorshift_reference "$name" 100000 binary | sha256sum | cut -d' ' -f1)
    echo "$name $digest $(/tmp/rnglab_xorshift_reference "$name" 10 text | tr '\n' ' ')"
done > reference.txt
