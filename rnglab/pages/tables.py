"""Table rows shared by the terminal and the pages: rows that say the same thing shown once."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def collapse(rows: Sequence[Sequence[Any]], column: int = 0) -> list[list[Any]]:
    """Rows equal in every column but ``column`` shown once, their cells in ``column`` joined (``"a, b"``); the
    order of first appearance kept.

    ``rnglab reduce`` collapses its methods (column 0) and the report's range-reduction table the same way
    (its method column, 2): modulo, float-multiply and multiply-shift share every probability at n = 52.
    """
    merged: dict[tuple, list[Any]] = {}
    for row in rows:
        key = tuple(str(cell) for i, cell in enumerate(row) if i != column)
        if key in merged:
            merged[key][column] = f"{merged[key][column]}, {row[column]}"
        else:
            merged[key] = list(row)
    return list(merged.values())
