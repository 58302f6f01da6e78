"""Shuffle functions beside the audit TOML files (an audit's function = names a .py file in the TOML's folder)."""


def fisher_yates(items, rng):
    """Durstenfeld: i from the end down to 1, swap i with j uniform in [0, i]."""
    for i in range(len(items) - 1, 0, -1):
        j = rng.randint(0, i)
        items[i], items[j] = items[j], items[i]


def naive_exchange(items, rng):
    """The naive exchange (Atwood 2007): swap every i with j uniform in [0, n-1]."""
    for i in range(len(items)):
        j = rng.randrange(len(items))
        items[i], items[j] = items[j], items[i]


def python2_shuffle(items, rng):
    """Python 2's random.shuffle: j = int(random() * (i + 1)); at 8 bits, 5 cards have 2^32 paths."""
    for i in reversed(range(1, len(items))):
        j = int(rng.random() * (i + 1))
        items[i], items[j] = items[j], items[i]
