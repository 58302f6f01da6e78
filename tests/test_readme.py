"""The README's examples run and print what the README says, so the README cannot drift.

How to mark an example (any section; add yours the same way):

1. A shell block checked command by command: put ``<!-- check -->`` on the line before
   the opening fence of a ```` ```sh ```` block. Each line that starts with ``rnglab `` is run
   (a trailing ``# remark`` on it is a remark, not output), except a pipeline or a redirection
   (``|``, ``>``: shown, not run). The lines after a command that start with ``# `` are its
   expected output, without the ``# ``.
2. An output block: put ``<!-- check: rnglab CMD ARGS -->`` on the line before the
   opening fence of a ```` ```text ```` block; every line of the block is expected output of that command.

Expected lines must appear in the command's standard output in the order given (lines in
between may be left out of the README); runs of spaces compare equal, and ``...``
matches any text, so a nondeterministic part (a time, a rate) or the cut end of a
long line is written ``...``. Commands run in-process in a temporary folder (files they
write land there) and must exit with status 0 or 1 (a failing test battery); keep marked
examples to a few seconds each.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from rnglab.cli import main

README = Path(__file__).resolve().parent.parent / "README.md"
MARK = re.compile(r"<!--\s*check(?::\s*(?P<command>.+?))?\s*-->")


@dataclass
class Example:
    line: int                      # README line of the command
    command: str
    expected: list[str] = field(default_factory=list)


def readme_examples(text: str) -> list[Example]:
    """The marked examples of a README text, in order."""
    lines, examples = text.splitlines(), []
    for index, line in enumerate(lines):
        mark = MARK.fullmatch(line.strip())
        if not mark:
            continue
        if index + 1 >= len(lines) or not lines[index + 1].startswith("```"):
            raise ValueError(f"README line {index + 1}: a check mark must come right before a code fence")
        end = next(j for j in range(index + 2, len(lines)) if lines[j].startswith("```"))
        block, current = lines[index + 2:end], None
        if mark["command"]:
            examples.append(Example(index + 1, mark["command"], block))
            continue
        for offset, row in enumerate(block):
            if row.startswith("rnglab "):
                runnable = not {"|", ">", "<"} & set(shlex.split(row, comments=True))
                current = Example(index + 3 + offset, row) if runnable else None
                examples += [current] if current else []
            elif row.startswith("# ") and current is not None:
                current.expected.append(row[2:])
    return examples


def matches(pattern: str, line: str) -> bool:
    """``line`` equals ``pattern`` up to runs of spaces, ``...`` standing for any text."""
    parts = [re.escape(" ".join(part.split())) for part in pattern.split("...")]
    return re.fullmatch(r"\s*" + ".*".join(parts) + r"\s*", " ".join(line.split())) is not None


def missing_lines(expected: list[str], output: list[str]) -> list[str]:
    """The expected lines not found in order in ``output`` (empty when all are)."""
    position = 0
    for number, pattern in enumerate(expected):
        while position < len(output) and not matches(pattern, output[position]):
            position += 1
        if position == len(output):
            return expected[number:]
        position += 1
    return []


def arguments(command: str) -> list[str]:
    return shlex.split(command, comments=True)[1:]


EXAMPLES = readme_examples(README.read_text(encoding="utf-8"))


def test_the_readme_has_checked_examples():
    assert len(EXAMPLES) >= 10 and sum(bool(e.expected) for e in EXAMPLES) >= 8


@pytest.mark.parametrize("example", EXAMPLES, ids=[f"line {e.line}: {e.command}" for e in EXAMPLES])
def test_readme_example(example, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("RNGLAB_PROGRESS", "0")
    status = main(arguments(example.command))
    output = capsys.readouterr().out.splitlines()
    assert status in (0, 1), f"README line {example.line}: exit status {status}"
    assert missing_lines(example.expected, output) == [], f"README line {example.line}: output was\n" + \
        "\n".join(output)


def test_the_matcher():
    assert matches("a  b ... s (... per second)", "a b in 0.31 s (3.2 million per second)")
    assert not matches("candidates: 1", "candidates: 12")
    assert missing_lines(["x", "z"], ["x", "y", "z"]) == [] and missing_lines(["z", "x"], ["x", "y", "z"]) == ["x"]
    text = "<!-- check -->\n```sh\nrnglab gen msvc -n 2   # remark\n# 41\n# 18467\nrnglab stream x | y\n# z\n```\n" \
           "<!-- check: rnglab list -->\n```text\nmsvc ...\n```\n"
    assert [(e.command, e.expected) for e in readme_examples(text)] == [
        ("rnglab gen msvc -n 2   # remark", ["41", "18467"]), ("rnglab list", ["msvc ..."])]
