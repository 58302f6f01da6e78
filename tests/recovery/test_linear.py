"""State recovery by GF(2) elimination (rnglab.recovery.linear): V8 Math.random (52- and 53-bit doubles) and its
deal, CPython's MT19937,
Marsaglia's xorshift; hidden states chosen at random (seeded), the elimination checked against an independent one."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from rnglab.generators.xorshift import (
    V8MathRandom,
    V8MathRandom53,
    V8MathRandomPlus,
    V8Xorshift128,
    V8Xorshift128x53,
    Well512a,
    Xoroshiro128Plus,
    Xorshift32,
    Xorshift64,
    Xorshift128,
)
from rnglab.recovery import linear

DATA = Path(__file__).parents[1] / "data" / "v8_deal"


def node_deals() -> list[tuple[int, list[int]]]:
    """node 20's JavaScript Fisher-Yates deals (tests/data/v8_deal/make_reference.sh)."""
    rows = [line.split() for line in (DATA / "deals.txt").read_text().splitlines()]
    return [(int(row[0]), [int(card) for card in row[1:]]) for row in rows]


def hidden_deal(rng: random.Random) -> tuple[int, list[int]]:
    seed = rng.randrange(2**64)
    return seed, linear.js_fisher_yates(V8MathRandom.seeded(seed), 52)


def bottom(deck: list[int], cards: int) -> list[int]:
    return [deck[p] for p in range(51, 51 - cards, -1)]


# --- the elimination against an independent one ----------------------------------------------------------------


def python_solutions(rows: list[int], rhs: list[int], k: int) -> tuple[int, set[int]]:
    """The rank of ``row . x = rhs`` and, for a nullity up to 12, every solution (plain Gauss--Jordan on integers)."""
    pivots: dict[int, tuple[int, int]] = {}
    for row, right in zip(rows, rhs):
        for bit, (prow, pright) in pivots.items():
            if row >> bit & 1:
                row, right = row ^ prow, right ^ pright
        if not row:
            if right:
                return len(pivots), set()
            continue
        bit = row.bit_length() - 1
        for other, (prow, pright) in list(pivots.items()):
            if prow >> bit & 1:
                pivots[other] = (prow ^ row, pright ^ right)
        pivots[bit] = (row, right)
    free = [j for j in range(k) if j not in pivots]
    if len(free) > 12:
        return len(pivots), set()
    out = set()
    for choice in range(2 ** len(free)):
        x = sum(((choice >> i) & 1) << j for i, j in enumerate(free))
        for bit, (prow, pright) in pivots.items():
            x |= (pright ^ ((prow & x & ~(1 << bit)).bit_count() & 1)) << bit
        out.add(x)
    return len(pivots), out


