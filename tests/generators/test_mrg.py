"""Multiple recursive generators and combinations against the reference implementations.

tests/data/mrg/ holds the programs that produced the reference outputs and their output:
RngStreams' MRG32k3a (C++, L'Ecuyer et al. 2002), SSJ's MRG31k3p (Java), and the published
algorithms of Wichmann-Hill (AS 183), L'Ecuyer 1988 (CACM Figure 3) and Knuth's MRG (C).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rnglab.generators import as_generator
from rnglab.generators.mrg import MRG, Combination, Recurrence

DATA = Path(__file__).parents[1] / "data" / "mrg"

# RngStreams' stream spacing: A1^(2^127) mod m1 and A2^(2^127) mod m2 (RngStream.cpp, and
# L'Ecuyer, Simard, Chen and Kelton, Operations Research 50(6), 2002).
A1P127 = [[2427906178, 3580155704, 949770784], [226153695, 1230515664, 3580155704],
          [1988835001, 986791581, 1230515664]]
A2P127 = [[1464411153, 277697599, 1610723613], [32183930, 1464411153, 1022607788],
          [2824425944, 32183930, 2093834863]]


def _blocks(filename: str) -> list[tuple[str, list[int], list[int], list[float], list[int] | None]]:
    """(name, seed vector, z, u, state 2^127 steps on or None) per block of a reference file."""
    blocks = []
    for line in (DATA / filename).read_text().splitlines():
        words = line.split()
        if words[0] == "stream2":
            blocks[-1][4].extend(int(w) for w in words[1:])
        elif not words[0][0].isdigit():
            blocks.append((words[0], [int(w) for w in words[1:]], [], [], []))
        else:
            blocks[-1][2].append(int(words[0]))
            blocks[-1][3].append(float(words[1]))
    return blocks


def _cases():
    for filename, name in (("mrg32k3a_reference.txt", "mrg32k3a"), ("mrg31k3p_reference.txt", "mrg31k3p")):
        for block in _blocks(filename):
            yield name, block
    for block in _blocks("combined_reference.txt"):
        yield block[0], block


@pytest.mark.parametrize("name, block", list(_cases()))
def test_outputs_and_doubles_equal_the_reference(name, block):
    _, vector, z, u, _ = block
    source = MRG(as_generator(name).combination, vector=vector, name=name)
    values = source.random_raw(len(z))
    assert values.tolist() == z
    assert source.combination.uniforms(values).tolist() == u  # bit for bit


@pytest.mark.parametrize("name, block", list(_cases()))
def test_one_step_reference_equals_the_array_path(name, block):
    source = MRG(as_generator(name).combination, vector=block[1])
    assert [source.step() for _ in block[2]] == block[2]


def test_mrg32k3a_first_double_of_the_default_seed():
    # RngStreams with the package seed 12345 x 6: the first RandU01() is 0.12701112204657714.
    assert as_generator("mrg32k3a").make().uniforms(1)[0] == 0.12701112204657714


def test_rngstreams_jump_matrices_are_the_companion_powers():
    first, second = as_generator("mrg32k3a").combination.components
    assert first.jump_matrix(2**127) == A1P127
    assert second.jump_matrix(2**127) == A2P127


@pytest.mark.parametrize("block", [b for b in _blocks("mrg32k3a_reference.txt")])
def test_jump_of_two_to_the_127_is_the_rngstreams_stream_spacing(block):
    source = MRG(as_generator("mrg32k3a").combination, vector=block[1])
    source.jump(2**127)
    assert [v for state in source.states for v in state] == block[4]


def _recurrences(max_modulus: int):
    return st.integers(2, max_modulus).flatmap(lambda m: st.lists(
        st.integers(-2 * m, 2 * m), min_size=1, max_size=4).filter(lambda a: a[-1] % m).map(
        lambda a: Recurrence(m, tuple(a))))


@settings(max_examples=40, deadline=None)
@given(recurrence=_recurrences(2**64), seed=st.integers(1, 2**16), size=st.integers(0, 40))
def test_array_path_equals_the_one_step_reference(recurrence, seed, size):
    seed = seed % (recurrence.m - 1) + 1
    fast, slow = MRG(Combination((recurrence,)), seed), MRG(Combination((recurrence,)), seed)
    assert fast.random_raw(size).tolist() == [slow.step() for _ in range(size)]
    assert fast.states == slow.states


@settings(max_examples=30, deadline=None)
@given(recurrence=_recurrences(10**6), seed=st.integers(1, 999), steps=st.integers(0, 300))
def test_jump_equals_stepping(recurrence, seed, steps):
    seed = seed % (recurrence.m - 1) + 1
    jumped, stepped = MRG(Combination((recurrence,)), seed), MRG(Combination((recurrence,)), seed)
    jumped.jump(steps)
    for _ in range(steps):
        stepped.step()
    assert jumped.states == stepped.states


def test_chunked_reads_continue_the_stream():
    whole, parts = as_generator("mrg31k3p").make(7), as_generator("mrg31k3p").make(7)
    assert whole.random_raw(12).tolist() == parts.random_raw(5).tolist() + parts.random_raw(7).tolist()


def test_inline_spec_is_knuths_mrg():
    inline = as_generator("mrg:m=2^31-1,a=271828183:-314159269")
    assert inline.combination == as_generator("knuth-mrg").combination
    assert inline.make().random_raw(5).tolist() == as_generator("knuth-mrg").make(1).random_raw(5).tolist()


def test_inline_combination_is_mrg32k3a():
    inline = as_generator("mrg:m=2^32-209,a=0:1403580:-810728/m=2^32-22853,a=527612:0:-1370589,seed=12345")
    assert inline.combination == as_generator("mrg32k3a").combination
    assert inline.make().uniforms(1)[0] == 0.12701112204657714


def test_inline_fraction_combination_is_wichmann_hill():
    inline = as_generator("mrg:m=30269,a=171/m=30307,a=172/m=30323,a=170,combine=fraction")
    assert inline.combination == as_generator("wichmann-hill").combination


@pytest.mark.parametrize("spec, message", [
    ("mrg:m=7,a=3/m=11", "required for every component"),
    ("mrg:m=7,a=3/m=11,a=2,combine=nope", "combination rule must be one of"),
    ("mrg:m=7,a=3,combine=difference", "rule 'single' takes exactly one component"),
    ("mrg:m=7,a=3/m=11,a=2,seed=1,seed=2", "given twice"),
    ("mrg:m=2^31-1", "m and a are required"),
    ("mrg:a=3", "m and a are required"),
    ("mrg:m=2^31-1,a=1:0", "a_k must be non-zero"),
    ("mrg:m=1,a=3", "m must be an integer >= 2"),
    ("mrg:m=7,a=3,b=2", "expected m=, a="),
    ("mrg:m=7,a=3,a=2", "given twice"),
])
def test_bad_inline_specs_name_the_rule(spec, message):
    with pytest.raises(ValueError, match=message):
        as_generator(spec)


def test_seeds_outside_the_components_range_are_refused():
    with pytest.raises(ValueError, match=r"\[1, 30268\]"):
        as_generator("wichmann-hill").make(30269)
    with pytest.raises(ValueError, match="all zero"):
        MRG(as_generator("mrg32k3a").combination, vector=[0, 0, 0, 1, 2, 3])


def test_state_round_trips():
    source = as_generator("lecuyer88").make(5)
    source.random_raw(3)
    copy = as_generator("lecuyer88").make(1)
    copy.state = source.state
    assert copy.random_raw(4).tolist() == source.random_raw(4).tolist()


def test_an_mrg_object_resolves_to_a_spec_that_continues_it():
    source = as_generator("mrg32k3a").make(99)
    source.random_raw(4)
    spec = as_generator(source)
    assert spec.is_mrg and spec.combination == source.combination
    assert spec.make().random_raw(3).tolist() == source.random_raw(3).tolist()


@pytest.mark.parametrize("rule, components", [("fraction", 2), ("single", 1)])
def test_a_wrap_is_refused_outside_the_difference_rule(rule, components):
    parts = (Recurrence(7, (3,)), Recurrence(11, (2,)))[:components]
    with pytest.raises(ValueError, match=f"wrap= applies only to combine=difference .*rule '{rule}' has no wrap"):
        Combination(parts, rule, wrap=5)
    assert Combination(parts[:1] * 2, "difference", wrap=5).high == 5
