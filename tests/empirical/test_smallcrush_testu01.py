"""rnglab's ``smallcrush`` battery against TestU01 1.2.3's SmallCrush on the same words: same statistics, same
p-values to the digits TestU01 prints, and the same words read by each test.

The streams (one good, two defective) are those of tests/data/smallcrush/streams.py; TestU01's outputs were written
by tests/data/smallcrush/make_reference.sh with driver.c: tests_<stream>.txt holds each test alone, with SmallCrush's
parameters and a shorter sample, on the stream from its start (each statistic to 17 digits, and the words read);
smallcrush_<stream>.txt is TestU01's report of the whole battery (checked under ``-m slow``).
"""

from __future__ import annotations

import dataclasses
import importlib.util
import math
import re
from pathlib import Path

import pytest
import tomllib

from rnglab.empirical.battery import get_battery, run_battery
from rnglab.generators import CallableSource, make_source

DATA = Path(__file__).parents[1] / "data" / "smallcrush"
SPEC = importlib.util.spec_from_file_location("smallcrush_streams", DATA / "streams.py")
STREAMS = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(STREAMS)

#: The driver's name of each SmallCrush test, in battery order (the smallcrush battery's entries).
DRIVER_TESTS = ("birthday", "collision", "gap", "poker", "coupon", "maxoft", "weight", "rank", "hamming", "walk")


def stream_source(name: str) -> CallableSource:
    """The stream as a 32-bit rnglab source, from its first word."""
    words = STREAMS.Words(name)
    return CallableSource(words.next, 0, 2**32 - 1, name=name, vectorized=True)


def word_at(name: str, index: int) -> int:
    return int(STREAMS.Words(name).next(index + 1)[index])


def driver_runs(name: str) -> dict[str, dict]:
    """tests_<name>.txt: per test, its n, degrees of freedom, words read and ``{statistic name: (statistic, p)}``."""
    runs: dict[str, dict] = {}
    for line in (DATA / f"tests_{name}.txt").read_text().splitlines():
        fields = line.split()
        run = runs.setdefault(fields[0], {"statistics": {}})
        if fields[1] == "degrees-of-freedom":
            run["df"] = int(fields[2])
            continue
        values = dict(zip(fields[2::2], fields[3::2]))
        run["n"], run["words"] = int(values["n"]), int(values["words"])
        run["statistics"][fields[1]] = float(values["statistic"]), float(values["pvalue"])
    return runs


def printed_number(x: float, width: int, decimals: int, digits: int) -> str:
    """``x`` as TestU01's num_WriteD(x, I, J, K) prints it (stripped): ``J`` decimals when that shows ``K``
    significant digits within ``I`` characters, else ``K`` digits in e-notation without the exponent's leading 0."""
    whole = 1 if x == 0 else math.floor(math.log10(abs(x)) + 1)
    if x == 0 or (whole + decimals >= digits and width >= max(whole, 1) + decimals + (x < 0) + 1):
        return f"{x:.{decimals}f}"
    return re.sub(r"e([+-])0", r"e\1", f"{x:.{digits - 1}e}")


def printed_statistic(x: float) -> str:
    """A statistic as TestU01's reports print it (gofw_Writep2)."""
    if 0.1 <= abs(x) < 1e5:
        return printed_number(x, 8, 2, 1)
    if 0.01 <= abs(x) < 0.1:
        return printed_number(x, 8, 3, 2)
    return printed_number(x, 8, 3, 3)


def printed_pvalue(p: float) -> str:
    """A p-value as TestU01's reports print it (gofw_Writep0)."""
    if 0.01 <= p <= 0.99:
        return printed_number(p, 8, 2, 1)
    if p < 1e-300:
        return "eps"
    if p < 0.01:
        return printed_number(p, 8, 2, 2)
    if p >= 1 - 1e-15:
        return "1 - eps1"
    if p < 1 - 1e-4:
        return f"{p:.4f}"
    return "1 - " + printed_number(1 - p, 7, 2, 2)


def as_one_minus_f(p: float) -> float:
    """A right-tail p-value as TestU01 computes it with N = 1, ``1 - F`` in double precision (gofw_ActiveTests0):
    below about 1e-16 it is 0, printed ``eps`` (rnglab's tails go on, to 2.5e-48 for lcg16's weights)."""
    return 1.0 - (1.0 - p)


