"""Safe parameter expressions: values, precedence, errors and the size limit."""

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rnglab.params import MAX_BITS, parse_int


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
