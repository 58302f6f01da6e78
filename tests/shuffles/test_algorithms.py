"""Shuffle algorithms: permutations, bit-exact batches, enumeration of every path."""

import itertools
import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rnglab.generators import LCG, Output, as_generator, make_source
from rnglab.reduction.reducers import REDUCERS
from rnglab.shuffles.algorithms import (
    SHUFFLES,
    inside_out_stream,
    make_shuffle,
    permutation_unrank,
    shuffle,
    shuffle_decks,
    shuffle_in_turn,
    shuffle_seeds,
    swap_count,
)
from rnglab.shuffles.draws import (
    LANE_BLOCK,
    BatchDraws,
    Draws,
    ScriptedDraws,
    SequentialDraws,
    SourceDraws,
    SourcesDraws,
)

#: The shuffles that are a list of swaps (run deck by deck by the compiled batch path).
SWAP_SHUFFLES = [name for name in SHUFFLES if make_shuffle(name).swap_program(5) is not None]
CATALOG_LCGS = ["minstd", "randu", "msvc", "java", "drand48", "lrand48", "ranqd1", "mmix"]
#: Sources dealt every algorithm in turn (not RANDU).
OTHER_SOURCES = [name for name in CATALOG_LCGS if name != "randu"] + ["pcg64", "python"]
#: The reducers whose compiled deal kernel the default suite checks (other default tests compile the same two), and
#: the rest under -m slow: each reducer's kernel compiles for 3 to 17 CPU s on a cold cache.
COMPILED = ["modulo", "lemire"]


def compiled_reducers(*others):
    """Parameters: the :data:`COMPILED` reducers, then ``others`` (every other reducer when none) under -m slow."""
    rest = list(others) or [name for name in REDUCERS if name not in COMPILED]
    return [pytest.param(COMPILED, id="default"), pytest.param(rest, id="others", marks=pytest.mark.slow)]


def keys(algo, bits):
    """``key_bits`` for the key sorts, nothing for the others (which refuse it)."""
    return {"key_bits": bits} if SHUFFLES[algo].option == "key_bits" else {}


def every_path(algo, n, bounds):
    """Run ``algo`` on every sequence of choices (an ideal source), one lane per path."""
    choices = list(itertools.product(*[range(b) for b in bounds]))
    return Counter(map(tuple, shuffle_decks(n, ScriptedDraws(choices), make_shuffle(algo)).tolist()))


@settings(max_examples=30, deadline=None)
@given(algo=st.sampled_from(list(SHUFFLES)), n=st.integers(1, 12), seed=st.integers(1, 2**31 - 2),
       reduce=st.sampled_from(["modulo", "lemire", "float-multiply", "bitmask"]))
def test_every_shuffle_returns_a_permutation(algo, n, seed, reduce):
    n = min(n, SHUFFLES[algo].max_n or n)  # the JavaScript sorts are modelled for short arrays
    deck = shuffle(n, make_source("minstd", seed=seed), make_shuffle(algo, **keys(algo, 8)), REDUCERS[reduce])
    assert sorted(deck.tolist()) == list(range(n))


@pytest.mark.parametrize("reducers", compiled_reducers("threshold", "bitmask"))
@settings(max_examples=25, deadline=None)
@given(algo=st.sampled_from(list(SHUFFLES)), n=st.integers(2, 10),
       seeds=st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=5), data=st.data())
def test_batched_lanes_equal_one_at_a_time(reducers, algo, n, seeds, data):
    reduce = data.draw(st.sampled_from(reducers))
    decks, draws = shuffle_seeds(make_source("msvc"), seeds, n, make_shuffle(algo, **keys(algo, 5)), REDUCERS[reduce])
    for seed, deck, used in zip(seeds, decks, draws):
        source = make_source("msvc", seed=seed)
        single = SourceDraws(source, REDUCERS[reduce])
        assert shuffle_decks(n, single, make_shuffle(algo, **keys(algo, 5)))[0].tolist() == deck.tolist()
        assert single.draws == used


def test_naive_three_cards_has_27_paths_with_weights_4_and_5():
    # Atwood 2007 / Robbins and Bolker 1981: 27 paths onto 6 deals, three deals get 5 paths, three get 4
    counts = every_path("naive", 3, [3, 3, 3])
    assert sum(counts.values()) == 27 and sorted(counts.values()) == [4, 4, 4, 5, 5, 5]


