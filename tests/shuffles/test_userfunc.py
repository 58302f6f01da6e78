"""The user's own shuffle function: the exact enumeration against rnglab's own exact laws, and its refusals."""

from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from userfunc import articles

from rnglab.generators import make_source
from rnglab.reduction.reducers import REDUCERS
from rnglab.shuffles import sandbox
from rnglab.shuffles.algorithms import make_shuffle
from rnglab.shuffles.fairness import deal_law, exact_fairness, permutation_law, position_chi_square
from rnglab.shuffles.paths import RandomMethods, enumerate_deals
from rnglab.shuffles.userfunc import SourceRandom, function_fairness, function_position_counts, load_function

HERE = Path(__file__).parents[1] / "userfunc"


def function_law(function, n, **options):
    deals = enumerate_deals(function, n, **options)
    return deal_law(deals), deals.paths


def probabilities(law):
    return [Fraction(int(count), law.denominator) for count in law.counts]


def forward(items, rng):
    for i in range(len(items) - 1):
        j = rng.randrange(i, len(items))
        items[i], items[j] = items[j], items[i]


def sattolo(items, rng):
    for i in range(len(items) - 1, 0, -1):
        j = rng.randrange(i)
        items[i], items[j] = items[j], items[i]


def inside_out(items, rng):
    out = []
    for i, item in enumerate(items):
        j = rng.randint(0, i)
        out.append(out[j] if j < i else item)
        out[j] = item
    return out


def poker1999(items, rng):
    """Arkin et al. 1999, 0-based: swap position i with random(n - 1), i.e. [0, n-2]."""
    for i in range(len(items)):
        j = rng.randrange(len(items) - 1) if len(items) > 1 else 0
        items[i], items[j] = items[j], items[i]


PLAIN = [(articles.fisher_yates, "fisher-yates"), (articles.naive_exchange, "naive"), (forward, "forward"),
         (sattolo, "sattolo"), (inside_out, "inside-out"), (poker1999, "poker1999"),
         (articles.draw_remove, "draw-remove"), (articles.library_shuffle, "fisher-yates"),
         (articles.by_sample, "draw-remove")]


@pytest.mark.parametrize("n", [3, 4, 5, 6])
@pytest.mark.parametrize("function,algo", PLAIN, ids=[algo + "-" + f.__name__ for f, algo in PLAIN])
def test_enumeration_reproduces_the_exact_law_of_rnglabs_algorithm(function, algo, n):
    law, _ = function_law(function, n)
    assert probabilities(law) == probabilities(permutation_law(make_shuffle(algo), n))


@pytest.mark.parametrize("n", [3, 4])
def test_random_swaps_match_the_cycle_type_law(n):
    mine, theirs = function_fairness(articles.random_swaps, n, label="swaps"), exact_fairness(make_shuffle("transpositions"), n)
    for field in ("tv_distance", "reachable", "paths", "position_max_deviation", "position_matrix"):
        assert getattr(mine, field) == getattr(theirs, field)
    assert mine.most_likely.prob == theirs.most_likely.prob and mine.least_likely.prob == theirs.least_likely.prob


def test_correct_fisher_yates_is_uniform_and_the_broken_exchange_is_not():
    fair, broken = (function_fairness(f, 6, label="f") for f in (articles.fisher_yates, articles.naive_exchange))
    assert fair.tv_distance == 0 and fair.position_max_deviation == 0 and fair.reachable == 720
    assert fair.shuffles_to_detect is None
    # n = 3: 27 paths onto 6 deals, [0, 2, 1] on 5 of them (Atwood 2007; rnglab's own naive law)
    small = function_fairness(articles.naive_exchange, 3, label="naive")
    assert small.tv_distance == Fraction(1, 18) and small.most_likely.prob == Fraction(5, 27)
    assert broken.tv_distance == exact_fairness(make_shuffle("naive"), 6).tv_distance > 0


def test_random_at_four_bits_gives_python2s_floor_law():
    # j = int(u * (i + 1)) with u = k / 16: for i + 1 = 3, j = 0, 1, 2 on 6, 5, 5 of the 16 values of k
    law, paths = function_law(articles.python2_shuffle, 3, random_bits=4)
    weight = {0: 6, 1: 5, 2: 5}
    expected = [Fraction(weight[first] * 8, 16 * 16) for first in range(3) for second in range(2)]
    assert paths == 256 and sorted(probabilities(law)) == sorted(expected)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=1, max_size=4), st.integers(2, 4))
def test_probabilities_sum_to_one_exactly(bounds, n):
    def drawing(items, rng):  # data-dependent draws: each bound depends on the last answer
        for b in bounds:
            j = rng.randrange(b + items[0] % 2)
            items[0], items[j % n] = items[j % n], items[0]

    law, _ = function_law(drawing, n)
    assert sum(probabilities(law)) == 1 and all(c >= 0 for c in law.counts)


class Counting(RandomMethods):
    """Answers 0 always, counting the bounds asked."""

    def __init__(self):
        self.bounds = []

    def below(self, bound):
        self.bounds.append(bound)
        return 0


