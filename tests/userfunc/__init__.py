"""Small shuffle functions ``shuffle(items, rng)`` for tests/test_userfunc.py and the hostile table."""