def random_model(rng: random.Random, k: int, width: int, local: int) -> linear.SymbolicGenerator:
    """A linear map of ``k`` bits to outputs: the first ``local`` outputs read one 64-bit word, the rest all."""
    matrices = []
    for t in range(12):
        columns = [rng.getrandbits(width) for _ in range(k)]
        if t < local:
            word = t % (-(-k // 64))
            columns = [c if j // 64 == word else 0 for j, c in enumerate(columns)]
        matrices.append(columns)

    def run(vector: np.ndarray, count: int) -> np.ndarray:
        x = linear._vector_int(vector)
        return np.array([np.uint64(_apply(matrices[t], x)) for t in range(count)], dtype=np.uint64)
    return linear.SymbolicGenerator("toy", k, width, run)


def _apply(columns: list[int], x: int) -> int:
    value = 0
    for j, column in enumerate(columns):
        if x >> j & 1:
            value ^= column
    return value


@pytest.mark.parametrize("trial", range(12))
def test_elimination_matches_an_independent_solver(trial):
    rng = random.Random(trial)
    k, width = rng.choice([(20, 8), (100, 16), (130, 24)])
    model = random_model(rng, k, width, local=rng.randrange(0, 8))
    hidden = rng.getrandbits(k) or 1
    outputs = model.run(linear._int_vector(hidden, model.words), 12)
    observations = [linear.Observation.top_bits(t, int(outputs[t]) >> (width - known), known, width)
                    for t in range(12) for known in [rng.randrange(width // 2, width + 1)]]
    forms = model.forms(12)
    rows, rhs = [], []
    for o in observations:
        for b in range(width):
            if o.mask >> b & 1:
                rows.append(linear._vector_int(forms[o.index, b]))
                rhs.append(o.value >> b & 1)
    rank, expected = python_solutions(rows, rhs, k)
    try:
        found = linear.solve(model, observations, budget=2**12)
    except linear.UnderdeterminedState as error:
        assert k - rank > 12 and error.rank == rank and error.unknowns == k
        return
    assert hidden in expected and set(found.states) == expected
    assert found.candidates == len(expected) and found.rank == rank


def test_the_zero_state_is_never_reported():
    model = linear.linear_source_model(Xorshift32)
    with pytest.raises(ValueError, match="contradict"):  # only the all-zero state gives 0: no generator's state
        linear.solve(model, [linear.Observation.exact(0, 0, 32)])


def test_a_contradiction_is_refused():
    source = Xorshift128([1, 2, 3, 4])
    outputs = source.random_raw(6)
    observations = [linear.Observation.exact(t, int(v), 32) for t, v in enumerate(outputs)]
    observations[5] = linear.Observation.exact(5, int(outputs[5]) ^ 1, 32)
    with pytest.raises(ValueError, match="contradict"):
        linear.solve(linear.linear_source_model(Xorshift128), observations)


# --- V8 Math.random ------------------------------------------------------------------------------------------


def test_the_deal_is_node_20s():
    for seed, deck in node_deals():
        assert linear.js_fisher_yates(V8MathRandom.seeded(seed), 52) == deck, seed


def test_node_deals_give_back_state_seed_and_deck():
    for seed, deck in node_deals():
        found = linear.recover_v8_deal(bottom(deck, 40))
        assert found.solutions == [(0, V8MathRandom.seeded(seed).words)]
        assert found.seeds == [seed % 2**64]
        assert linear.predict_v8_deal(found.solutions[0][1], 0) == deck


def test_hidden_deals_from_40_cards():
    rng, determined = random.Random(2026), 0
    for _ in range(20):
        seed, deck = hidden_deal(rng)
        try:
            found = linear.recover_v8_deal(bottom(deck, 40))
        except linear.UnderdeterminedState:
            continue
        determined += 1
        assert (0, V8MathRandom.seeded(seed).words) in found.solutions
        for phase, words in found.solutions:  # every candidate replays every card seen
            assert bottom(linear.predict_v8_deal(words, phase), 40) == bottom(deck, 40)
    assert determined >= 18


def test_too_few_cards_give_the_rank_and_what_is_missing():
    _, deck = hidden_deal(random.Random(5))
    with pytest.raises(linear.UnderdeterminedState, match=r"not determined: rank \d+ of 128") as error:
        linear.recover_v8_deal(bottom(deck, 12))
    assert error.value.rank < 128 - 16 and error.value.needed > 0
    assert error.value.rank + error.value.needed * error.value.rank / 12 >= 128 - 16


def test_unknown_phase():
    rng = random.Random(7)
    for hidden_phase in (0, 37, 63):
        words = (rng.getrandbits(64), rng.getrandbits(64))
        source = linear.v8_source(words, hidden_phase)
        draws = []
        for _ in range(45):
            n = rng.randrange(2, 60)
            draws.append((int(np.floor(int(source.random_raw(1)[0]) * 2.0**-52 * n)), n))
        found = linear.recover_v8_draws(draws, phase=None)
        assert (hidden_phase, words) in found.solutions and found.phases_tried == 64
        for phase, candidate in found.solutions:
            replay = linear.v8_source(candidate, phase).random_raw(45)
            assert [int(np.floor(int(v) * 2.0**-52 * n)) for v, (_, n) in zip(replay, draws)] == [d for d, _ in draws]


def test_unknown_phase_is_every_phase_solved_in_turn_and_solves_only_the_phases_not_refuted(monkeypatch):
    # a deal at a phase whose draws span two blocks: the phases are screened in one compiled pass, and what is
    # found is what solving each phase on its own finds (the union of the phases that do not contradict)
    rng = random.Random(29)
    words = (rng.getrandbits(64), rng.getrandbits(64))
    draws = linear.js_fisher_yates_draws(bottom(linear.js_fisher_yates(linear.v8_source(words, 50), 52), 40))
    each = []
    for phase in range(64):
        try:
            each += linear.recover_v8_draws(draws, phase=phase).solutions
        except ValueError:
            continue
    solve, calls = linear.solve, []
    monkeypatch.setattr(linear, "solve", lambda *args, **kwargs: calls.append(1) or solve(*args, **kwargs))
    found = linear.recover_v8_draws(draws, phase=None)
    assert (50, words) in found.solutions and sorted(found.solutions) == sorted(each)
    assert len(calls) <= 4  # phase 0 (the block's first), the true phase, a wrong phase rarely; not 40


def test_v8_from_four_doubles_of_node():
    """node --random_seed=12345's first Math.random() values (tests/data/v8/reference.txt) give the state: four
    leave one, three leave 2^12 (rank 116), two are refused (rank 104)."""
    row = next(line.split() for line in (DATA.parent / "v8" / "reference.txt").read_text().splitlines()
               if line.startswith("12345 doubles "))
    doubles, truth = [float(v) for v in row[2:6]], V8MathRandom.seeded(12345).words
    model = linear.linear_source_model(V8Xorshift128)
    found = linear.solve(model, linear.v8_double_observations(doubles, 0))
    assert [linear._v8_words(state) for state in found.states] == [truth]
    three = linear.solve(model, linear.v8_double_observations(doubles[:3], 0))
    assert three.rank == 116 and len(three.states) == 4096 and truth in map(linear._v8_words, three.states)
    with pytest.raises(linear.UnderdeterminedState, match="rank 104 of 128"):
        linear.solve(model, linear.v8_double_observations(doubles[:2], 0))


def test_v8_53_deals_from_40_cards_and_every_phase():
    # V8 13.5+ (53-bit doubles): hidden deals at a random phase; the true state is among those found for the
    # phase given and for every phase tried, and every candidate deals the cards seen
    rng, determined = random.Random(53), 0
    for trial in range(12):
        seed, hidden_phase = rng.randrange(2**64), rng.randrange(64) if trial % 3 else 0
        words = V8MathRandom53.seeded(seed).words
        deck = linear.js_fisher_yates(linear.v8_source(words, hidden_phase, V8MathRandom53), 52)
        try:
            found = linear.recover_v8_deal(bottom(deck, 40), phase=None if trial % 2 else hidden_phase,
                                           variant=V8MathRandom53)
        except linear.UnderdeterminedState:
            continue
        determined += 1
        assert (hidden_phase, words) in found.solutions
        assert found.seeds[found.solutions.index((hidden_phase, words))] == (seed if hidden_phase == 0 else None)
        for phase, candidate in found.solutions:
            assert bottom(linear.predict_v8_deal(candidate, phase, 52, V8MathRandom53), 40) == bottom(deck, 40)
    assert determined >= 11


def test_v8_53_deals_what_v8_deals_from_the_same_state():
    # the 53rd bit moves floor(r i) only when r i lies within i 2^-53 of an integer: node 24's deal of a state is
    # node 20's, so either recovery finds the state (the doubles themselves differ in their last bit)
    for seed in range(1, 6):
        words = V8MathRandom53.seeded(seed).words
        deck = linear.js_fisher_yates(V8MathRandom53(words), 52)
        assert deck == linear.js_fisher_yates(V8MathRandom(words), 52)
        assert linear.recover_v8_deal(bottom(deck, 40)).solutions == [(0, words)]
    assert V8MathRandom53(words).random_raw(64).tolist() != (2 * V8MathRandom(words).random_raw(64)).tolist()


def test_v8_53_from_four_doubles_of_v8s_own_code():
    """tests/data/v8/variants/reference.txt (V8 13.5's ToDouble) for seed 1337: four values leave one state, three
    leave 2^11 (rank 117, one more than v8's 52-bit values give), two are refused (rank 106)."""
    row = next(line.split() for line in (DATA.parent / "v8" / "variants" / "reference.txt").read_text().splitlines()
               if line.startswith("1337 v8-53 doubles "))
    doubles, truth = [float(v) for v in row[3:7]], V8MathRandom53.seeded(1337).words
    model = linear.linear_source_model(V8Xorshift128x53)
    found = linear.solve(model, linear.v8_double_observations(doubles, 0, 53))
    assert [linear._v8_words(state) for state in found.states] == [truth] and found.rank == 128
    three = linear.solve(model, linear.v8_double_observations(doubles[:3], 0, 53))
    assert three.rank == 117 and len(three.states) == 2048 and truth in map(linear._v8_words, three.states)
    with pytest.raises(linear.UnderdeterminedState, match="rank 106 of 128"):
        linear.solve(model, linear.v8_double_observations(doubles[:2], 0, 53))
    with pytest.raises(ValueError, match=r"multiples of 2\^-52"):
        linear.v8_double_observations([2.0**-53], 0)


def test_v8_plus_is_refused_with_the_reason():
    with pytest.raises(ValueError, match=r"v8-plus's output \(state0 \+ state1\) mod 2\^52 is not linear over "
                                         r"GF\(2\): the addition carries"):
        linear.recover_v8_draws([(1, 5)] * 40, phase=0, variant=V8MathRandomPlus)
    with pytest.raises(ValueError, match="the addition carries"):
        linear.linear_source_model(V8MathRandomPlus)


def test_draw_interval_follows_double_rounding():
    # y = 2573485501354569: y 7 / 2^52 is just below 4, but the double product rounds to 4.0: the draw is 4.
    y = 2573485501354569
    assert (y * 7) >> 52 == 3 and np.floor(y * 2.0**-52 * 7) == 4
    assert linear._draw_interval(4, 7, 52)[0] == y and linear._draw_interval(3, 7, 52)[1] == y - 1
    low = linear._draw_interval(3, 7, 52)[0]
    assert np.floor((low - 1) * 2.0**-52 * 7) == 2 and np.floor(low * 2.0**-52 * 7) == 3


@pytest.mark.parametrize("seed", [0, 1, 2**64 - 1, 0x123456789ABCDEF0])
def test_fmix64_inverted(seed):
    assert linear.unfmix64(linear.fmix64(seed)) == seed
    assert linear.v8_seed(V8MathRandom.seeded(seed).words) == seed


def test_bad_cards_are_refused():
    with pytest.raises(ValueError, match="distinct"):
        linear.js_fisher_yates_draws([3, 3])
    with pytest.raises(ValueError, match="cards are 0..51"):
        linear.js_fisher_yates_draws([52])
    with pytest.raises(ValueError, match="draws below 5"):
        linear.v8_draw_observations([(5, 5)], 0)
    with pytest.raises(ValueError, match="cache phase"):
        linear.recover_v8_draws([(1, 5)], phase=64)


# --- CPython's random.Random (MT19937) -------------------------------------------------------------------------


@pytest.mark.parametrize("trial", range(3))
def test_python_from_624_words(trial):
    rng = random.Random(100 + trial)
    hidden = random.Random(rng.getrandbits(64))
    hidden.random()  # not at a twist: the words straddle one
    words = [hidden.getrandbits(32) for _ in range(624)]
    found = linear.recover_python_words(words)
    assert len(found.states) == 1 and found.rank == 624 * 32
    again = linear.python_random_at(found.states[0])
    assert [again.getrandbits(32) for _ in range(624)] == words
    assert [again.random() for _ in range(1000)] == [hidden.random() for _ in range(1000)]


@pytest.mark.parametrize("trial", range(2))
def test_python_from_624_floats(trial):
    hidden = random.Random(random.Random(200 + trial).getrandbits(64))
    floats = [hidden.random() for _ in range(624)]
    found = linear.recover_python_floats(floats)
    # Word 0's 5 dropped bits reach only output 0: 2^4 states of rank 19964 (its top bit reaches the twist).
    assert found.rank == 624 * 32 - 4 and len(found.states) == 16
    future = [hidden.random() for _ in range(700)]
    for state in found.states:
        again = linear.python_random_at(state)
        assert [again.random() for _ in range(624)] == floats
        assert [again.random() for _ in range(700)] == future


def test_python_too_few_floats():
    hidden = random.Random(3)
    with pytest.raises(linear.UnderdeterminedState, match="rank") as error:
        linear.recover_python_floats([hidden.random() for _ in range(300)])
    assert error.value.needed > 0


def test_python_floats_must_be_doubles_of_random():
    with pytest.raises(ValueError, match="multiples of 2"):
        linear.python_floats([0.5, 1.5])


# --- Marsaglia's xorshift and WELL ---------------------------------------------------------------------------


@pytest.mark.parametrize("source_type, count", [(Xorshift32, 1), (Xorshift64, 1), (Xorshift128, 4), (Well512a, 16)])
def test_xorshift_family_from_whole_outputs(source_type, count):
    rng = random.Random(source_type.name)
    model = linear.linear_source_model(source_type)
    for _ in range(5):
        hidden = source_type.seeded(rng.randrange(1, 2**32))
        state = linear._vector_int(hidden.state_vector())
        outputs = hidden.random_raw(count + 3)
        observations = [linear.Observation.exact(t, int(v), model.width) for t, v in enumerate(outputs[:count])]
        found = linear.solve(model, observations)
        assert found.states == [state] and found.rank == model.unknowns
        recovered = source_type.from_state_vector(linear._int_vector(state, model.words))
        assert recovered.random_raw(count + 3).tolist() == outputs.tolist()


def test_scrambled_outputs_are_refused():
    with pytest.raises(ValueError, match="not linear over GF"):
        linear.linear_source_model(Xoroshiro128Plus)


def test_mt19937_64_state_from_312_outputs_mid_stream_predicts_gplusplus():
    # tests/data/mt19937_64/reference.txt: libstdc++'s 10000th output of std::mt19937_64 seeded 5489 (also the
    # ISO C++ [rand.predef] value); outputs 1000..1311 (0-based), away from any twist, give the state
    from rnglab.generators.xorshift import Mt19937x64

    reference = Path(__file__).parents[1] / "data" / "mt19937_64" / "reference.txt"
    line = next(row.split() for row in reference.read_text().splitlines() if row.split()[1] == "5489")
    outputs = Mt19937x64.seeded(5489).random_raw(1312)[1000:]
    found = linear.recover_mt19937_64_words(outputs.tolist())
    assert (len(found.states), found.rank, found.unknowns) == (1, 19968, 19968)
    assert int(linear.mt19937_64_at(found.states[0]).random_raw(10000 - 1000)[-1]) == int(line[-1])


def test_mt19937_64_from_fewer_outputs_gives_the_rank():
    with pytest.raises(linear.UnderdeterminedState, match="rank 19904 of 19968 from 311 observations"):
        linear.recover_mt19937_64_words(list(range(1, 312)))


def test_v8_cards_with_an_unseen_position_give_the_seed_and_every_path_is_checked():
    from rnglab.recovery.crack import observe
    from rnglab.shuffles.algorithms import make_shuffle

    steps = make_shuffle("fisher-yates-to-zero").swap_program(52)
    for seed in (1, 2, 3):
        deck = linear.js_fisher_yates(V8MathRandom.seeded(seed), 52)
        positions = [p for p in range(51, 8, -1) if p != 47]
        seen = observe(" ".join(str(deck[p]) for p in positions), ",".join(map(str, positions)))
        found = linear.recover_v8_cards(steps, seen)
        assert found.seeds == [seed] and [linear.predict_v8_deal(w, p) for p, w in found.solutions] == [deck]


def test_only_the_linear_v8s_deal_is_read_by_elimination():
    from rnglab.generators import as_generator
    from rnglab.reduction.reducers import REDUCERS
    from rnglab.shuffles.algorithms import make_shuffle

    shuffle, reducer = make_shuffle("fisher-yates-to-zero"), REDUCERS["float-multiply"]
    assert [linear.is_js_fisher_yates_v8(as_generator(name), shuffle, reducer) for name in ("v8", "v8-53", "v8-plus")] \
        == [True, True, False]