@pytest.mark.parametrize("algo", ["fisher-yates", "forward", "draw-remove"])
def test_uniform_algorithms_reach_every_deal_once(algo):
    bounds = [5, 4, 3, 2] if algo == "fisher-yates" else [5, 4, 3, 2, 1]
    counts = every_path(algo, 5, bounds)
    assert len(counts) == math.factorial(5) and set(counts.values()) == {1}


def test_sattolo_reaches_exactly_the_n_cycles():
    # Sattolo 1986: the (n-1)! cyclic permutations, each once
    counts = every_path("sattolo", 5, [4, 3, 2, 1])
    assert len(counts) == math.factorial(4)
    for deal in counts:
        position, length = deal[0], 1
        while position != 0:
            position, length = deal[position], length + 1
        assert length == 5


def test_poker1999_never_leaves_the_last_card_last():
    # Arkin et al. 1999: card 52 cannot stay in position 52 (checked on every path for n = 6)
    counts = every_path("poker1999", 6, [5] * 6)
    assert sum(counts.values()) == 5**6 and all(deal[-1] != 5 for deal in counts)


def test_unrank_turns_every_rank_into_a_different_deal():
    deals = shuffle_decks(4, ScriptedDraws([[r] for r in range(24)]), make_shuffle("unrank"))
    assert len({tuple(d) for d in deals.tolist()}) == 24 and deals[0].tolist() == [0, 1, 2, 3]


def test_unrank_reads_a_long_rank_digit_by_digit_as_its_definition_says():
    # rank = sum_k d_k (n - 1 - k)!: the deal takes remaining item d_k at step k (Knuth 3.3.2 P, Lehmer code)
    n, rank = 300, 3**1000 % math.factorial(300)
    deal, remaining, left = [], list(range(n)), rank
    for k in range(n):
        digit, left = divmod(left, math.factorial(n - 1 - k))
        deal.append(remaining.pop(digit))
    assert permutation_unrank(rank, n) == deal
    assert shuffle_decks(3, ScriptedDraws([[5]]), make_shuffle("unrank"))[0].tolist() == [2, 1, 0]


def test_unrank_refuses_decks_whose_square_work_exceeds_its_limit():
    # 6e-9 s x n^2 <= 13 s up to n = 46,547 (46,547^2 = 2,166,623,209; 46,548^2 = 2,166,716,304 > 13 / 6e-9)
    assert make_shuffle("unrank").check(46_547) == 46_547
    with pytest.raises(ValueError, match=r"^an unrank deal of n = 46,548 cards \(its work grows as n\^2: 6e-09 s x "
                                         r"n\^2 measured\) would take about 13 s \(limit 13 s\): n <= 46,547 fits$"):
        make_shuffle("unrank").check(46_548)
    with pytest.raises(ValueError, match=r"n = 100,000 cards .* would take about 60 s \(limit 13 s\)"):
        make_shuffle("unrank").check(10**5)


def test_inside_out_stream_takes_items_of_unknown_number():
    items = inside_out_stream(iter("abcdef"), SourceDraws(make_source("pcg64", seed=3)))
    assert sorted(items) == list("abcdef")


def test_transposition_counts():
    assert swap_count(52, "touch") == 178 and swap_count(52) == 52 and swap_count(52, "half-nlogn") == 103


def test_zero_state_of_a_multiplicative_lcg_is_refused():
    with pytest.raises(ValueError, match="fixed point"):
        shuffle_seeds(LCG(a=16807, m=2**31 - 1), [0, 1], 5)


def radical(m):
    """Product of the distinct prime factors of ``m`` (trial division; ``m <= 2^32``)."""
    product, p = 1, 2
    while p * p <= m:
        if m % p == 0:
            product *= p
            while m % p == 0:
                m //= p
        p += 1
    return product * (max(1, m))


@st.composite
def full_period_lcgs(draw):
    """An LCG of full period m (Hull-Dobell), so every output comes and every reducer accepts in the end.

    The modulus is a power of two up to 2^64 or any number up to 2^32; the
    output the whole state or a bit field (tiny ranges: Lemire rejects often).
    """
    m = draw(st.one_of(st.integers(1, 64).map(lambda e: 2**e), st.integers(3, 2**32)))
    step = radical(m) * (2 if m % 4 == 0 and radical(m) % 4 else 1)
    a = (1 + step * draw(st.integers(0, 2**64))) % m
    c = draw(st.integers(1, m - 1).filter(lambda c: math.gcd(c, m) == 1)) if m > 2 else 1
    bits = (m - 1).bit_length()
    shift = draw(st.integers(0, bits - 1))
    output = draw(st.sampled_from([Output.state(), Output.bits(shift, draw(st.integers(1, bits - shift)))]))
    return LCG(a=a, m=m, c=c, output=output)


