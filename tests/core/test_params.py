"""Safe parameter expressions: values, precedence, errors and the size limit."""

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rnglab.core.params import MAX_BITS, MAX_NESTING, describe_int, parse_int


@pytest.mark.parametrize("text, value", [
    ("2147483647", 2147483647),
    ("2^31-1", 2**31 - 1),
    ("2**32", 2**32),
    ("0x5DEECE66D", 25214903917),       # java.util.Random's multiplier
    ("1<<48", 2**48),
    ("(2^61-1)*3", (2**61 - 1) * 3),
    ("2^3^2", 2**9),                     # power is right-associative
    ("-2^2", -4),                        # unary minus binds looser than power
    ("1 + 2 * 3", 7),
    ("1<<4+1", 32),                      # shifts bind loosest, as in Python
    ("10_000", 10000),
    (" 7 ", 7),
])
def test_values(text, value):
    assert parse_int(text) == value


@pytest.mark.parametrize("text, fragment", [
    ("2^^31", "unexpected '^'"),
    ("2**", "ends too early"),
    ("(2^31", "ends too early"),
    ("(2^31 7", "missing ')'"),
    ("2^31)", "unexpected ')'"),
    ("2.5", "unexpected '.'"),
    ("abs(3)", "unexpected 'a'"),
    ("__import__('os')", "unexpected '_'"),
    ("", "empty"),
    ("2^-1", "negative exponents"),
    ("1<<-1", "negative shift"),
    ("1__0", "misplaced '_'"),
])
def test_errors_name_the_problem(text, fragment):
    with pytest.raises(ValueError, match=re.escape(fragment)):
        parse_int(text)


@pytest.mark.parametrize("text", ["2^(2^40)", "2^4096", "1<<5000", "(2^3000)*(2^3000)", "9^9^9^9"])
def test_huge_values_are_refused_before_computing(text):
    with pytest.raises(ValueError, match=f"below 2\\^{MAX_BITS}"):
        parse_int(text)


@pytest.mark.parametrize("text, bits", [
    ("3^4000", 6340),                    # (bit_length(3) - 1) * 4000 + 1 = 4001 used to let it through
    ("3^4095", 6491),
    ("1" * 5000, 16607),                 # refused by its length, before Python's 4300-digit limit
    ("0x" + "f" * 1025, 4097),
])
def test_sizes_are_told_in_bits_and_never_printed_in_full(text, bits):
    with pytest.raises(ValueError) as refused:
        parse_int(text)
    message = str(refused.value)
    assert f"it needs about {bits} bits; values must stay below 2^{MAX_BITS}" in message
    assert len(message) < 160


@pytest.mark.parametrize("text", ["(" * 3000 + "1" + ")" * 3000, "-" * 5000 + "1", "2^" * 200 + "1"])
def test_deep_nesting_is_refused_in_one_line(text):
    with pytest.raises(ValueError, match=f"may nest at most {MAX_NESTING} deep") as refused:
        parse_int(text)
    assert f"... ({len(text)} characters)" in str(refused.value)


def test_nesting_up_to_the_limit_is_fine():
    depth = MAX_NESTING - 1
    assert parse_int("(" * depth + "7" + ")" * depth) == 7
    assert parse_int("-" * depth + "7") == -7


def test_leading_zeros_do_not_count_towards_the_size():
    assert parse_int("0x" + "0" * 3000 + "1") == 1


def test_describe_int_gives_large_values_by_size():
    assert describe_int(12345) == "12345"
    assert describe_int(3**4095) == "about 2^6490"
    assert describe_int(-(2**200)) == "-(about 2^200)"


def test_largest_allowed_value():
    assert parse_int("2^4095") == 2**4095


def test_types():
    assert parse_int(12) == 12
    with pytest.raises(TypeError):
        parse_int(True)
    with pytest.raises(TypeError):
        parse_int(1.5)


@given(st.integers(min_value=0, max_value=2**200))
def test_decimal_and_hex_round_trip(value):
    assert parse_int(str(value)) == value
    assert parse_int(hex(value)) == value


@st.composite
def expressions(draw, depth=3):
    """Random expression trees with their Python value (Python's ** and << agree with ours)."""
    if depth == 0 or draw(st.booleans()):
        value = draw(st.integers(min_value=0, max_value=999))
        return str(value), value
    left_text, left = draw(expressions(depth=depth - 1))
    right_text, right = draw(expressions(depth=depth - 1))
    operator = draw(st.sampled_from(["+", "-", "*"]))
    value = {"+": left + right, "-": left - right, "*": left * right}[operator]
    return f"({left_text}{operator}{right_text})", value


@given(expressions())
def test_arithmetic_matches_python(case):
    text, value = case
    assert parse_int(text) == value


def test_a_larger_limit_admits_the_catalog_s_figures():
    assert parse_int("2^19937-1", max_bits=2**15) == 2**19937 - 1
    with pytest.raises(ValueError, match="below 2\\^4096"):
        parse_int("2^19937-1")
    with pytest.raises(ValueError, match="below 2\\^100"):
        parse_int(2**100, max_bits=100)
