// node's formatting of the driver's integers: reads reference.txt, prints for each "raw" line
//   SEED VARIANT node d1 ... d200     Number(r) / 2^52 (v8-plus) or / 2^53 (v8-53), as JavaScript prints them
const lines = require('fs').readFileSync(0, 'utf8').trim().split('\n');
for (const line of lines) {
  const [seed, variant, kind, ...values] = line.split(' ');
  if (kind !== 'raw') continue;
  const scale = variant === 'v8-53' ? 2 ** 53 : 2 ** 52;
  console.log(`${seed} ${variant} node ${values.map((v) => Number(BigInt(v)) / scale).join(' ')}`);
}
