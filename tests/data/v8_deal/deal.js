// Reference for rnglab.seeds.linear: run as `node --random_seed=N deal.js` (make_reference.sh runs the seeds).
// Prints "N card0 card1 ... card51": the deck 0..51 after the JavaScript Fisher-Yates deal
//   for (i = n; i > 0; i--) { r = Math.floor(Math.random() * i); swap(r, i - 1) }
// made with the first 52 Math.random() calls of a fresh context seeded with N.
const seed = process.execArgv.find((a) => a.startsWith('--random_seed=')).split('=')[1];
const deck = Array.from({ length: 52 }, (_, k) => k);
for (let i = deck.length; i > 0; i--) {
  const r = Math.floor(Math.random() * i);
  [deck[r], deck[i - 1]] = [deck[i - 1], deck[r]];
}
console.log(`${seed} ${deck.join(' ')}`);