def outcome(run):
    """``run()``'s result, or the type and message of the ValueError it raised."""
    try:
        return run()
    except ValueError as error:
        return repr(error)


@pytest.mark.parametrize("reducers", compiled_reducers())
@settings(max_examples=80, deadline=None)
@given(generator=st.one_of(full_period_lcgs(), st.sampled_from(CATALOG_LCGS).map(make_source)),
       algo=st.sampled_from(SWAP_SHUFFLES), n=st.integers(1, 9), seeds=st.lists(st.integers(0, 2**64 - 1), min_size=1,
                                                                               max_size=4), data=st.data())
def test_compiled_swaps_equal_step_by_step_and_one_at_a_time(reducers, generator, algo, n, seeds, data):
    method = data.draw(st.sampled_from(reducers))
    top = generator.m - 1 if generator.seeding.high is None else min(generator.m - 1, generator.seeding.high)
    seeds = np.array([s % (top + 1) or 1 for s in seeds], dtype=np.uint64)  # 0 is refused when c = 0
    steps = make_shuffle(algo).program(n)

    def batched(run):
        draws = BatchDraws(generator.batch(seeds), REDUCERS[method])
        decks = run(draws, np.tile(np.arange(n, dtype=np.uint8), (len(seeds), 1)))
        return decks.tolist(), draws.draws.tolist(), draws.batch.current_states().tolist()

    compiled = outcome(lambda: batched(lambda draws, decks: draws.run_swaps(decks, steps)))
    assert compiled == outcome(lambda: batched(lambda draws, decks: Draws.run_swaps(draws, decks, steps)))
    if isinstance(compiled, str):
        return
    for seed, deck, used in zip(seeds.tolist(), *compiled[:2]):
        single = SourceDraws(LCG(a=generator.a, m=generator.m, c=generator.c, seed=seed, output=generator.output,
                                 seeding=generator.seeding, low=generator.low), REDUCERS[method])
        assert shuffle_decks(n, single, make_shuffle(algo))[0].tolist() == deck and single.draws == used


def test_whole_word_lemire_redraws_a_rejected_output():
    # mmix (R = 2^64): the lane whose first output is 0 has 0 * 3 mod 2^64 = 0 < 2^64 mod 3 = 1, rejected
    mmix = make_source("mmix")
    seeds = np.array([-mmix.c * pow(mmix.a, -1, 2**64) % 2**64, 1], dtype=np.uint64)
    decks, draws = shuffle_seeds(mmix, seeds, 3)
    assert draws.tolist() == [3, 2]
    for lane, lane_seed in enumerate(seeds.tolist()):
        single = SourceDraws(make_source("mmix", seed=lane_seed))
        assert shuffle_decks(3, single, make_shuffle("fisher-yates"))[0].tolist() == decks[lane].tolist()
        assert single.draws == draws[lane]


def test_compiled_swaps_on_uint16_decks():
    seeds, steps = np.arange(1, 6, dtype=np.uint64), make_shuffle("fisher-yates").program(300)
    fast, slow = (BatchDraws(make_source("ranqd1").batch(seeds)) for _ in range(2))
    decks = np.tile(np.arange(300, dtype=np.uint16), (5, 1))
    assert np.array_equal(fast.run_swaps(decks.copy(), steps), Draws.run_swaps(slow, decks.copy(), steps))
    assert fast.draws.tolist() == slow.draws.tolist()


@settings(max_examples=120, deadline=None)
@given(case=st.one_of(  # draw-unused can wait ~m draws on a tiny LCG (a = 1) and forever on RANDU (odd outputs)
           st.tuples(st.one_of(full_period_lcgs(), st.just("randu").map(make_source)), st.sampled_from(SWAP_SHUFFLES)),
           st.tuples(st.sampled_from(OTHER_SOURCES).map(make_source), st.sampled_from(list(SHUFFLES)))),
       n=st.integers(1, 8), method=st.sampled_from(list(REDUCERS)), decks=st.integers(0, 6))
def test_decks_in_turn_equal_one_shuffle_after_another(case, n, method, decks):
    generator, algo = case
    reference = generator.copy()

    def one_at_a_time():
        return [shuffle(n, reference, make_shuffle(algo, **keys(algo, 5)), REDUCERS[method]).tolist() for _ in range(decks)], reference.next_raw()

    def in_turn():
        return shuffle_in_turn(n, generator, decks, make_shuffle(algo, **keys(algo, 5)), REDUCERS[method]).tolist(), generator.next_raw()

    assert outcome(in_turn) == outcome(one_at_a_time)


