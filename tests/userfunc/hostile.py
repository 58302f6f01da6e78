"""Shuffle functions the exact enumeration must refuse with one line."""

import random

CALLS = [0]


def rejection(items, rng):
    """Draw a position until it is unused: no last path (a rejection loop)."""
    used, dealt = set(), []
    while len(dealt) < len(items):
        j = rng.randrange(len(items))
        if j not in used:
            used.add(j)
            dealt.append(items[j])
    return dealt


def hidden_state(items, rng):
    """Rotates the deck by a call counter kept between calls."""
    CALLS[0] += 1
    rng.shuffle(items)
    k = CALLS[0] % len(items)
    items[:] = items[k:] + items[:k]


def other_source(items, rng):
    """Draws from the random module, not from rng."""
    random.shuffle(items)


def raises(items, rng):
    """Fails at once."""
    raise RuntimeError("deck is empty")


def loops(items, rng):
    """Never returns and never draws."""
    while True:
        pass


def not_a_deal(items, rng):
    """Loses a card."""
    return items[1:]


def huge_draw(items, rng):
    """Asks for 64 random bits in one draw."""
    return sorted(items, key=lambda card: rng.getrandbits(64))


not_callable = 42
