"""Shuffles as people write them in Python: correct ones, and the broken ones of the articles."""


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


def random_swaps(items, rng):
    """n swaps of two independent uniform positions."""
    for _ in range(len(items)):
        a, b = rng.randrange(len(items)), rng.randrange(len(items))
        items[a], items[b] = items[b], items[a]


def python2_shuffle(items, rng):
    """Python 2's random.shuffle: j = int(random() * (i + 1))."""
    for i in reversed(range(1, len(items))):
        j = int(rng.random() * (i + 1))
        items[i], items[j] = items[j], items[i]


def library_shuffle(items, rng):
    """The rng's own shuffle (CPython 3's random.shuffle)."""
    rng.shuffle(items)


def by_sample(items, rng):
    """random.sample of the whole list, returned as a new list."""
    return rng.sample(items, len(items))


def draw_remove(items, rng):
    """Take a uniform remaining item, in order, into a new list (choice then remove)."""
    left, dealt = list(items), []
    while left:
        card = rng.choice(left)
        left.remove(card)
        dealt.append(card)
    return dealt