@pytest.mark.parametrize("name,method", [("msvc", "bitmask"), ("drand48", "lemire"), ("pcg64", "bitmask")])
def test_values_handed_back_are_dealt_first_and_draws_counted(name, method):
    source = make_source(name, seed=7)
    source.unread(source.random_raw(3)[::-1])  # pending values: an LCG leaves the compiled path
    reference = source.copy()
    single = SourceDraws(reference, REDUCERS[method])
    expected = [shuffle_decks(9, single, make_shuffle("fisher-yates"))[0].tolist() for _ in range(400)]
    draws = SequentialDraws(source, REDUCERS[method], 400)
    assert shuffle_decks(9, draws, make_shuffle("fisher-yates")).tolist() == expected
    assert draws.draws == single.draws and source.next_raw() == reference.next_raw()


def test_compiled_decks_in_turn_count_draws_and_advance_the_source():
    source, reference = make_source("msvc", seed=3), make_source("msvc", seed=3)
    # 300 decks of 52 cards on the compiled LCG path: 21,519 draws, rejections included (the reference, one deck
    # at a time in Python, is the cost; 1,000 decks took 3 CPU s)
    draws, single = SequentialDraws(source, REDUCERS["bitmask"], 300), SourceDraws(reference, REDUCERS["bitmask"])
    decks = shuffle_decks(52, draws, make_shuffle("fisher-yates"))
    assert decks[-1].tolist() == [shuffle_decks(52, single, make_shuffle("fisher-yates"))[0] for _ in range(300)][-1].tolist()
    assert draws.draws == single.draws and source.random_raw(5).tolist() == reference.random_raw(5).tolist()


def test_decks_in_turn_serve_swap_shuffles_only():
    with pytest.raises(ValueError, match="swap shuffles only"):
        shuffle_decks(5, SequentialDraws(make_source("pcg64"), REDUCERS["lemire"], 3), make_shuffle("draw-remove"))


def test_draw_unused_refuses_a_source_that_cannot_reach_a_position():
    # RANDU's outputs are all odd, so rand() % 2 never deals position 0 of a 2-card deck
    with pytest.raises(ValueError, match="the source gave 192 dealt positions in a row to draw-unused"):
        shuffle(2, make_source("randu", 1), make_shuffle("draw-unused"), REDUCERS["modulo"])


#: Generators seeded one by one (no batch of compiled lanes): numpy's 64-bit words read as 32-bit halves, numpy's
#: 32-bit words, CPython's 32-bit words and 53-bit floats.
ONE_BY_ONE = ("pcg64", "pcg64_uint32", "mt19937", "python", "python_random53")


@pytest.mark.parametrize("generator", ONE_BY_ONE)
@pytest.mark.parametrize("algo", ["fisher-yates", "inside-out", "sort-keys", "draw-remove", "unrank", "deitel"])
def test_sources_lanes_deal_what_each_source_deals_alone(generator, algo):
    spec, reducers = as_generator(generator), ["python-randbelow", "lemire", "modulo", "float-multiply"]
    seeds = np.arange(3, 11, dtype=np.uint64)  # 8 lanes, each against its source dealt alone (in Python: the cost)
    for reducer in reducers:
        try:
            alone = [SourceDraws(spec.make(int(s)), REDUCERS[reducer]) for s in seeds]
            expected = np.stack([shuffle_decks(52, draws, make_shuffle(algo))[0] for draws in alone])
        except ValueError:  # a reducer this generator's range does not serve
            continue
        lanes = SourcesDraws([spec.make(int(s)) for s in seeds], REDUCERS[reducer])
        assert np.array_equal(shuffle_decks(52, lanes, make_shuffle(algo)), expected), reducer
        assert lanes.draws.tolist() == [draws.draws for draws in alone]


def test_sources_lanes_read_past_a_block():
    # sort-keys on 200 cards draws 200 32-bit keys: more than LANE_BLOCK = 128 halves of PCG64 outputs per lane
    seeds = [make_source("pcg64", seed=s) for s in range(4)]
    lanes = SourcesDraws(seeds, REDUCERS["lemire"])
    expected = [shuffle_decks(200, SourceDraws(make_source("pcg64", seed=s), REDUCERS["lemire"]), make_shuffle("sort-keys"))[0]
                for s in range(4)]
    assert np.array_equal(shuffle_decks(200, lanes, make_shuffle("sort-keys")), np.stack(expected))
    assert lanes.draws.min() > LANE_BLOCK