def rnglab_statistics(test: str, result) -> dict[str, tuple[float, float]]:
    """The result's statistics under the driver's names, as ``(statistic, p-value)`` the way TestU01 reports them.

    SmallCrush reports the maximum-of-t test's Anderson-Darling p-value ``p`` as a statistic, with ``1 - p`` as its
    p-value (with N = 1 its second level tests the one p-value for uniformity by its distribution function).
    """
    if test == "maxoft":
        ad = result.details["anderson_darling"]["pvalue"]
        return {"chi2": (result.statistic, result.pvalue), "AD": (ad, 1 - ad)}
    if test == "walk":
        return {name: (part["statistic"], part["pvalue"]) for name, part in result.details["statistics"].items()}
    return {"-": (result.statistic, result.pvalue)}


@pytest.mark.parametrize("stream", STREAMS.NAMES)
@pytest.mark.parametrize("test", DRIVER_TESTS)
def test_each_statistic_equals_testu01s(stream, test):
    expected = driver_runs(stream)[test]
    entry = get_battery("smallcrush").entries[DRIVER_TESTS.index(test)]
    options = {**entry.options, **({"t": expected["df"]} if test == "gap" else {})}
    entry = dataclasses.replace(entry, n=expected["n"], options=options)
    source = stream_source(stream)
    found = rnglab_statistics(test, entry.run(entry.view(source)))
    assert found.keys() == expected["statistics"].keys()
    for name, (statistic, pvalue) in expected["statistics"].items():
        if name == "AD":  # a p-value: rnglab's Anderson-Darling law is Marsaglia and Marsaglia's, TestU01's its own
            assert found[name][0] == pytest.approx(statistic, abs=2e-4)
            assert f"{found[name][0]:.2f}" == f"{statistic:.2f}"
        else:
            assert found[name][0] == pytest.approx(statistic, rel=1e-9), name
        assert printed_pvalue(as_one_minus_f(found[name][1])) == printed_pvalue(pvalue), name
    assert int(source.random_raw(1)[0]) == word_at(stream, expected["words"])


def report_statistics(name: str) -> tuple[list[tuple[str, str]], int]:
    """smallcrush_<name>.txt: its 15 (statistic, p-value) as TestU01 printed them, in order, and the words read."""
    statistics, pvalues = [], []
    text = (DATA / f"smallcrush_{name}.txt").read_text()
    for line in text.splitlines():
        label, _, value = line.partition(":")
        if re.search(r"statistic +$|^Total observed number|^Observed number of collisions", label):
            statistics.append(value.strip())
        elif label.startswith("p-value of test"):
            pvalues.append(value.replace("*****", "").strip())
    return list(zip(statistics, pvalues, strict=True)), int(re.search(r"words read: (\d+)", text).group(1))


def word_after(name: str, count: int) -> int:
    """The stream's word that follows its first ``count`` words."""
    words = STREAMS.Words(name)
    while count >= 2**22:
        words.next(2**22)
        count -= 2**22
    return int(words.next(count + 1)[count])


@pytest.mark.slow
@pytest.mark.parametrize("stream", STREAMS.NAMES)
def test_the_battery_prints_smallcrush_report(stream):
    expected, words = report_statistics(stream)
    source = stream_source(stream)
    result = run_battery(lambda seed: source, get_battery("smallcrush"))
    found = [value for test, entry in zip(DRIVER_TESTS, result.results, strict=True)
             for value in rnglab_statistics(test, entry).values()]
    printed = [(str(int(statistic)) if test_index < 2 else printed_statistic(statistic),
                printed_pvalue(as_one_minus_f(pvalue))) for test_index, (statistic, pvalue) in enumerate(found)]
    assert printed == expected
    assert int(source.random_raw(1)[0]) == word_after(stream, words)


#: tests/data/testu01/smallcrush.toml: SmallCrush's p-values (6 digits) on ``rnglab stream GEN --seed 12345``.
CATALOG = tomllib.loads((Path(__file__).parents[1] / "data" / "testu01" / "smallcrush.toml").read_text())


@pytest.mark.slow
@pytest.mark.parametrize("generator", ["delphi", "java", "ranqd1"])
def test_the_battery_gives_smallcrush_pvalues_on_32_bit_catalog_generators(generator):
    # the catalog's 32-bit generators that smallcrush.toml has (its mt19937 and python tables are empty): their
    # stream is their outputs, so the battery on the generator reads the words SmallCrush read
    result = run_battery(lambda seed: make_source(generator, seed), get_battery("smallcrush"), 12345)
    found = [pvalue for test, entry in zip(DRIVER_TESTS, result.results, strict=True)
             for _, pvalue in rnglab_statistics(test, entry).values()]
    for (name, expected), pvalue in zip(CATALOG[generator].items(), found, strict=True):
        if name == "MaxOft AD":  # Marsaglia and Marsaglia's law against TestU01's: 7e-5 apart at most here
            assert pvalue == pytest.approx(expected, abs=2e-4)
        else:
            assert f"{as_one_minus_f(pvalue):.6g}" == f"{expected:.6g}", name
