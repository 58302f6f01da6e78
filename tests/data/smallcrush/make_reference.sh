#!/bin/sh
# TestU01 1.2.3's SmallCrush on the three streams of streams.py, and each of its tests alone on a shorter run.
# Usage: T=/path/to/testu01/install sh make_reference.sh   (builds driver.c from this directory; rnglab not needed)
# Writes, per stream S: smallcrush_S.txt (TestU01's report trimmed to each test's name and parameters, statistics
# and p-values, its summary, and the words read) and tests_S.txt (driver FILE TEST N, one test at a time, each on
# the stream from its start).
set -e
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
cc -O2 -o "$work/driver" "$here/driver.c" -I"$T/include" -L"$T/lib" -ltestu01 -lprobdist -lmylib -lm
for s in pcg64 lfib lcg16; do
    python "$here/streams.py" $s | "$work/driver" /dev/stdin |
        grep -E '^(smarsa|sknuth|smultin|svaria|sstring|swalk)_[A-Za-z0-9]+ test|^Test sknuth_Collision|^ +N = |^ +(Sparse|Number of cells|Lambda)|freedom|statistic|p-value|^Total (expected|observed)|(Expected|Observed) number of collisions|Statistic [HMJRC]$|^ *(Version|Number of statistics):|^ *The following|^ *Test +p-value|^ *[0-9]+ +[A-Za-z]|All tests were passed|^words read' \
        > "$here/smallcrush_$s.txt"
    for spec in "birthday 2000000" "collision 1000000" "gap 20000" "poker 40000" "coupon 50000" "maxoft 1000000" \
                "weight 20000" "rank 2000" "hamming 50000" "walk 100000"; do
        python "$here/streams.py" $s | "$work/driver" /dev/stdin $spec
    done > "$here/tests_$s.txt"
done
rm -r "$work"
