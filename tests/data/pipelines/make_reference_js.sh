#!/bin/sh
# Writes reference_js.txt, js_decks_in_turn.txt, names_js.txt, reference_js_sort.txt and names_js_sort.txt with node 20.20.2 (V8 11.3.244.8-node.38),
# reference_js53.txt, names_js53.txt (node on the doubles of V8 13.5+), reference_js_plus.txt and names_js_plus.txt
# (node on the doubles of V8 4.9 to 7.0's xorshift128+; see make_reference_js_variants.js).
set -e
cd "$(dirname "$0")"
{
    echo "# node $(node --version), V8 $(node -p process.versions.v8)"
    for seed in 1 2 12345 -1; do
        for n in 1 2 5 10 52; do node --random_seed=$seed make_reference.js $n; done
    done
} > reference_js.txt
node --random_seed=7 make_reference.js 5 3 > js_decks_in_turn.txt
{
    echo "# node $(node --version), V8 $(node -p process.versions.v8)"
    for seed in 1 2 12345 -1; do node --random_seed=$seed make_reference.js names; done
} > names_js.txt
{
    echo "# node $(node --version), V8 $(node -p process.versions.v8)"
    for seed in 1 2 12345 -1; do
        for n in 1 2 3 5 10 52 63; do node --random_seed=$seed make_reference_js_sort.js $n; done
    done
} > reference_js_sort.txt
{
    echo "# node $(node --version), V8 $(node -p process.versions.v8)"
    for seed in 1 2 12345 -1; do node --random_seed=$seed make_reference_js_sort.js names; done
} > names_js_sort.txt
{
    echo "# node $(node --version) on the doubles of V8 13.5+'s ToDouble (../v8/variants/reference.txt)"
    node make_reference_js_variants.js v8-53
} > reference_js53.txt
{
    echo "# node $(node --version) on the doubles of V8 13.5+'s ToDouble (../v8/variants/reference.txt)"
    node make_reference_js_variants.js v8-53 names
} > names_js53.txt
{
    echo "# node $(node --version) on the doubles of V8 4.9 to 7.0's ToDouble(state0, state1) (../v8/variants/reference.txt)"
    node make_reference_js_variants.js v8-plus
} > reference_js_plus.txt
{
    echo "# node $(node --version) on the doubles of V8 4.9 to 7.0's ToDouble(state0, state1) (../v8/variants/reference.txt)"
    node make_reference_js_variants.js v8-plus names
} > names_js_plus.txt
