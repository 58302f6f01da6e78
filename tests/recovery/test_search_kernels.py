"""The seed search's kernel (rnglab.recovery.search_kernels): the lock step flags exactly what the scalar path flags.

Each reducer's search kernel with its lane form (stage 0 in lock step, :func:`lock_step`) is compared with the
same reducer's kernel without it (stages 1 and 2 on every seed, the path before the lock step), on states at the
ends of the state range, repeated states, decks up to 63 cards and beyond (where the lock step stands aside),
one card followed or several, and many survivors (small decks, one card seen). Then the hits against dealing
every seed one at a time, the card followed through the swap table, and one kernel per reducer's map. Searches
through crack (every generator, shuffle and reducer, candidates reproduced) are in tests/recovery/test_crack.py.
"""

import dataclasses
import functools
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rnglab.draws.bounded import STUCK_REJECTIONS
from rnglab.draws.lcg import as_fields, bound_table, kernel_fields, serves
from rnglab.generators import LCG, make_source
from rnglab.recovery.crack import compiled_kernel, observe, step_table
from rnglab.recovery.search_kernels import follow_card, search_kernel, search_seeds
from rnglab.reduction.reducers import REDUCERS, as_reducer
from rnglab.shuffles.algorithms import make_shuffle, shuffle
from rnglab.shuffles.cards import standard_deck
from rnglab.shuffles.steps import step_bounds

#: generator, shuffle, reducer: every lane form, both filters; the default suite compiles the first two, -m slow
#: the next four, -m exhaustive the last three (each pair of kernels compiles for about a minute on a cold cache, the
#: multiply-shift pair for over two; every lane form is also checked against its one-draw map in
#: tests/reduction/test_scalar.py).
COMBINATIONS = [
    ("msvc", "fisher-yates", "modulo"),
    ("java", "fisher-yates", "java-nextint"),  # rejections: lanes leave the lock step; m = 2^48
    ("delphi", "poker1999", "multiply-shift"),
    ("borland", "sattolo", "bitmask"),
    ("ansic", "inside-out", "threshold"),
    ("lrand48", "naive", "threshold-openbsd"),
    ("glibc_type0", "forward", "lemire"),
    ("msvc", "poker1999", "float-multiply"),
    ("delphi", "fisher-yates", "python-randbelow"),
]
MATRIX = [c if i < 2 else pytest.param(*c, marks=pytest.mark.slow if i < 6 else pytest.mark.exhaustive)
          for i, c in enumerate(COMBINATIONS)]


def without_lanes(scalar):
    """The same reducer with no lane form: its kernel runs stages 1 and 2 on every seed."""
    return dataclasses.replace(scalar, lanes=None)


def arguments(generator, algo, method, n, seen, positions):
    """The kernel's arguments but the states, for the cards that ``seen``'s deal shows at ``positions``."""
    source, reducer, chosen = make_source(generator), REDUCERS[method], make_shuffle(algo)
    deck = shuffle(n, make_source(generator, seen), chosen, reducer)
    steps = chosen.swap_program(n)
    table = step_table(steps, n)
    return (kernel_fields(source), bound_table(step_bounds(steps), reducer, source.range_size), table,
            np.array(deck[positions], dtype=np.int64), np.array(positions, dtype=np.int64))


def states_for(generator, seeds, extra):
    """The states of ``seeds``, then the ``extra`` states given as is (range ends, repeats)."""
    source = make_source(generator)
    states = [source.seeding.to_state(s) for s in seeds]
    return np.array(states + extra, dtype=np.uint64)


@pytest.mark.parametrize("generator, algo, method", MATRIX)
@settings(max_examples=40, deadline=None)
@given(data=st.data(), n=st.sampled_from([5, 9, 52, 63, 64, 65]), first=st.integers(0, 2**31 - 1 - 1500),
       size=st.integers(0, 1500), k=st.integers(1, 5), track=st.integers(1, 5))  # seeds below 2^31 (31-bit seedings)
