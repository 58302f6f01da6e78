"""Named pipelines, bit for bit against the real runtimes' outputs in tests/data/pipelines/.

Each reference line is ``pipeline seed n items...``, written by the program beside it (C on glibc,
C++ with libstdc++, Java, CPython 3 and numpy; VBScript through a transcription, see make_reference_vb.c).
"""

import itertools
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from rnglab.generators.vb import randomize_seed
from rnglab.shuffles.algorithms import shuffle
from rnglab.shuffles.draws import ScriptedDraws
from rnglab.shuffles.fairness import permutation_law
from rnglab.shuffles.pipelines import as_pipeline, pipelines

DATA = Path(__file__).parent / "data" / "pipelines"
#: Reference names that are another pipeline's (numpy's permutation(n) is shuffle(arange(n))).
SAME_AS = {"numpy-permutation": "numpy-shuffle"}


def reference_cases():
    for path in sorted(DATA.glob("reference_*.txt")):
        for line in path.read_text().splitlines():
            if line.strip() and not line.startswith("#"):
                name, seed, n, *items = line.split()
                yield pytest.param(name, seed, int(n), [int(v) for v in items], id=f"{name}-{seed}-{n}")


def deal(name: str, seed: int, n: int) -> list[int]:
    chosen = as_pipeline(SAME_AS.get(name, name)).with_seed(seed)
    return shuffle(n, chosen.generator.make(), chosen.shuffle, chosen.reducer).tolist()


@pytest.mark.parametrize("name, seed, n, items", list(reference_cases()))
def test_pipeline_deals_what_the_runtime_deals(name, seed, n, items):
    # VBScript lines give Randomize's argument; the vbscript generator's seed is the 16 bits it keeps
    seed = randomize_seed(float(seed)) if name.startswith("vbscript") else int(seed)
    assert deal(name, seed, n) == items


def test_every_pipeline_is_pinned_by_a_reference():
    pinned = {SAME_AS.get(case.values[0], case.values[0]) for case in reference_cases()}
    assert pinned == set(pipelines())


def test_python3_shuffle_issue_example():
    # random.Random(42).shuffle(list(range(10))) in CPython 3
    assert deal("python3-shuffle", 42, 10) == [7, 3, 2, 8, 5, 6, 9, 4, 0, 1]


def law_probabilities(name, n):
    law = permutation_law(as_pipeline(name).shuffle, n)
    sizes = law.sizes or [1] * len(law.counts)
    return sorted(Fraction(int(c), law.denominator) for c, size in zip(law.counts, sizes) for _ in range(size))


@pytest.mark.parametrize("name", ["cpp-shuffle-mt19937", "cpp-random-shuffle", "deitel-glibc", "python3-shuffle"])
def test_law_under_an_ideal_source_is_uniform(name):
    assert law_probabilities(name, 4) == [Fraction(1, 24)] * 24


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_libstdcxx_pairs_enumerated_are_uniform(n):
    # Every path of the real loop (one draw below 2 for even n, then below (i+1)(i+2)) gives each deal once
    bounds = ([2] if n % 2 == 0 else []) + [(i + 1) * (i + 2) for i in range(2 - n % 2, n, 2)]
    paths = np.array(list(itertools.product(*[range(b) for b in bounds])), dtype=np.int64).reshape(-1, len(bounds))
    decks = np.tile(np.arange(n, dtype=np.uint8), (len(paths), 1))
    dealt = as_pipeline("cpp-shuffle-mt19937").shuffle.run(decks, ScriptedDraws(paths))
    assert len(paths) == math.factorial(n) and len({tuple(d) for d in dealt.tolist()}) == len(paths)


def test_naive_pipeline_law_is_the_naive_exchange():
    # Robbins and Bolker: the naive exchange on 3 items, 27 paths onto 6 deals (4, 5, 5, 5, 4, 4)
    assert law_probabilities("c-naive-glibc", 3) == [Fraction(4, 27)] * 3 + [Fraction(5, 27)] * 3


def test_jieqi_deck_is_fifteen_pieces():
    deck = as_pipeline("vbscript-xiangqi").deck
    assert deck.size == 15 and "general" not in deck.labels and deck.labels.count("soldier") == 5


def test_unknown_pipeline_lists_names():
    with pytest.raises(ValueError, match="unknown pipeline 'nope'; choose from deitel-glibc"):
        as_pipeline("nope")


@pytest.mark.parametrize("name", ["deitel-glibc", "cpp-random-shuffle", "c-swaps-msvc"])
def test_crack_finds_the_time_seed_of_a_pipeline(name):
    # srand(time(0)) 5 s after 10:00:00; glibc's rand() is searched seed by seed, MSVC's in a batch
    from rnglab.seeds.crack import crack, observe

    chosen, seed = as_pipeline(name), 1_795_341_605
    seen = observe(" ".join(map(str, deal(name, seed, 52)[:5])), None, "52")
    result = crack(chosen.generator, chosen.seed_space("2026-11-22T10:00:00±10s"), seen, algo=chosen.shuffle,
                   reducer=chosen.reducer)
    assert [candidate.seed for candidate in result.candidates] == [seed] and result.searched == 20


def test_pipeline_seed_spaces():
    assert as_pipeline("vbscript-xiangqi").seed_space("1d").size <= 2**16
    assert as_pipeline("deitel-glibc").seed_space("2026-11-22T10:00:00±30s").size == 60
    with pytest.raises(ValueError, match="not enumerable"):
        as_pipeline("python3-shuffle").seed_space().seeds()


@pytest.mark.parametrize("name", ["deitel-glibc", "c-swaps-glibc", "cpp-random-shuffle", "c-naive-glibc"])
def test_glibc_lanes_deal_what_one_generator_per_seed_deals(name):
    # The batch path of glibc's rand() (GlibcBatch + LaneDraws: lanes consume different numbers of values)
    from rnglab.shuffles.reach import seed_decks

    chosen = as_pipeline(name)
    seeds = np.array([0, 1, 2, 42, 2**31, 2**32 - 1, 1_795_341_600], dtype=np.uint64)
    decks = seed_decks(chosen.generator, seeds, 52, chosen.shuffle, chosen.reducer)
    assert decks.tolist() == [deal(name, int(seed), 52) for seed in seeds]


def test_js_fisher_yates_spends_the_last_draw():
    # node --random_seed=7: three decks of 5 shuffled in turn in one process (tests/data/pipelines/): the step
    # i = 0 draws Math.floor(Math.random() * 1), so each deck takes 5 values, not 4
    from rnglab.shuffles.algorithms import shuffle_in_turn

    chosen = as_pipeline("js-fisher-yates-v8").with_seed(7)
    decks = shuffle_in_turn(5, chosen.generator.make(), 3, chosen.shuffle, chosen.reducer)
    expected = [[int(v) for v in line.split()[3:]] for line in (DATA / "js_decks_in_turn.txt").read_text().splitlines()]
    assert decks.tolist() == expected
