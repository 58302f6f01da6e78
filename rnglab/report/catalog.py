"""Report section: the generator catalog with parameters, ranges and first outputs."""

from __future__ import annotations

from ..presets import catalog


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
            rows.append([f"`{entry.name}`", entry.kind, "", "", "", "[0, 2^64-1]", "not reproducible", entry.source])
            continue
        source = entry.make()
        first = ", ".join(str(int(v)) for v in source.random_raw(3))
        rows.append([f"`{entry.name}`", entry.kind, entry.a, entry.c, entry.m, f"[{source.low}, {source.high}]",
                     f"seed {source.seed}: {first}", entry.source])
    text = ("Every generator can be named in any command (`rnglab gen msvc -n 5`). "
            "LCG parameters are exact integers; outputs are what a program sees.\n\n")
    return Section("Generator catalog", text + markdown_table(
        ["name", "kind", "a", "c", "m", "output range", "first outputs", "source"], rows))