def test_the_lock_step_flags_exactly_what_the_scalar_path_flags(generator, algo, method, data, n, first, size, k,
                                                                   track):
    positions = data.draw(st.lists(st.integers(0, n - 1), min_size=k, max_size=k, unique=True))
    fields, draws, steps, cards, places = arguments(generator, algo, method, n, first + size // 2, positions)
    top = int(fields[3]) if fields[3] else int(fields[2]) - 1
    extra = data.draw(st.lists(st.sampled_from([0, 1, top, top - 1, top // 2]), max_size=40))
    states = states_for(generator, range(first, first + size), extra)
    states = np.concatenate([states, states[: data.draw(st.integers(0, 30))]])  # repeated states: overlapping hits
    scalar = REDUCERS[method].scalar
    track = min(track, k)
    ours = search_seeds(scalar, states, fields, draws, steps, cards, places, track, n)
    theirs = search_seeds(without_lanes(scalar), states, fields, draws, steps, cards, places, track, n)
    assert ours.tolist() == theirs.tolist()
    if size and n <= 9 and k == 1:
        assert ours.any()  # the deal's own seed, at least


def test_a_stuck_source_is_reported_by_both_paths_alike():
    # An LCG with a = 1, c = 0 stands still. java-nextint on next(32) words, n = 3: r = x >> 1 is kept below
    # 2^31 - 2, so the state 2^32 - 1 (r = 2^31 - 1) is rejected at every draw; 5 and 7 are kept.
    fields = np.array([1, 0, 0, 2**32 - 1, 0, 2**32 - 1, 0, 2**32, 32], dtype=np.uint64)
    reducer, program = REDUCERS["java-nextint"], make_shuffle("fisher-yates").swap_program(3)
    steps, draws = step_table(program, 3), bound_table(step_bounds(program), reducer, 2**32)
    cards, places = np.array([0, 2], dtype=np.int64), np.array([1, 2], dtype=np.int64)
    kept = [search_seeds(scalar, np.array([5, 7], dtype=np.uint64), fields, draws, steps, cards, places, 2, 3).tolist()
            for scalar in (reducer.scalar, without_lanes(reducer.scalar))]
    assert kept == [[1, 0], [1, 0]]  # 5: r = 2 draws 2, then 0: deck 1 0 2; 7: r = 3 draws 0, then 0: deck 1 2 0
    for scalar in (reducer.scalar, without_lanes(reducer.scalar)):
        with pytest.raises(ValueError, match=f"{STUCK_REJECTIONS} rejected values in a row"):
            search_seeds(scalar, np.array([5, 2**32 - 1], dtype=np.uint64), fields, draws, steps, cards, places, 2, 3)


def fresh_assembly(kernel, *args) -> str:
    """The kernel's assembly, compiled afresh for ``args`` without numba's disk cache (a kernel loaded from the cache
    has no assembly to inspect)."""
    import numba

    kernel.dispatcher()  # the kernels it calls resolved to their dispatchers
    fresh = numba.njit(**{**kernel.options, "cache": False})(kernel.py_func)
    fresh(*args)
    return "\n".join(fresh.inspect_asm().values())


def vector_instructions(asm: str) -> set[tuple[str, str]]:
    """The vector arithmetic of ``asm``, as (instruction, register width) pairs (``ymm``: 256 bits, ``zmm``: 512)."""
    return set(re.findall(r"v(psllvq|psrlvq|mulpd|fnmadd\d*pd|pmullq|pmuludq)\s[^\n]*%(ymm|zmm)", asm))


@pytest.mark.skipif("avx2" not in Path("/proc/cpuinfo").read_text() if Path("/proc/cpuinfo").exists() else True,
                    reason="a CPU without AVX2: the lanes have no wide vectors to use")
@pytest.mark.slow  # compiles two kernels afresh (about 30 s each)
@pytest.mark.parametrize("generator, algo, method, expected", [
    ("msvc", "fisher-yates", "modulo", {"mulpd"}),  # the remainder by the float reciprocal
    # Random(n) = (x n) >> 32 of two 32-bit words: one 32 x 32 -> 64-bit multiply a lane, not a 64-bit one
    ("delphi", "poker1999", "multiply-shift", {"pmuludq"}),
])
def test_the_lanes_are_stepped_in_vector_registers(generator, algo, method, expected):
    kernel = search_kernel(REDUCERS[method].scalar)
    fields, draws, steps, cards, places = arguments(generator, algo, method, 52, 1, [0, 1, 2])
    asm = fresh_assembly(kernel, np.arange(8, dtype=np.uint64), fields, draws, steps, cards, places, 1, 52,
                         np.zeros(8, dtype=np.uint8))
    used = vector_instructions(asm)
    assert {name for name, _ in used} >= expected and {width for _, width in used} & {"ymm", "zmm"}
    # no array assigned through an index array: numba would compile its shape error's text (about 3 CPU s in a
    # process's first kernel that does; the hits are written back by a loop)
    assert "cannot assign slice" not in asm


SEEDS = np.arange(1100, 1400)


@functools.cache
def library_deals(generator, algo, reducer, seeds):
    """The one-at-a-time deals of ``seeds`` (a tuple): the reference of the search."""
    return np.array([shuffle(52, make_source(generator, seed), make_shuffle(algo), REDUCERS[reducer])
                     for seed in seeds])


def test_kernels_are_the_reducers_maps_not_registry_positions():
    # ranqd1's whole 32-bit words: every reducer takes them (java-nextint reads R = 2^32 only: not msvc's 2^15)
    ranqd1, mmix = make_source("ranqd1"), make_source("lcg:a=6364136223846793005,c=1442695040888963407,m=2^64")
    assert all(serves(ranqd1, entry) for entry in REDUCERS.values())
    assert [name for name, entry in REDUCERS.items() if not serves(make_source("msvc"), entry)] == ["java-nextint"]
    assert [name for name, entry in REDUCERS.items() if serves(mmix, entry)] == ["bitmask", "lemire"]
    assert search_kernel(REDUCERS["lemire"].scalar) is search_kernel(as_reducer("lemire").scalar)


@pytest.mark.parametrize("generator, algo, reducer", [("msvc", "fisher-yates", "modulo"),
                                                      ("minstd", "naive", "lemire")])
@pytest.mark.parametrize("track", [1, 2])
def test_hits_are_the_seeds_whose_deal_shows_the_cards(generator, algo, reducer, track):
    # two cards of seed 1234's deal at positions 0 and 5: the hits are exactly the seeds dealing both there
    # (one card followed to the end, or both with the final positions checked on the way)
    decks = library_deals(generator, algo, reducer, tuple(SEEDS.tolist()))
    positions = [0, 5]
    cards = decks[SEEDS.tolist().index(1234)][positions]
    observation = observe(" ".join(standard_deck().names(cards)), "0,5")
    source = make_source(generator)
    kernel = compiled_kernel(source, REDUCERS[reducer], make_shuffle(algo), observation)
    states = np.asarray(source.seeding.to_states(SEEDS), dtype=np.uint64)
    hits = search_seeds(kernel["scalar"], states, kernel["generator"], kernel["draws"], kernel["steps"],
                        np.array(cards, dtype=np.int64), np.array(positions, dtype=np.int64), track, 52)
    expected = (decks[:, positions] == cards).all(axis=1)
    assert hits.astype(bool).tolist() == expected.tolist() and expected.sum() >= 1


def test_a_followed_card_ends_where_the_deal_puts_it():
    source, reducer = make_source("msvc"), REDUCERS["modulo"]
    kernel = compiled_kernel(source, reducer, make_shuffle("fisher-yates"), observe("Ac"))
    deck = library_deals("msvc", "fisher-yates", "modulo", (77,))[0]
    x = np.uint64(source.seeding.to_state(77))
    for card in (0, 13, 51):
        position, fewest = follow_card(kernel["scalar"].reduce, x, as_fields(kernel["generator"]), kernel["draws"], kernel["steps"],
                                       card, 1000)
        assert (position, fewest) == (deck.tolist().index(card), 1)


def test_a_followed_card_of_a_stuck_source_reports_no_draw():
    # x -> 3 x + 2 mod 2^32 holds 2^32 - 1, which threshold rejects: the fewest outputs a draw took is 0
    source = LCG(a=3, c=2, m=2**32, seed=1)
    kernel = compiled_kernel(source, REDUCERS["threshold"], make_shuffle("fisher-yates"), observe("Ac"))
    _, fewest = follow_card(kernel["scalar"].reduce, np.uint64(2**32 - 1), as_fields(kernel["generator"]), kernel["draws"],
                            kernel["steps"], 0, 20)
    assert fewest == 0
