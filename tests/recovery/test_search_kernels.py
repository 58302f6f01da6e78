"""The seed search's kernel (rnglab.recovery.search_kernels): the lock step flags exactly what the scalar path flags.

Each reducer's search kernel with its lane form (stage 0 in lock step, :func:`lock_step`) is compared with the
same reducer's kernel without it (stages 1 and 2 on every seed, the path before the lock step), on states at the
ends of the state range, repeated states, decks up to 64 cards and beyond (where the lock step stands aside),
one card followed or several, and many survivors (small decks, one card seen). The kernels against the
library's shuffles are tested in tests/recovery/test_crack.py.
"""

import dataclasses
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rnglab.draws.bounded import STUCK_REJECTIONS
from rnglab.draws.lcg import bound_table, kernel_fields
from rnglab.generators import make_source
from rnglab.recovery.crack import step_table
from rnglab.recovery.search_kernels import search_kernel, search_seeds
from rnglab.reduction.reducers import REDUCERS
from rnglab.shuffles.algorithms import make_shuffle, shuffle
from rnglab.shuffles.steps import step_bounds

#: generator, shuffle, reducer: every lane form, both filters; the default suite compiles the first three.
COMBINATIONS = [
    ("msvc", "fisher-yates", "modulo"),
    ("delphi", "poker1999", "multiply-shift"),
    ("java", "fisher-yates", "java-nextint"),  # rejections: lanes leave the lock step; m = 2^48
    ("borland", "sattolo", "bitmask"),
    ("ansic", "inside-out", "threshold"),
    ("lrand48", "naive", "threshold-openbsd"),
    ("glibc_type0", "forward", "lemire"),
    ("msvc", "poker1999", "float-multiply"),
    ("delphi", "fisher-yates", "python-randbelow"),
]
MATRIX = [c if i < 3 else pytest.param(*c, marks=pytest.mark.slow) for i, c in enumerate(COMBINATIONS)]


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
@given(data=st.data(), n=st.sampled_from([5, 9, 52, 64, 65]), first=st.integers(0, 2**31 - 600),
       size=st.integers(0, 1500), k=st.integers(1, 5), track=st.integers(1, 5))
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


def vector_registers(kernel) -> set[str]:
    """The vector register widths the compiled kernel's arithmetic uses (``ymm``: 256 bits, ``zmm``: 512)."""
    asm = "\n".join(kernel.dispatcher().inspect_asm().values())
    return set(re.findall(r"v(?:psllvq|psrlvq|mulpd|fnmadd\d*pd|pmullq)\s[^\n]*%(ymm|zmm)", asm))


@pytest.mark.skipif("avx2" not in Path("/proc/cpuinfo").read_text() if Path("/proc/cpuinfo").exists() else True,
                    reason="a CPU without AVX2: the lanes have no wide vectors to use")
def test_the_lanes_are_stepped_in_vector_registers():
    kernel = search_kernel(REDUCERS["modulo"].scalar)
    fields, draws, steps, cards, places = arguments("msvc", "fisher-yates", "modulo", 52, 1, [0, 1, 2])
    kernel(np.arange(8, dtype=np.uint64), fields, draws, steps, cards, places, 3, 52, np.zeros(8, dtype=np.uint8))
    assert vector_registers(kernel) & {"ymm", "zmm"}
