"""State recovery from outputs seen directly (rnglab.recovery.seen_outputs): ``java.util.Random``'s seed from
two ``nextInt()`` values, and the values that follow, as the JDK printed them.

The reference is tests/data/reference/java_reference.txt, printed by OpenJDK 17 running
tests/data/reference/JavaReference.java: ``java SEED`` and the first five ``nextInt()`` as unsigned words.
"""

from pathlib import Path

import pytest

from rnglab.generators import as_generator, make_source
from rnglab.recovery.seen_outputs import parse_outputs, recover_state

REFERENCE = Path(__file__).parents[1] / "data" / "reference" / "java_reference.txt"


def jdk_next_ints() -> dict[int, list[int]]:
    rows = (line.split() for line in REFERENCE.read_text().splitlines())
    return {int(row[1]): [int(v) for v in row[2:]] for row in rows if row and row[0] == "java"}


@pytest.mark.parametrize("seed", sorted(jdk_next_ints()))
def test_two_next_ints_give_the_seed_and_the_next_three(seed):
    outputs = jdk_next_ints()[seed]
    result = recover_state(as_generator("java"), outputs[:2], predict=3)
    assert result.hidden_bits == 16 and result.seeds == [seed % 2**48]
    assert result.predicted == [outputs[2:]]


def test_signed_outputs_are_java_s_ints():
    source = make_source("java")
    assert parse_outputs("-1170105035, 234785527", source) == [3124862261, 234785527]
    with pytest.raises(ValueError, match="at least two consecutive outputs"):
        parse_outputs("5", source)
    with pytest.raises(ValueError, match=r"outputs of java are in \[0, 4294967295\]"):
        parse_outputs("1 2^32", source)


def test_a_generator_without_hidden_bits_to_search_is_refused():
    with pytest.raises(ValueError, match="needs an LCG with m = 2\\^e and a bits"):
        recover_state(as_generator("minstd"), [16807, 282475249])
