"""Reference deals of Python's and numpy's shuffles, for tests/shuffles/test_pipelines.py.

Run with CPython 3 and numpy:  python3 make_reference.py > reference_python.txt

* python3-shuffle: random.Random(seed).shuffle (Lib/random.py: j = _randbelow(i + 1), i from n-1 down to 1);
* python2-shuffle: Python 2.7's random.shuffle, ``j = int(random() * (i + 1))``, written out here on
  CPython 3's random.Random(seed).random(): no Python 2 is at hand. Both versions seed an int through
  init_by_array(abs(seed)) and compute random() with genrand_res53, so this is Python 2's algorithm on
  Python 2's stream (an assumption stated, not checked against a Python 2 binary);
* numpy-shuffle, numpy-permutation: numpy.random.Generator(PCG64(seed)).shuffle / .permutation(n).

Each line: pipeline seed n, then the items at positions 0 .. n-1.
With the argument ``names`` (``python3 make_reference.py names > names_python.txt``): 52 cards named
``"A23456789TJQK"[i % 13] + "cdhs"[i // 13]`` (rnglab's standard deck) shuffled, each line
``pipeline seed 52:`` and the names, ", " apart.
"""

import random
import sys

import numpy as np


def python2_shuffle(items, rng):
    for i in reversed(range(1, len(items))):
        j = int(rng.random() * (i + 1))
        items[i], items[j] = items[j], items[i]


def names_main():
    deck = ["A23456789TJQK"[i % 13] + "cdhs"[i // 13] for i in range(52)]
    print(f"# CPython {sys.version.split()[0]}, numpy {np.__version__}")
    for seed in (0, 1, 42, 1795341600):
        deals = {"python3-shuffle": list(deck), "python2-shuffle": list(deck)}
        random.Random(seed).shuffle(deals["python3-shuffle"])
        python2_shuffle(deals["python2-shuffle"], random.Random(seed))
        array = np.array(deck)
        np.random.Generator(np.random.PCG64(seed)).shuffle(array)
        deals["numpy-shuffle"] = array.tolist()
        for name, deal in deals.items():
            print(f"{name} {seed} 52: " + ", ".join(deal))


def main():
    print(f"# CPython {sys.version.split()[0]}, numpy {np.__version__}")
    for seed in (0, 1, 42, 1795341600):
        for n in (1, 2, 5, 10, 52):
            deals = {}
            deals["python3-shuffle"] = list(range(n))
            random.Random(seed).shuffle(deals["python3-shuffle"])
            deals["python2-shuffle"] = list(range(n))
            python2_shuffle(deals["python2-shuffle"], random.Random(seed))
            array = np.arange(n)
            np.random.Generator(np.random.PCG64(seed)).shuffle(array)
            deals["numpy-shuffle"] = array.tolist()
            deals["numpy-permutation"] = np.random.Generator(np.random.PCG64(seed)).permutation(n).tolist()
            for name, deal in deals.items():
                print(name, seed, n, *deal)


if __name__ == "__main__":
    names_main() if sys.argv[1:] == ["names"] else main()
