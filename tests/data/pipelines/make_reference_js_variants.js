// js-fisher-yates-v8-53 and js-fisher-yates-v8-plus: the article's Fisher-Yates (make_reference.js) run by node on
// the Math.random() values of V8 13.5+ (v8-53) or V8 4.9 to 7.0 (v8-plus), which no node here runs: Math.random is
// replaced by the doubles that ../v8/variants/driver.cc computes with V8's own ToDouble
// (../v8/variants/reference.txt), one fresh seed a deck.
// Run as `node make_reference_js_variants.js VARIANT` (make_reference_js.sh); prints reference_js53.txt or
// reference_js_plus.txt, or names_js53.txt or names_js_plus.txt with the further argument `names` (the standard
// deck, as make_reference.js names prints it).
const path = require('path');
const variant = process.argv[2];
const lines = require('fs').readFileSync(path.join(__dirname, '..', 'v8', 'variants', 'reference.txt'), 'utf8');
const doubles = {};
for (const line of lines.trim().split('\n')) {
  const [seed, name, kind, ...values] = line.split(' ');
  if (name === variant && kind === 'doubles') doubles[seed] = values.map(Number);
}

function shuffle(a, values) {
  let call = 0;
  const random = () => values[call++];
  for (let i = a.length; i > 0; i--) {
    const r = Math.floor(random() * i);
    [a[r], a[i - 1]] = [a[i - 1], a[r]];
  }
  return a;
}

for (const seed of ['1', '2', '12345', '-1']) {
  if (process.argv[3] === 'names') {
    const deck = Array.from({ length: 52 }, (_, i) => 'A23456789TJQK'[i % 13] + 'cdhs'[Math.floor(i / 13)]);
    console.log(`js-fisher-yates-${variant} ${seed} 52: ${shuffle(deck, doubles[seed]).join(', ')}`);
  } else {
    for (const n of [1, 2, 5, 10, 52]) {
      const deck = shuffle(Array.from({ length: n }, (_, i) => i), doubles[seed]);
      console.log(`js-fisher-yates-${variant} ${seed} ${n} ${deck.join(' ')}`);
    }
  }
}