def test_methods_follow_cpython():
    rng = Counting()
    assert [rng.randrange(3, 10, 2), rng.randint(5, 7), rng.choice("xyz"), rng.getrandbits(5)] == [3, 5, "x", 0]
    rng.shuffle(list(range(4)))
    assert rng.sample(range(4), 2) == [0, 3]  # pool method: pick 0, then pool[0] = pool[3]
    assert rng.bounds == [4, 3, 3, 32, 4, 3, 2, 4, 3]
    with pytest.raises(ValueError, match="empty range"):
        rng.randrange(3, 3)


def test_source_rng_draws_through_the_reducer():
    source = make_source("msvc", seed=1)
    rng = SourceRandom(source, REDUCERS["modulo"])
    assert [rng.randrange(52) for _ in range(3)] == [41 % 52, 18467 % 52, 6334 % 52]  # MSVC rand(), seed 1


def test_reading_ahead_leaves_the_stream_unchanged():
    ahead, plain = (SourceRandom(make_source("msvc", seed=7), REDUCERS["threshold"]) for _ in range(2))
    for _ in range(30):
        ahead.read_ahead(5)
        decks = []
        for rng in (ahead, plain):
            deck = list(range(20))
            articles.python2_shuffle(deck, rng)
            decks.append([*deck, rng.getrandbits(40), rng.choice("abc")])
        assert decks[0] == decks[1]
    assert ahead.source.next_raw() == plain.source.next_raw()


def test_empirical_chi_square_passes_fisher_yates_and_fails_the_naive_exchange():
    # naive at n = 8 needs about 670 shuffles to be seen (alpha 0.001, power 0.9: shuffles_to_detect)
    assert exact_fairness(make_shuffle("naive"), 8).shuffles_to_detect < 2000
    results = {}
    for function in (articles.fisher_yates, articles.naive_exchange):
        counts = function_position_counts(function, 8, make_source("pcg64", seed=5), REDUCERS["lemire"], 4000)
        assert (counts.sum(axis=0) == 4000).all() and (counts.sum(axis=1) == 4000).all()
        results[function.__name__] = position_chi_square(counts).pvalue
    assert results["fisher_yates"] > 0.001 > results["naive_exchange"]


@pytest.mark.parametrize("name,message", [
    ("rejection", "more than 1000 random values"), ("hidden_state", "hidden state"),
    ("other_source", "hidden state"), ("raises", "raised RuntimeError: deck is empty"),
    ("loops", "ran past (the wall-clock limit of 2 s|its processor time limit)"),
    ("not_a_deal", "not a permutation"), ("huge_draw", "at most 65536"),
    ("not_callable", "no function"), ("nowhere", "no function")])
def test_functions_that_cannot_be_followed_are_refused(monkeypatch, name, message):
    # a call that never returns meets the child's safety limits (made 2 s here), the only clock left
    monkeypatch.setattr(sandbox, "LIMITS", sandbox.Limits(wall_seconds=2.0))
    with pytest.raises(ValueError, match=message):
        function_fairness(load_function(f"{HERE / 'hostile.py'}:{name}"), 4, label=name)


def test_only_a_python_file_is_loaded_and_it_runs_in_a_child_process():
    function = load_function(f"{HERE / 'articles.py'}:fisher_yates")
    assert function.path == HERE / "articles.py" and function.name == "fisher_yates"
    for spec, message in [("userfunc.articles:fisher_yates", "file.py:function"), ("shutil:rmtree", "file.py"),
                          ("no.such.module:f", "file.py:function"), ("/no/such/file.py:f", "no such file"),
                          (f"{HERE / 'articles.py'}:1bad", "file.py:function")]:
        with pytest.raises(ValueError, match=message):
            load_function(spec)


def test_command_line_reports_a_function_as_its_own_algorithms():
    from click.testing import CliRunner

    from rnglab.cli import rnglab

    def run(*args):
        return CliRunner().invoke(rnglab, ["fairness", *args], catch_exceptions=False)

    exact = run("--function", f"{HERE / 'articles.py'}:naive_exchange", "--n", "3")
    assert exact.exit_code == 0 and "random() at 8 bits, 27 paths enumerated" in exact.stdout
    assert "total variation distance to uniform: 1/18" in exact.stdout
    assert run("--algo", "naive", "--n", "3").stdout.splitlines()[1:] == exact.stdout.splitlines()[1:]
    empirical = run("pcg64", "--function", f"{HERE / 'articles.py'}:fisher_yates", "--n", "5", "--shuffles", "500")
    assert empirical.exit_code == 0 and "chi-square" in empirical.stdout and "over 500 shuffles" in empirical.stdout


def test_a_function_s_calls_are_refused_up_front_by_their_size_not_by_a_clock(monkeypatch):
    # 865,384 calls of 52 cards fit the hour at the deck-at-a-time rate; one more is refused before any call, and
    # a clock 1,000 times slower (a loaded machine) changes nothing: the refusal was once a timing of 64 calls
    import time

    real = time.monotonic
    monkeypatch.setattr(time, "monotonic", lambda: 1000 * real())
    with pytest.raises(ValueError, match=r"865385 shuffles of 52 cards \(the function, deck at a time\) would take "
                                         r"about 3.6e\+03 s \(limit 3600 s\): up to 865384 fit"):
        function_position_counts(articles.fisher_yates, 52, make_source("msvc", seed=1), REDUCERS["modulo"], 865_385)
    counts = function_position_counts(articles.fisher_yates, 52, make_source("msvc", seed=1), REDUCERS["modulo"], 100)
    assert counts.sum() == 100 * 52
