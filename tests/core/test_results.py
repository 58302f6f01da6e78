"""Result objects: a short, readable repr instead of a dump of every field."""

import dataclasses
import json
from fractions import Fraction

import numpy as np

from rnglab.core.results import Result, json_text, summarise


@dataclasses.dataclass(frozen=True)
class Example(Result):
    name: str
    pvalue: float
    m: int
    bias: Fraction
    pvalues: tuple
    counts: np.ndarray
    details: dict


def test_repr_shows_scalars_and_summarises_collections():
    example = Example("randu", 0.25, 3**4000, Fraction(1, 3), tuple(range(100)),
                      np.zeros((3, 4)), {"a": 1, "b": 2})
    assert repr(example) == ("Example(name='randu', pvalue=0.25, m=about 2^6340, bias=Fraction(1, 3), "
                             "pvalues=<tuple of 100>, counts=<ndarray float64 (3, 4)>, details=<dict of 2>)")
    assert str(example) == repr(example)


def test_a_subclass_may_keep_its_own_repr():
    @dataclasses.dataclass(frozen=True)
    class Named(Result):
        name: str

        def __repr__(self):
            return f"<{self.name}>"

    assert repr(Named("x")) == "<x>"


def test_long_text_is_cut():
    assert summarise("x" * 100) == "'" + "x" * 40 + "'... (100 characters)"
    assert summarise(Example) == "<type>"


def test_integers_beyond_4300_digits_are_written_as_exact_hexadecimal_and_ordinary_ones_stay_integers():
    mersenne = 2**19937 - 1
    example = Example("mt", 0.5, mersenne, Fraction(1, 3), (-mersenne, 10**4300 - 1), np.arange(3), {"b": 2**64})
    assert example.to_dict()["m"] == mersenne
    data = json.loads(json_text(example.to_dict()))
    assert data["m"] == "0x1" + "f" * 4984 and int(data["m"], 0) == mersenne
    assert int(data["pvalues"][0], 0) == -mersenne
    assert data["pvalues"][1] == 10**4300 - 1 and data["details"] == {"b": 2**64}
    assert data["counts"] == [0, 1, 2] and json_text([10**4300, True]) == f'["{hex(10**4300)}", true]'


def test_fractions_with_parts_beyond_4300_digits_are_written_in_exact_hexadecimal():
    # deitel's 52 cards through modulo on 2^64 values: a position deviation over a 17,708-bit denominator
    # ("Exceeds the limit (4300 digits) for integer string conversion" after the work)
    huge = Fraction(2**19937 - 1, 3**9000)
    example = Example("mt", 0.5, 1, huge, (Fraction(631, 32768),), np.arange(1), {})
    data = json.loads(json_text(example.to_dict()))
    numerator, denominator = (int(part, 0) for part in data["bias"].split("/"))
    assert Fraction(numerator, denominator) == huge and data["pvalues"] == ["631/32768"]
