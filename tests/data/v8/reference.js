// Reference for rnglab's v8 generator: run as `node --random_seed=N reference.js`.
// Prints three lines for the seed N:
//   N doubles  d1 d2 ... d200       the first 200 Math.random() values (shortest round-trip decimal)
//   N mantissas m1 ... m200          the same values times 2^52 (exact integers: V8's doubles are m / 2^52)
//   N floor52  f1 ... f200           Math.floor(Math.random() * 52) for the next 200 calls
const seed = process.execArgv.find((a) => a.startsWith('--random_seed=')).split('=')[1];
const doubles = Array.from({ length: 200 }, () => Math.random());
console.log(`${seed} doubles ${doubles.join(' ')}`);
console.log(`${seed} mantissas ${doubles.map((d) => d * 2 ** 52).join(' ')}`);
console.log(`${seed} floor52 ${Array.from({ length: 200 }, () => Math.floor(Math.random() * 52)).join(' ')}`);
