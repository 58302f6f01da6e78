// The JavaScript comparator "shuffle" array.sort(() => Math.random() - 0.5) on node's Math.random: run as
// `node --random_seed=SEED make_reference_js_sort.js N`; prints "js-sort-v8 SEED N items..." for the array 0..N-1
// sorted once (V8 11.3's TimSort: for N <= 63 one counted run, then binary insertion).
// With the argument `names`: the 52 cards named "A23456789TJQK"[i % 13] + "cdhs"[i / 13] (rnglab's standard deck)
// sorted once, printed as "js-sort-v8 SEED 52: " and the names, ", " apart (names_js_sort.txt).
// make_reference_js.sh writes reference_js_sort.txt and names_js_sort.txt.
const seed = process.execArgv.find((a) => a.startsWith('--random_seed=')).split('=')[1];

function shuffle(a) {
  return a.sort(() => Math.random() - 0.5);
}

if (process.argv[2] === 'names') {
  const deck = Array.from({ length: 52 }, (_, i) => 'A23456789TJQK'[i % 13] + 'cdhs'[Math.floor(i / 13)]);
  console.log(`js-sort-v8 ${seed} 52: ${shuffle(deck).join(', ')}`);
} else {
  const n = Number(process.argv[2]);
  console.log(`js-sort-v8 ${seed} ${n} ${shuffle(Array.from({ length: n }, (_, i) => i)).join(' ')}`);
}
