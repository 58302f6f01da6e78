"""random.shuffle after random.seed(int(time.time())), as a Python card server writes it.

Run with CPython 3:  python3 make_reference_python_time.py > reference_python_time.txt
                     python3 make_reference_python_time.py names > names_python_time.txt

The program reads the real clock; each line prints the seed it used (the Unix time in whole seconds), so the
deal is pinned to the seed the real program took. ``random.seed(int)`` goes through ``init_by_array`` and
``random.shuffle`` draws ``_randbelow(i + 1)``, i from n-1 down to 1 (CPython Lib/random.py).
Each line: ``python3-shuffle-time SEED N`` and the items 0..N-1 shuffled; with ``names``, the 52 cards named
``"A23456789TJQK"[i % 13] + "cdhs"[i // 13]`` (rnglab's standard deck), ``SEED 52:`` and the names, ", " apart.
"""

import random
import sys
import time

NAME = "python3-shuffle-time"


def deal(items):
    seed = int(time.time())
    random.seed(seed)
    random.shuffle(items)
    return seed, items


def main():
    print(f"# CPython {sys.version.split()[0]}")
    if sys.argv[1:] == ["names"]:
        seed, cards = deal(["A23456789TJQK"[i % 13] + "cdhs"[i // 13] for i in range(52)])
        print(f"{NAME} {seed} 52: " + ", ".join(cards))
        return
    for n in (1, 2, 5, 10, 52):
        seed, items = deal(list(range(n)))
        print(NAME, seed, n, *items)


if __name__ == "__main__":
    main()
