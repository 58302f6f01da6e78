"""The multiplier search in chunks: the candidates of the one-process search, the same best found in any chunks,
and a journal that spares the chunks already done.

The same search on two local dask workers is in tests/recovery/test_distributed.py.
"""

import numpy as np
import pytest

from rnglab.algebra.multiplier_chunks import KIND, best_of, distinct_candidates, search_identity, search_in_chunks
from rnglab.algebra.multipliers import draw_multiplier, search_multipliers
from rnglab.parallel.journal import open_journal

#: The search of the test on two workers, smaller: m = 2^20, c = 0, dimensions 2..6.
SEARCH = (2**20, "0", range(2, 7), 4, 300, 8)


def test_distinct_candidates_are_the_draws_of_the_seed_first_seen_first():
    rng = np.random.default_rng(3)
    draws = [draw_multiplier(rng, 64, "odd") for _ in range(200)]  # (64 / 4 - 1) = 15 values: many repeats
    chosen = distinct_candidates(64, "odd", 200, 3)
    assert chosen == [a for index, a in enumerate(draws) if a not in draws[:index]] and len(chosen) < 200


@pytest.mark.parametrize("chunk", [1, 7, 300])
def test_any_chunks_find_the_multipliers_of_one_process(chunk):
    whole = search_multipliers(*SEARCH[:2], dims=SEARCH[2], top=SEARCH[3], candidates=SEARCH[4], seed=SEARCH[5])
    result, outcome = search_in_chunks(*SEARCH, chunk=chunk)
    assert outcome.complete and result.best == whole.best and result.examined == whole.examined


def test_a_chunk_keeps_its_own_best_as_json():
    # the 3 best of 50 candidates (a larger M, then a smaller a) are the first 3 of all 50 in that order
    chosen = distinct_candidates(2**20, "0", 50, 8)
    order = lambda entry: (-entry[1], entry[0])
    every = sorted(best_of(2**20, "0", (2, 3, 4), len(chosen), 0, 50, chosen), key=order)
    best = best_of(2**20, "0", (2, 3, 4), 3, 0, 50, chosen)
    assert len(every) == len(chosen) and sorted(best, key=order) == every[:3]
    assert all(isinstance(a, int) and len(merits) == 3 and min(merits) == merit for a, merit, merits, _ in best)


def test_a_journal_resumes_without_examining_its_chunks_again(tmp_path):
    identity = search_identity(*SEARCH)
    with open_journal(tmp_path / "journal", KIND, identity) as journal:
        first, _ = search_in_chunks(*SEARCH, chunk=50, journal=journal)
    with open_journal(tmp_path / "journal", KIND, identity) as journal:
        again, outcome = search_in_chunks(*SEARCH, chunk=50, journal=journal)
    assert outcome.ran == 0 and outcome.complete and again.best == first.best and again.examined == first.examined
    assert identity == {"m": 2**20, "increment": "0", "dims": [2, 3, 4, 5, 6], "top": 4, "candidates": 300,
                        "seed": 8}
