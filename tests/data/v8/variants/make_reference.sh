#!/bin/sh
# Writes reference.txt (driver.cc built against V8's own random-number-generator.h) and node_doubles.txt
# (node's Number formatting of the same integers over 2^52 or 2^53). Needs g++ and node; the V8 headers
# are extracted first, outside the repository, from the stored snapshots named below (code as stored;
# V8_PLUS_DIR holds src/base/utils/random-number-generator.h of imdone/node@72464613199a (deps/v8:
# ToDouble(state0, state1), V8 6.x), V8_53_DIR that of nodejs/node@1c9f39ad16d9 (deps/v8: ToDouble(random)
# with >> 11 and / 2^53; its XorShift128 returns state0 + state1, which the driver does not use):
#   V8_PLUS_DIR=/tmp/v8src/imdone-node-72464613 V8_53_DIR=/tmp/v8src/nodejs-node-1c9f39ad sh make_reference.sh
set -e
cd "$(dirname "$0")"
build=$(mktemp -d)
g++ -std=c++17 -O1 -DV8_XORSHIFT128_PLUS -Ishim -I"$V8_PLUS_DIR" driver.cc -o "$build/v8-plus"
g++ -std=c++17 -O1 -Ishim -I"$V8_53_DIR" driver.cc -o "$build/v8-53"
{ "$build/v8-plus" 1 2 12345 -1 139 193; "$build/v8-53" 1 2 12345 -1 1337; } > reference.txt
node format.js < reference.txt > node_doubles.txt
rm -r "$build"
