// The JavaScript Fisher-Yates of the shuffling articles on node's Math.random: run as
// `node --random_seed=SEED make_reference.js N [DECKS]`; prints "js-fisher-yates-v8 SEED N items..." for each of
// DECKS (default 1) decks 0..N-1 shuffled in turn. make_reference_js.sh writes reference_js.txt (one deck per
// process) and js_decks_in_turn.txt (three decks in one process: the last draw of each, below 1, is spent).
const seed = process.execArgv.find((a) => a.startsWith('--random_seed=')).split('=')[1];
const n = Number(process.argv[2]);
for (let deck = 0; deck < Number(process.argv[3] || 1); deck++) {
  const a = Array.from({ length: n }, (_, i) => i);
  for (let i = n; i > 0; i--) {
    const r = Math.floor(Math.random() * i);
    [a[r], a[i - 1]] = [a[i - 1], a[r]];
  }
  console.log(`js-fisher-yates-v8 ${seed} ${n} ${a.join(' ')}`);
}
