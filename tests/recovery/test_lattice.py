"""Lattice state recovery (issue 15): hidden states chosen at random, and the JVM's own shuffles and dice."""

import random
from pathlib import Path

import pytest

from rnglab.draws.bounded import draw_bounded_reference
from rnglab.generators import as_generator
from rnglab.recovery.clues import Clue, information_bits
from rnglab.recovery.lattice import InsufficientObservations, recover_from_outputs, reproduces, solve, source_at
from rnglab.reduction.reducers import as_reducer

JAVA = as_generator("java")
MMIX_TOP = as_generator("lcg:a=6364136223846793005,c=1442695040888963407,m=2^64,output=bits(33,31)")
MMIX = as_generator("mmix")
#: Made by tests/data/lattice/MakeReference.java (Collections.shuffle and nextInt(6) of java.util.Random).
REFERENCE = Path(__file__).parents[1] / "data" / "lattice" / "java_reference.txt"


def jvm_lines(kind):
    for line in REFERENCE.read_text().splitlines():
        name, seed, *values = line.split()
        if name == kind:
            yield int(seed), [int(v) for v in values]


def observed(spec, reducer, state, bounds):
    """The draws (bound n) or outputs (None) the generator in ``state`` makes, then its next 5 of the last kind."""
    source = source_at(spec, state)
    values = [source.next_raw() if n is None else int(draw_bounded_reference(source, n, 1, reducer).values[0])
              for n in bounds]
    return values, [source.next_raw() if bounds[-1] is None else
                    int(draw_bounded_reference(source, bounds[-1], 1, reducer).values[0]) for _ in range(5)]


def first_state(spec, seeded):
    return (spec.a * seeded + spec.c) % spec.m


@pytest.mark.parametrize("seed, rolls", list(jvm_lines("dice")))
def test_java_dice_from_25_rolls_predict_the_jvm(seed, rolls):
    recovery = recover_from_outputs(JAVA, JAVA.native_reducer, [Clue.value(v, 6) for v in rolls[:25]], predict=5)
    assert recovery.seeds == [seed % 2**48] and recovery.predicted == [rolls[25:]]


CASES = {  # name: (spec, reducer, bounds (None: an output), top bits kept of each output or None)
    "java top 16 bits x4": (JAVA, "java-nextint", [None] * 4, 16),
    "java top 4 bits x13": (JAVA, "java-nextint", [None] * 13, 4),
    "mmix top 32 bits x3": (MMIX, "lemire", [None] * 3, 32),
    "mmix top 8 bits x9": (MMIX, "lemire", [None] * 9, 8),
    "java nextInt(6) x25": (JAVA, "java-nextint", [6] * 25, None),
    "java nextInt(52..41)": (JAVA, "java-nextint", list(range(52, 40, -1)), None),
    "java nextInt(2^k)": (JAVA, "java-nextint", [16, 8, 32, 4, 64, 16, 8, 1024, 128, 256, 16, 64], None),
    "mmix (x>>33) % (52..37)": (MMIX_TOP, "modulo", list(range(52, 36, -1)), None),
    "mmix multiply-shift": (MMIX_TOP, "multiply-shift", [1000] * 8, None),
    "mmix float-multiply": (MMIX_TOP, "float-multiply", [1000] * 8, None),
    "minstd modulo": (as_generator("minstd"), "modulo", [1000] * 6, None),
}


@pytest.mark.parametrize("name", list(CASES))
def test_hidden_states_are_recovered(name):
    spec, reducer, bounds, top = CASES[name]
    reducer, rng = as_reducer(reducer), random.Random(name)
    for _ in range(3):
        seeded = rng.randrange(1, spec.m)
        values, following = observed(spec, reducer, seeded, bounds)
        width = spec.output.width if spec.output.kind == "bits" else (spec.m - 1).bit_length()
        clues = [Clue.top_bits(v >> (width - top), top, width) if top else Clue.value(v, n)
                 for v, n in zip(values, bounds)]
        solution = solve(spec, reducer, clues)
        assert first_state(spec, seeded) in solution.states
        assert all(reproduces(spec, reducer, clues, x) for x in solution.states)
        recovery = recover_from_outputs(spec, reducer, clues, predict=5)
        if top is None:
            assert following in recovery.predicted


def test_too_few_observations_state_the_bound_and_how_many_more():
    rolls = next(jvm_lines("dice"))[1]
    with pytest.raises(InsufficientObservations, match=r"carry 25.8 bits .* state has 48.* about 9 more"):
        solve(JAVA, JAVA.native_reducer, [Clue.value(v, 6) for v in rolls[:10]])


def test_coins_carry_one_bit_each():
    assert information_bits(JAVA, [Clue.value(1, 2)] * 48) == 48.0
    with pytest.raises(InsufficientObservations, match="about 1 more"):
        solve(JAVA, JAVA.native_reducer, [Clue.value(1, 2)] * 47)


def test_every_candidate_reproduces_near_the_information_bound():
    rng = random.Random(19)
    for _ in range(5):
        seeded = rng.randrange(2**48)
        values, _ = observed(JAVA, JAVA.native_reducer, seeded, [6] * 19)
        clues = [Clue.value(v, 6) for v in values]
        try:
            states = solve(JAVA, JAVA.native_reducer, clues).states
        except InsufficientObservations:
            continue
        assert all(reproduces(JAVA, JAVA.native_reducer, clues, x) for x in states)


def test_multiply_shift_draw_is_an_interval_of_outputs():
    # floor(y 6 / 2^31) = 2 exactly for y in [ceil(2 * 2^31 / 6), ceil(3 * 2^31 / 6) - 1]
    from rnglab.recovery.clues import _preimage
    assert _preimage(as_reducer("multiply-shift"), Clue.value(2, 6), 2**31) == (715827883, 1073741823)


def test_short_vectors_lists_every_vector_within_the_bound():
    from itertools import product

    from rnglab.algebra.lattice import IntegralLLL, dot, short_vectors
    basis = [[7, 1, 0], [3, -5, 2], [1, 1, 9]]
    reduction = IntegralLLL([row[:] for row in basis])
    reduction.run()
    mu, B = reduction.gram_schmidt()
    found = {tuple(v) for v in short_vectors(reduction.basis, mu, B, 120)}
    brute = set()
    for x in product(range(-12, 13), repeat=3):
        v = [sum(c * row[i] for c, row in zip(x, basis)) for i in range(3)]
        if any(x) and dot(v, v) <= 120 and tuple(-w for w in v) not in brute:
            brute.add(tuple(v))
    assert len(found) >= 3
    assert {min(v, tuple(-w for w in v)) for v in found} == {min(v, tuple(-w for w in v)) for v in brute}


def test_cli_dice_json_names_the_method_and_the_seed():
    import json

    from click.testing import CliRunner

    from rnglab.cli.crack import crack_command
    rolls = dict(jvm_lines("dice"))[42]
    result = CliRunner().invoke(crack_command, ["java", "--outputs", " ".join(map(str, rolls[:25])), "--bound", "6",
                                                "--predict", "5", "--json"])
    data = json.loads(result.output)
    assert result.exit_code == 0 and data["method"] == "lattice" and data["seeds"] == [42]
    assert data["predicted"] == [rolls[25:]]


