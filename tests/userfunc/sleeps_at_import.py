"""Sleeps when imported."""

import time

time.sleep(3600)


def shuffle(items, rng):
    rng.shuffle(items)
