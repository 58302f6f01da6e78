"""Report section: the generator catalog with parameters, ranges and first outputs."""

from __future__ import annotations

from ..algebra.mrg_period import period as mrg_period
from ..algebra.period import period
from ..generators import catalog
from ..pages.numbers import power
from .document import Section, Table


def section(context) -> Section:
    """The catalog: every generator rnglab knows, where it comes from and its first outputs."""
    rows = []
    for entry in catalog().values():
        if entry.kind == "os":
            rows.append([f"`{entry.name}`", entry.kind, "", "", "", "[0, 2^64 - 1]", "", "not reproducible",
                         entry.citation])
            continue
        source = entry.make()
        cycle = _period_cell(source) if entry.is_lcg else _mrg_period_cell(source) if entry.is_mrg else ""
        first = ", ".join(str(int(v)) for v in source.random_raw(3))
        rows.append([f"`{entry.name}`", entry.kind, _parameter(entry.a), _parameter(entry.c), _parameter(entry.m),
                     f"[{source.low}, {source.high}]", cycle, f"seed {source.seed}: {first}", entry.citation])
    text = ("Every generator can be named in any command (`rnglab gen msvc -n 5`). "
            "LCG parameters are exact integers; outputs are what a program sees. The period is exact "
            "(number theory, `rnglab period`), from the default seed, with the maximum possible for that "
            "m and c.")
    table = Table(["name", "kind", "a", "c", "m", "output range", "period (max?)", "first outputs", "source"], rows)
    return Section("Generator catalog", [text, table], f"{len(rows)} generators, with their exact LCG periods")


def _parameter(value) -> str:
    """An LCG parameter written exactly (it identifies the generator): digits, not a power of two."""
    return "" if value is None else str(value)


def _mrg_period_cell(source) -> str:
    result = mrg_period(source)
    if result.period is None:
        return "not computed"
    return f"{power(result.period)} ({'maximal' if all(p.is_max for p in result.components) else 'not maximal'})"


def _period_cell(source) -> str:
    result = period(source)
    return f"{power(result.period)} ({'maximal' if result.is_max else f'max {power(result.max_period)}'})"
