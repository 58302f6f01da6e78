"""Multiply-with-carry generators through their equivalent Lehmer generator.

tests/data/mwc/make_reference.c computes Marsaglia's MWCs as their programs do (KISS99's znew
and wnew, b = 2^16; the 32-bit MWC of Marsaglia's KISS as in JKISS, b = 2^32);
mwc_reference.txt is its output: name, step n, output x_n, word t_n = c_n b + x_n.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rnglab.algebra.mwc_period import mwc_period
from rnglab.cli import main
from rnglab.generators import LCG, as_generator
from rnglab.generators.mwc import MultiplyWithCarry
from rnglab.recovery.crack import crack, observe
from rnglab.reduction.reducers import REDUCERS
from rnglab.seeds.space import seed_range_space
from rnglab.shuffles.algorithms import make_shuffle, shuffle
from rnglab.shuffles.cards import standard_deck
from rnglab.shuffles.reach import largest_period, reachable_deals
from rnglab.streams.gateway import packed_words

REFERENCE = Path(__file__).parents[1] / "data" / "mwc" / "mwc_reference.txt"
NAMES = ("mwc-36969", "mwc-18000", "mwc-698769069")


def _reference(name: str) -> dict[int, tuple[int, int]]:
    """step n -> (x_n, t_n) for one generator of the reference file."""
    rows = (line.split() for line in REFERENCE.read_text().splitlines())
    return {int(n): (int(x), int(t)) for label, n, x, t in rows if label == name}


def mwc_step(a: int, b: int, x: int, carry: int) -> tuple[int, int]:
    """Marsaglia's recurrence, one step: t = a x + c, x' = t mod b, c' = floor(t / b)."""
    t = a * x + carry
    return t % b, t // b


@pytest.mark.parametrize("name", NAMES)
def test_outputs_equal_the_reference_program(name):
    reference = _reference(name)
    outputs = as_generator(name).make().random_raw(10**6)
    assert outputs[:100].tolist() == [reference[n][0] for n in range(1, 101)]
    assert int(outputs[-1]) == reference[10**6][0]


@pytest.mark.parametrize("name", NAMES)
def test_the_lcg_state_is_the_word_the_program_keeps(name):
    source = as_generator(name).make()
    source.jump(10**6)
    assert source.x == _reference(name)[10**6][1]


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 32), st.data())
def test_mwc_equals_its_equivalent_lehmer_generators(k, data):
    b = 2**k
    a = data.draw(st.integers(2, b - 1))
    m = a * b - 1
    t = data.draw(st.integers(1, m - 1))
    x, carry = t % b, t // b
    words, outputs = [t], []
    for _ in range(8):
        x, carry = mwc_step(a, b, x, carry)
        words.append(carry * b + x)
        outputs.append(x)
    lehmer = LCG(a=a, m=m, seed=t)                                   # t -> a t mod m, output t mod b
    assert [lehmer.step() for _ in range(8)] == words[1:]
    backwards = LCG(a=b, m=m, seed=words[-1])                        # multiplier b = a^-1 mod m runs it backwards
    assert [words[-1]] + [backwards.step() for _ in range(8)] == words[::-1]
    assert outputs[:-1] == [b * words[n + 1] // m for n in range(1, 8)]   # x_n = floor(b t_{n+1} / m)
    spec = as_generator(f"mwc:a={a},b=2^{k},seed={t}")
    assert spec.make().random_raw(8).tolist() == outputs


def test_period_is_the_order_of_b_for_a_safe_prime():
    result = mwc_period(MultiplyWithCarry(36969, 2**16))
    assert result.m == 2422800383 and result.period == 1211400191 == (result.m - 1) // 2
    assert all(condition.holds for condition in result.conditions)
    assert pow(2**16, result.period, result.m) == 1


def test_period_of_a_non_safe_prime_and_of_a_composite_modulus():
    assert mwc_period(MultiplyWithCarry(5, 16)).period == 39             # m = 79, ord(16) = 39 = (m - 1)/2
    assert [c.holds for c in mwc_period(MultiplyWithCarry(5, 16)).conditions] == [True, False, True]
    composite = mwc_period(MultiplyWithCarry(4, 16))                    # m = 63
    assert composite.period is None and not composite.conditions[0].holds


def test_period_command_shows_the_mwc_and_agrees_with_the_lcg(capsys):
    assert main(["period", "mwc-698769069", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["period"] == result["mwc"]["period"] == (698769069 * 2**32 - 2) // 2


@pytest.mark.parametrize("name, seed", [("mwc-36969", 1_234_567), ("mwc-698769069", 987_654)])
def test_crack_by_brute_force_finds_the_seed(name, seed):
    seen = " ".join(standard_deck().names(shuffle(52, as_generator(name).make(seed), make_shuffle("fisher-yates"), REDUCERS["lemire"])[:6]))
    result = crack(as_generator(name), seed_range_space([(seed - 3000, seed + 3000)], "around"), observe(seen))
    assert [c.seed for c in result.candidates] == [seed]


def test_gen_prints_the_outputs(capsys):
    assert main(["gen", "mwc-36969", "-n", "3"]) == 0
    assert capsys.readouterr().out.split() == [str(_reference("mwc-36969")[n][0]) for n in (1, 2, 3)]


def test_stream_packs_the_reference_outputs():
    reference = _reference("mwc-698769069")
    assert packed_words(as_generator("mwc-698769069").make(), 3).tolist() == [reference[n][0] for n in (1, 2, 3)]
    first, second = (_reference("mwc-36969")[n][0] for n in (1, 2))  # 16-bit outputs keep their little-endian bytes
    assert packed_words(as_generator("mwc-36969").make(), 1).tolist() == [second << 16 | first]


def test_reach_bounds_deals_by_the_mwc_period():
    assert largest_period(as_generator("mwc-36969")) == 1211400191
    result = reachable_deals(as_generator("mwc-18000"), seed_range_space([(1, 2001)], "small"), 4)
    assert result.distinct == 24 and result.seeds == 2000
