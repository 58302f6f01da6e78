"""The report as objects: sections made of text, tables, figures and sub-headings, rendered by templates.

A section is data, not markup: its tables hold the values themselves (exact
integers, grades as :class:`~rnglab.pages.Mark`), and the templates of
:mod:`rnglab.pages` decide how they look (big integers as powers of two,
numbers right-aligned, grades with a symbol). Text blocks are sentences with
inline `code` and **bold** only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field


def slug(title: str) -> str:
    """An anchor from a title: lower case, runs of anything but letters and digits as one hyphen."""
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


@dataclass(frozen=True)
class Table:
    """A table: ``headers`` and ``rows`` of values (int, float, str or :class:`~rnglab.pages.Mark`)."""

    headers: list
    rows: list
    kind: str = field(default="table", init=False)


@dataclass(frozen=True)
class Figure:
    """A figure drawn once: its PNG bytes (inlined in HTML), the file the Markdown links to, its caption."""

    name: str
    path: str
    png: bytes = field(repr=False)
    caption: str
    kind: str = field(default="figure", init=False)


@dataclass(frozen=True)
class Data:
    """Records for report.json only (the pages show a table of their essentials): ``name`` and a list of dicts."""

    name: str
    records: list
    kind: str = field(default="data", init=False)


@dataclass(frozen=True)
class Heading:
    """A sub-heading inside a section (an entry of the table of contents)."""

    title: str
    kind: str = field(default="heading", init=False)

    @property
    def anchor(self) -> str:
        return slug(self.title)


@dataclass(frozen=True)
class Section:
    """One part of the report: a title, a one-line summary for the top of the report, and its blocks.

    A block is a paragraph (``str``), a :class:`Table`, a :class:`Figure`,
    a :class:`Heading` or :class:`Data` (in report.json only).
    """

    title: str
    blocks: list
    summary: str = ""

    @property
    def anchor(self) -> str:
        return slug(self.title)

    @property
    def headings(self) -> list[Heading]:
        """The section's sub-headings, in order (for the table of contents)."""
        return [block for block in self.blocks if isinstance(block, Heading)]

    @property
    def figures(self) -> list[Figure]:
        return [block for block in self.blocks if isinstance(block, Figure)]


def plain_blocks(section: Section) -> dict:
    """A section as JSON-ready data: figures by path and caption (their pixels are in report.html)."""
    from rnglab.core.results import to_plain

    blocks = []
    for block in section.blocks:
        if isinstance(block, str):
            blocks.append({"kind": "text", "text": block})
        elif isinstance(block, Figure):
            blocks.append({"kind": "figure", "path": block.path, "caption": block.caption})
        else:
            blocks.append(to_plain(block))
    return {"title": section.title, "anchor": section.anchor, "summary": section.summary, "blocks": blocks}
