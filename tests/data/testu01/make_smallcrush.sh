#!/bin/sh
# Run TestU01 1.2.3's SmallCrush on every catalog generator (seed 12345), fed by `rnglab stream` (32-bit
# little-endian words of the generator's genuine bits, one call of GetBits each), and write smallcrush.toml.
# Usage: T=/path/to/testu01/install sh make_smallcrush.sh   (builds smallcrush.c from this directory)
set -e
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
cc -O2 -o "$work/smallcrush" "$here/smallcrush.c" -I"$T/include" -L"$T/lib" -ltestu01 -lprobdist -lmylib -lm
export LD_LIBRARY_PATH="$T/lib"
{
    echo "# SmallCrush (TestU01 1.2.3) p-values per catalog generator, seed 12345, fed by rnglab stream GEN --seed 12345."
    echo "# Written by make_smallcrush.sh (driver: smallcrush.c). Keys: SmallCrush's test names, in its order."
    for g in minstd minstd_rand randu ansic glibc_type0 msvc borland delphi java drand48 lrand48 ranqd1 mmix \
             pcg64 mt19937 python; do
        echo
        echo "[$g]"
        python -m rnglab stream "$g" --seed 12345 2>/dev/null | "$work/smallcrush" "$g" |
            awk '/^RESULT/ { name = $3; for (i = 4; i < NF; i++) name = name " " $i; printf "\"%s\" = %s\n", name, $NF }'
    done
} > "$here/smallcrush.toml"
