// Reference for rnglab/shuffles/comparator.py: what V8's Array.prototype.sort does with a comparator.
//
// 1. Every path of comparator answers (-1 or +1), depth first, for arrays [0 .. n-1], n = 1..6:
//    the pairs (x, y) the sort passes to the comparator, in order, and the sorted array.
// 2. The law of arr.sort(() => Math.random() - 0.5) on [0, 1, 2, 3], counted over 10^6 sorts.
//
// Run: node make_reference.js > reference.json   (the output records node's and V8's versions)

function sortPath(n, answers) {
  const pairs = [];
  const array = Array.from({ length: n }, (_, i) => i);
  array.sort((x, y) => {
    const step = pairs.length;
    pairs.push([x, y]);
    return step < answers.length ? answers[step] : -1;
  });
  return { pairs, array };
}

function tree(n) {
  const leaves = [];
  let prefix = [];
  for (;;) {
    const { pairs, array } = sortPath(n, prefix);
    const answers = pairs.map((_, step) => (step < prefix.length ? prefix[step] : -1));
    leaves.push({ answers: answers.map((a) => (a < 0 ? "-" : "+")).join(""), pairs, array });
    while (answers.length && answers[answers.length - 1] === 1) answers.pop();
    if (!answers.length) break;
    answers[answers.length - 1] = 1;
    prefix = answers;
  }
  return leaves;
}

const trees = {};
for (let n = 1; n <= 6; n++) trees[n] = tree(n);

const counts = {};
const sorts = 1000000;
for (let k = 0; k < sorts; k++) {
  const key = [0, 1, 2, 3].sort(() => Math.random() - 0.5).join("");
  counts[key] = (counts[key] || 0) + 1;
}
console.log(JSON.stringify({ node: process.version, v8: process.versions.v8, trees, n4: { sorts, counts } }));
