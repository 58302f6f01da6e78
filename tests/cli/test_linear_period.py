"""``rnglab period`` for a generator linear over GF(2) (rnglab.cli.linear_period): the characteristic polynomial,
the exact period, k(v) and the dimension defect, as printed.

The algebra is tested in tests/algebra/; the LCG path of the command in tests/cli/test_period.py.
"""

import json

import pytest
from cli_runs import run

from rnglab.cli.linear_period import is_gf2_linear
from rnglab.generators import as_generator


def test_gf2_linear_generator_period_and_equidistribution(capsys):
    # Marsaglia's xor128: a primitive polynomial of degree 128 (period 2^128 - 1); k(1) = 128, k(2) = 64
    status, out, _ = run(["period", "xorshift128"], capsys)
    assert status == 0 and "polynomial degree 128, 47 non-zero terms, irreducible\n" in out
    assert "period     2^128 - 1 (the polynomial is primitive" in out and "v=1: 128/128  v=2: 64/64" in out
    assert "dimension defect 69\n" in out


def test_gf2_linear_generator_json(capsys):
    status, out, _ = run(["period", "well512a", "--json"], capsys)
    data = json.loads(out)
    assert status == 0 and (data["degree"], data["weight"], data["period"]) == (512, 225, 2**512 - 1)
    assert data["equidistribution"]["defect"] == 0 and data["equidistribution"]["dimensions"][31] == 16


def test_scrambled_generator_has_its_engine_period(capsys):
    status, out, _ = run(["period", "xoroshiro128plus"], capsys)
    assert status == 0 and "period     2^128 - 1" in out and "equidistribution: not defined" in out


def test_the_whole_text_of_xorshift128(capsys):
    # k(v): the top v bits of xor128 are equidistributed in k(v) dimensions, at most floor(128/v); eight v a line.
    status, out, _ = run(["period", "xorshift128"], capsys)
    lines = out.splitlines()
    assert status == 0 and lines == [
        "generator  xorshift128: linear over GF(2), 128 bits of state",
        "polynomial degree 128, 47 non-zero terms, irreducible",
        "period     2^128 - 1 (the polynomial is primitive: every non-zero state on one cycle)",
        "equidistribution of the top v bits (k(v), bound floor(128/v)):",
        "  v=1: 128/128  v=2: 64/64  v=3: 41/42  v=4: 29/32  v=5: 23/25  v=6: 13/21  v=7: 12/18  v=8: 12/16",
        "  v=9: 12/14  v=10: 12/12  v=11: 8/11  v=12: 4/10  v=13: 4/9  v=14: 4/9  v=15: 4/8  v=16: 4/8",
        "  v=17: 4/7  v=18: 4/7  v=19: 4/6  v=20: 4/6  v=21: 4/6  v=22: 4/5  v=23: 4/5  v=24: 4/5",
        "  v=25: 4/5  v=26: 4/4  v=27: 4/4  v=28: 4/4  v=29: 4/4  v=30: 4/4  v=31: 4/4  v=32: 4/4",
        "dimension defect 69"]
    cells = [cell.split(": ")[1].split("/") for line in lines[4:8] for cell in line.split("  ") if cell]
    assert [int(bound) for _, bound in cells] == [128 // v for v in range(1, 33)]
    assert sum(int(bound) - int(k) for k, bound in cells) == 69          # the defect is the sum of the shortfalls


@pytest.mark.slow
def test_a_maximally_equidistributed_generator_says_so(capsys):
    status, out, _ = run(["period", "well512a"], capsys)
    assert status == 0 and out.splitlines()[-1] == "dimension defect 0 (maximally equidistributed)"


@pytest.mark.parametrize("name, linear", [("mt19937", True), ("xoroshiro128plus", True), ("v8", True),
                                          ("python_random53", False), ("pcg64", False), ("minstd", False)])
def test_period_reads_a_gf2_linear_engine_read_one_word_an_output(name, linear):
    # CPython's random() takes two MT19937 words a float: not the algebra's model, so not read as GF(2)-linear.
    assert is_gf2_linear(as_generator(name)) is linear


def test_two_words_an_output_is_not_read_as_gf2_linear(capsys):
    status, out, err = run(["period", "python_random53"], capsys)
    assert (status, out) == (2, "") and err == (
        "Error: python_random53 is not a linear congruential generator: period, spectral test and lattice recovery "
        "do not apply\n")
