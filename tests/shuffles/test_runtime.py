"""Shuffles as real programs write them (rnglab.shuffles.runtime), against the programs' own deals.

The references are tests/data/pipelines/reference_cpp.txt (libstdc++'s ``std::random_shuffle`` on glibc's
``rand()`` and ``std::shuffle`` with ``std::mt19937``, printed by make_reference.cpp built with g++) and
reference_c.txt (Deitel's two-dimensional deck on glibc's ``rand()``, printed by make_reference.c). Each line:
``pipeline seed n`` and the items at positions ``0 .. n-1``.
"""

from pathlib import Path

import pytest

from rnglab.generators import make_source
from rnglab.reduction.reducers import as_reducer
from rnglab.shuffles.algorithms import make_shuffle, shuffle
from rnglab.shuffles.runtime import DEITEL_COLUMNS, deitel_grid

DATA = Path(__file__).parents[1] / "data" / "pipelines"
#: The pipeline a reference line names -> generator, reducer and the runtime's algorithm.
PROGRAMS = {"cpp-random-shuffle": ("glibc", "modulo", "ascending"),
            "cpp-shuffle-mt19937": ("mt19937", "lemire", "libstdcxx-shuffle"),
            "deitel-glibc": ("glibc", "modulo", "deitel")}


def reference_deals():
    for name in ("reference_cpp.txt", "reference_c.txt"):
        for line in (DATA / name).read_text().splitlines():
            program, seed, n, *items = line.split()
            if program in PROGRAMS:
                yield pytest.param(program, int(seed), int(n), [int(v) for v in items], id=f"{program}-{seed}-{n}")


@pytest.mark.parametrize("program, seed, n, items", list(reference_deals()))
def test_each_program_s_deal(program, seed, n, items):
    generator, reducer, algorithm = PROGRAMS[program]
    assert shuffle(n, make_source(generator, seed), make_shuffle(algorithm), as_reducer(reducer)).tolist() == items


def test_every_runtime_program_has_reference_deals():
    assert {case.values[0] for case in reference_deals()} == set(PROGRAMS)


def test_deitel_s_grid_is_four_suits_of_thirteen():
    assert DEITEL_COLUMNS == 13 and deitel_grid(52) == (4, 13) and deitel_grid(26) == (2, 13)
    assert deitel_grid(10) == (1, 10)
