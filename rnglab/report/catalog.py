"""Report section: the generator catalog, one short row each; parameters and first outputs in report.json."""

from __future__ import annotations

import math

from rnglab.algebra.mrg_period import period as mrg_period
from rnglab.algebra.period import period
from rnglab.generators import catalog
from rnglab.pages.numbers import WRITTEN_OUT, power
from rnglab.report.document import Data, Section, Table
from rnglab.shuffles.reach import state_count

#: The columns a reader needs to tell the generators apart; the rest of each entry is in report.json.
COLUMNS = ["name", "family", "output range", "period", "state bits", "source"]


def section(context) -> Section:
    """The catalog: every generator rnglab knows, its range, period, state and where it comes from."""
    rows, records = [], []
    for entry in catalog().values():
        record = _record(entry)
        records.append(record)
        rows.append([f"`{entry.name}`", entry.kind, record["output_range"], record["period"], record["state_bits"],
                     entry.citation])
    text = ("Every generator can be named in any command (`rnglab gen msvc -n 5`). The period is exact for an "
            "LCG or an MRG (number theory, `rnglab period`, from the default seed, against the maximum for that "
            "m and c), the published figure otherwise; state bits are log2 of the states. Each generator's "
            "parameters (a, c, m: exact integers) and first outputs are in report.json.")
    return Section("Generator catalog", [text, Table(COLUMNS, rows), Data("generators", records)],
                   f"{len(rows)} generators, with their exact LCG periods")


def _record(entry) -> dict:
    """One generator as report.json holds it: the table's cells, its exact parameters and first outputs."""
    record = {"name": entry.name, "family": entry.kind, "a": entry.a, "c": entry.c, "m": entry.m,
              "citation": entry.citation}
    if entry.kind == "os":
        return {**record, "output_range": f"[0, {power(2**64 - 1)}]", "period": "not reproducible",
                "state_bits": "", "first_outputs": None}
    source = entry.make()
    cycle = _period_cell(source) if entry.is_lcg else _mrg_period_cell(source) if entry.is_mrg else \
        power(entry.period) if entry.period else "unknown"
    states = state_count(entry)
    return {**record, "output_range": f"[{_end(source.low)}, {_end(source.high)}]", "period": cycle,
            "state_bits": f"{round(math.log2(states), 2):g}" if states else "unknown",
            "first_outputs": {"seed": source.seed, "values": [int(v) for v in source.random_raw(3)]}}


def _end(value: int) -> str:
    """An end of the output range: its digits below 10^6 (``32767``), else a power of two (``2^64 - 1``)."""
    return str(value) if value < WRITTEN_OUT else power(value)


def _mrg_period_cell(source) -> str:
    result = mrg_period(source)
    if result.period is None:
        return "not computed"
    return f"{power(result.period)} ({'maximal' if all(p.is_max for p in result.components) else 'not maximal'})"


def _period_cell(source) -> str:
    result = period(source)
    return f"{power(result.period)} ({'maximal' if result.is_max else f'max {power(result.max_period)}'})"
