"""Report section: the generator catalog with parameters, ranges and first outputs."""

from __future__ import annotations

from ..algebra.mrg_period import period as mrg_period
from ..algebra.period import period
from ..generators import catalog


def markdown_table(headers, rows) -> str:
    """Format a Markdown pipe table."""
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join("" if v is None else str(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def section(context):
    """The catalog: every generator rnglab knows, where it comes from and its first outputs."""
    from . import Section

    rows = []
    for entry in catalog().values():
        if entry.kind == "os":
            rows.append([f"`{entry.name}`", entry.kind, "", "", "", "[0, 2^64-1]", "", "not reproducible",
                         entry.citation])
            continue
        source = entry.make()
        cycle = _period_cell(source) if entry.is_lcg else _mrg_period_cell(source) if entry.is_mrg else ""
        first = ", ".join(str(int(v)) for v in source.random_raw(3))
        rows.append([f"`{entry.name}`", entry.kind, entry.a, entry.c, entry.m, f"[{source.low}, {source.high}]",
                     cycle, f"seed {source.seed}: {first}", entry.citation])
    text = ("Every generator can be named in any command (`rnglab gen msvc -n 5`). "
            "LCG parameters are exact integers; outputs are what a program sees. The period is exact "
            "(number theory, `rnglab period`), from the default seed, with the maximum possible for that "
            "m and c.\n\n")
    return Section("Generator catalog", text + markdown_table(
        ["name", "kind", "a", "c", "m", "output range", "period (max?)", "first outputs", "source"], rows))


def _mrg_period_cell(source) -> str:
    result = mrg_period(source)
    if result.period is None:
        return "not computed"
    return f"{result.period} ({'maximal' if all(part.is_max for part in result.components) else 'not maximal'})"


def _period_cell(source) -> str:
    result = period(source)
    return f"{result.period} ({'maximal' if result.is_max else f'max {result.max_period}'})"
