"""Small shuffle functions ``shuffle(items, rng)`` for tests/shuffles/test_userfunc.py and the hostile table."""
