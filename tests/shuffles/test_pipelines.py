"""Named pipelines, bit for bit against the real runtimes' outputs in tests/data/pipelines/.

Each reference line is ``pipeline seed n items...``, written by the program beside it (C on glibc,
C++ with libstdc++, Java, CPython 3 and numpy; VBScript through a transcription, see make_reference_vb.c).
The same programs run with the argument ``names`` print the cards they deal by name (``names_*.txt``):
Deitel's program as the book prints them ("Ace of Hearts"), the others from an array of rnglab's card names.
"""

import itertools
import json
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from rnglab.cli import main
from rnglab.generators.vb import randomize_seed
from rnglab.shuffles.algorithms import shuffle
from rnglab.shuffles.cards import RANKS, deck_for
from rnglab.shuffles.draws import ScriptedDraws
from rnglab.shuffles.fairness import permutation_law
from rnglab.shuffles.pipelines import as_pipeline, pipelines

DATA = Path(__file__).parents[1] / "data" / "pipelines"
#: Reference names that are another pipeline's (numpy's permutation(n) is shuffle(arange(n))).
SAME_AS = {"numpy-permutation": "numpy-shuffle"}


def reference_cases():
    for path in sorted(DATA.glob("reference_*.txt")):
        for line in path.read_text().splitlines():
            if line.strip() and not line.startswith("#"):
                name, seed, n, *items = line.split()
                yield pytest.param(name, seed, int(n), [int(v) for v in items], id=f"{name}-{seed}-{n}")


def name_cases():
    for path in sorted(DATA.glob("names_*.txt")):
        for line in path.read_text().splitlines():
            if line.strip() and not line.startswith("#"):
                head, cards = line.split(": ", 1)
                name, seed, n = head.split()
                yield pytest.param(name, seed, int(n), cards.split(", "), id=f"{name}-{seed}")


#: Deitel's face[13] and the initials of his suit[4] (Hearts, Diamonds, Clubs, Spades): rnglab's card names.
DEITEL_FACES = ("Ace", "Deuce", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen",
                "King")


def short_name(printed: str) -> str:
    """``Ace of Hearts`` -> ``Ah``, as rnglab writes a card; other names are kept."""
    face, of, suit = (printed.split() + ["", ""])[:3]
    return RANKS[DEITEL_FACES.index(face)] + suit[0].lower() if of == "of" else printed


def cli_seed(name: str, seed: str) -> int:
    """The generator seed behind a reference's seed (VBScript lines give Randomize's argument)."""
    return randomize_seed(float(seed)) if name.startswith("vbscript") else int(seed)


def deal(name: str, seed: int, n: int) -> list[int]:
    chosen = as_pipeline(SAME_AS.get(name, name)).with_seed(seed)
    return shuffle(n, chosen.generator.make(), chosen.shuffle, chosen.reducer).tolist()


@pytest.mark.parametrize("name, seed, n, items", list(reference_cases()))
def test_pipeline_deals_what_the_runtime_deals(name, seed, n, items):
    # VBScript lines give Randomize's argument; the vbscript generator's seed is the 16 bits it keeps
    assert deal(name, cli_seed(name, seed), n) == items


@pytest.mark.parametrize("name, seed, n, cards", list(name_cases()))
def test_pipeline_prints_the_cards_its_program_prints(name, seed, n, cards, capsys):
    assert main(["shuffle", name, "--seed", str(cli_seed(name, seed))]) == 0
    assert capsys.readouterr().out.split() == [short_name(card) for card in cards]


def test_every_pipeline_is_pinned_by_its_printed_names():
    assert {case.values[0] for case in name_cases()} == set(pipelines())


def test_deitel_glibc_is_cracked_from_the_cards_its_program_prints(capsys):
    # srand(1795341600): the first 5 cards the compiled program prints (names_c.txt), as it prints them or as rnglab does
    printed = next(case.values[3] for case in name_cases() if case.values[:2] == ("deitel-glibc", "1795341600"))
    assert printed[:4] == ["Six of Clubs", "Five of Clubs", "Eight of Spades", "Deuce of Hearts"]
    for seen in (", ".join(printed[:5]), " ".join(short_name(card) for card in printed[:5])):  # as printed, or Ah
        assert main(["crack", "deitel-glibc", "--window", "2026-11-22T10:00:00±10s", "--seen", seen, "--json"]) == 0
        assert [c["seed"] for c in json.loads(capsys.readouterr().out)["candidates"]] == [1795341600]


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
    from rnglab.recovery.crack import crack, observe

    chosen, seed = as_pipeline(name), 1_795_341_605
    seen = observe(" ".join(map(str, deal(name, seed, 52)[:5])), None, deck_for("52"))
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
