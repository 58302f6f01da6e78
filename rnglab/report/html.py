"""A small Markdown-to-HTML converter for the report's own Markdown.

It handles exactly what the report sections write: headings, paragraphs,
pipe tables, fenced code, bullet lists, inline code, emphasis, links and
images. Images are inlined as base64 data URIs, so the page is self-contained.
"""

from __future__ import annotations

import base64
import html
import re
from pathlib import Path

STYLE = """
body { font-family: system-ui, sans-serif; max-width: 70em; margin: 2em auto; padding: 0 1em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; }
th { background: #f0f0f0; } td:first-child, th:first-child { text-align: left; }
code, pre { background: #f6f6f6; font-family: ui-monospace, monospace; }
pre { padding: 0.6em; overflow-x: auto; } img { max-width: 100%; }
"""


def _inline(text: str, base: Path) -> str:
    parts = re.split(r"(`[^`]*`)", text)
    out = []
    for part in parts:
        if part.startswith("`") and part.endswith("`") and len(part) > 1:
            out.append(f"<code>{html.escape(part[1:-1])}</code>")
            continue
        part = html.escape(part, quote=False)
        part = re.sub(r"!\[([^\]]*)\]\(([^)]+)\)", lambda m: _image(m.group(1), m.group(2), base), part)
        part = re.sub(r"\[([^\]]+)\]\(([^)]+)\)", r'<a href="\2">\1</a>', part)
        part = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", part)
        part = re.sub(r"(?<![\w*])\*([^*\s][^*]*)\*(?![\w*])", r"<em>\1</em>", part)
        out.append(part)
    return "".join(out)


def _image(alt: str, src: str, base: Path) -> str:
    path = base / src
    if path.suffix == ".png" and path.exists():
        src = "data:image/png;base64," + base64.b64encode(path.read_bytes()).decode()
    return f'<img alt="{html.escape(alt)}" src="{src}">'


def _table(lines: list[str], base: Path) -> str:
    rows = [[cell.strip() for cell in line.strip().strip("|").split("|")] for line in lines]
    head, body = rows[0], [r for r in rows[2:]]
    out = ["<table><thead><tr>" + "".join(f"<th>{_inline(c, base)}</th>" for c in head) + "</tr></thead><tbody>"]
    out += ["<tr>" + "".join(f"<td>{_inline(c, base)}</td>" for c in row) + "</tr>" for row in body]
    return "\n".join(out) + "</tbody></table>"


def _blocks(text: str):
    """Yield (kind, lines) blocks: code, table, list, heading, paragraph."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            yield "code", lines[i + 1:j]
            i = j + 1
        elif not line.strip():
            i += 1
        elif line.startswith("#"):
            yield "heading", [line]
            i += 1
        else:
            kind = "table" if line.lstrip().startswith("|") else "list" if line.lstrip()[:2] in ("- ", "* ") \
                else "paragraph"
            j = i
            while j < len(lines) and lines[j].strip() and not lines[j].startswith(("```", "#")) \
                    and (kind != "paragraph" or not lines[j].lstrip().startswith("|")):
                j += 1
            yield kind, lines[i:j]
            i = j


def markdown_to_html(text: str, base: Path, title: str) -> str:
    """Convert the report's Markdown to one self-contained HTML page."""
    body = []
    for kind, lines in _blocks(text):
        if kind == "code":
            body.append(f"<pre><code>{html.escape(chr(10).join(lines))}</code></pre>")
        elif kind == "heading":
            level = len(lines[0]) - len(lines[0].lstrip("#"))
            body.append(f"<h{level}>{_inline(lines[0][level:].strip(), base)}</h{level}>")
        elif kind == "table":
            body.append(_table(lines, base))
        elif kind == "list":
            items = "".join(f"<li>{_inline(l.lstrip()[2:], base)}</li>" for l in lines)
            body.append(f"<ul>{items}</ul>")
        else:
            body.append(f"<p>{_inline(' '.join(lines), base)}</p>")
    return (f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title>"
            f"<style>{STYLE}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")
