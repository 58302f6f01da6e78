"""Loops forever when imported."""

while True:
    pass


def shuffle(items, rng):
    rng.shuffle(items)
