// The JavaScript Fisher-Yates of the shuffling articles on node's Math.random: run as
// `node --random_seed=SEED make_reference.js N [DECKS]`; prints "js-fisher-yates-v8 SEED N items..." for each of
// DECKS (default 1) decks 0..N-1 shuffled in turn. make_reference_js.sh writes reference_js.txt (one deck per
// process) and js_decks_in_turn.txt (three decks in one process: the last draw of each, below 1, is spent).
// It also writes names_js.txt (below).
// With the argument `names` (`node --random_seed=SEED make_reference.js names`): the 52 cards named
// "A23456789TJQK"[i % 13] + "cdhs"[i / 13] (rnglab's standard deck) shuffled once, printed as
// "js-fisher-yates-v8 SEED 52: " and the names, ", " apart (names_js.txt).
const seed = process.execArgv.find((a) => a.startsWith('--random_seed=')).split('=')[1];

function shuffle(a) {
  for (let i = a.length; i > 0; i--) {
    const r = Math.floor(Math.random() * i);
    [a[r], a[i - 1]] = [a[i - 1], a[r]];
  }
  return a;
}

if (process.argv[2] === 'names') {
  const deck = Array.from({ length: 52 }, (_, i) => 'A23456789TJQK'[i % 13] + 'cdhs'[Math.floor(i / 13)]);
  console.log(`js-fisher-yates-v8 ${seed} 52: ${shuffle(deck).join(', ')}`);
} else {
  const n = Number(process.argv[2]);
  for (let deck = 0; deck < Number(process.argv[3] || 1); deck++) {
    console.log(`js-fisher-yates-v8 ${seed} ${n} ${shuffle(Array.from({ length: n }, (_, i) => i)).join(' ')}`);
  }
}
