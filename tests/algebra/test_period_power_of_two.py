"""The closed-form period modulo 2^e: checked against stepping, and fast for huge e."""

import time

from rnglab.algebra.period import period_modulo_power_of_two
from rnglab.cli import main


def _stepped_period(a, c, m, x):
    y, steps = (a * x + c) % m, 1
    while y != x:
        y, steps = (a * y + c) % m, steps + 1
    return steps


def test_closed_form_agrees_with_stepping():
    for e in (1, 2, 3, 5, 8):
        m = 2**e
        for a in range(1, min(m, 32), 2):
            for c in range(min(m, 6)):
                for x in range(min(m, 6)):
                    assert period_modulo_power_of_two(a, c, e, x) == _stepped_period(a, c, m, x), (a, c, e, x)


def test_period_of_a_4000_bit_power_of_two_is_immediate(capsys):
    started = time.perf_counter()
    assert main(["period", "--a", "5", "--c", "1", "--m", "2^4000", "--json"]) == 0
    assert main(["period", "--a", "3", "--c", "1", "--m", "2^4000", "--json"]) == 0
    assert time.perf_counter() - started < 10
    out = capsys.readouterr().out
    assert f'"period": {2**4000}' in out and f'"period": {2**3999}' in out
