"""Every command shown in the README and on every page of docs/ runs and prints what the page says.

So the documentation cannot drift: a changed output fails this test, not a reader. How to write an
example (any page; ``docs/incoming/`` and the built site are left out):

1. A shell block checked command by command: put ``<!-- check -->`` on the line before the opening
   fence of a ```` ```sh ```` block. Each line that starts with ``rnglab `` is run (a trailing
   ``# remark`` on it is a remark, not output); the lines after it that start with ``# `` are its
   expected output, without the ``# ``. ``rnglab ... > FILE`` writes the command's standard output
   to FILE (for the next commands of the block); any other pipeline or redirection is refused in a
   checked block. A continued line (ending in ``\\``) is joined to the next.
2. An output block: put ``<!-- check: rnglab CMD ARGS -->`` on the line before the opening fence of
   a ```` ```text ```` block; every line of the block is expected output of that command.
3. A file the examples read: ``<!-- file: NAME -->`` before a fenced block writes the block's text to
   NAME in the folder where that page's examples run (``myshuffles.py`` of the shuffles guide).
4. A Python session: ``<!-- check -->`` before a ```` ```python ```` block of ``>>>`` lines runs it as a
   doctest (the printed values compared, ``...`` elided with ELLIPSIS, spaces normalised).
   A ```` ```python ```` block with no mark is a script: the page's scripts run in order, as one
   program in a fresh interpreter (so what they register stays out of the tests' process), in a
   temporary folder, and must neither raise nor print (a value worth showing goes in a checked
   ``>>>`` session, where it is compared).
5. Slow examples: ``<!-- check slow -->`` or ``<!-- check slow: rnglab ... -->`` (over a few seconds:
   an audit, a dask cluster); they run under ``python -m pytest -m slow``, as CI does.

Expected lines must appear in the command's output in the order given (lines in between may be
left out of the page); runs of spaces compare equal, and ``...`` matches any text, so the variable
part of a line (a time, a rate, a folder) or the cut end of a long line is written ``...``. Output
that starts with ``Error:`` is compared with standard error and the command must exit with status 2;
otherwise standard output followed by standard error (a verdict's exit-status line), or standard
error followed by standard output (a notice before the work), is compared and the status must be 0
or 1 (a FAIL verdict). Commands run
in-process in a temporary folder, those of one block in the same folder, in order.

A shell block that is not checked says why on the line before it: ``<!-- shown: REASON -->`` (it
needs a PractRand binary, a cluster, your own program); ``test_every_command_block_is_checked``
refuses a block with an ``rnglab`` command that has neither mark, and ``test_every_block_not_run_is_listed``
one that :data:`NOT_RUN` does not list with the reason it cannot run here (a long run is not one: show
it at a smaller size, or under ``<!-- check slow -->``).
"""

from __future__ import annotations

import io
import re
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from rnglab.cli import main
from rnglab.core import compiled

ROOT = Path(__file__).resolve().parent.parent
MARK = re.compile(r"<!--\s*(?P<kind>check(?:\s+slow)?|file|shown)(?::\s*(?P<argument>.+?))?\s*-->")


def pages() -> list[Path]:
    """The README and every Markdown page of the site (not docs/incoming, not the build)."""
    docs = sorted(path for path in (ROOT / "docs").rglob("*.md")
                  if not {"incoming", "_build"} & set(path.relative_to(ROOT / "docs").parts))
    return [ROOT / "README.md", *docs]


@dataclass
class Command:
    line: int                      # page line of the command
    text: str
    expected: list[str] = field(default_factory=list)


@dataclass
class Block:
    page: str
    line: int                      # page line of the opening fence
    slow: bool
    commands: list[Command]
    files: dict[str, str]          # the page's <!-- file: --> blocks, written before the commands run
    session: str = ""              # a Python block's ``>>>`` session, run as a doctest


def fenced(lines: list[str], mark_index: int) -> tuple[int, list[str]]:
    """The fence after the mark at ``mark_index``: (index of its opening line, its lines)."""
    if mark_index + 1 >= len(lines) or not lines[mark_index + 1].startswith("```"):
        raise ValueError(f"line {mark_index + 1}: a mark must come right before a code fence")
    end = next(j for j in range(mark_index + 2, len(lines)) if lines[j].startswith("```"))
    return mark_index + 1, lines[mark_index + 2:end]


def joined(rows: list[str], first_line: int) -> list[tuple[int, str]]:
    """(page line, row) with continued rows (a trailing backslash) joined to the next."""
    result, pending = [], None
    for offset, row in enumerate(rows):
        if pending is not None:
            pending = (pending[0], pending[1] + " " + row.strip())
        else:
            pending = (first_line + offset, row)
        if not pending[1].endswith("\\"):
            result.append(pending)
            pending = None
        else:
            pending = (pending[0], pending[1][:-1].rstrip())
    return result + ([pending] if pending else [])


def shell_commands(rows: list[str], first_line: int) -> list[Command]:
    """The ``rnglab`` commands of a checked shell block and the ``# `` lines after each."""
    commands, current = [], None
    for line, row in joined(rows, first_line):
        if row.startswith("rnglab "):
            current = Command(line, row)
            commands.append(current)
        elif row.startswith("# ") or row == "#":
            if current is None:
                raise ValueError(f"line {line}: expected output before any command")
            current.expected.append(row[2:])
    return commands


def page_blocks(text: str, page: str) -> list[Block]:
    """The checked blocks of one page, in order."""
    lines, blocks, files = text.splitlines(), [], {}
    for index, line in enumerate(lines):
        mark = MARK.fullmatch(line.strip())
        if not mark or mark["kind"] == "shown":
            continue
        start, rows = fenced(lines, index)
        if mark["kind"] == "file":
            files[mark["argument"]] = "\n".join(rows) + "\n"
            continue
        slow = mark["kind"].endswith("slow")
        if lines[start].strip() == "```python":
            blocks.append(Block(page, start + 1, slow, [], files, "\n".join(rows) + "\n"))
            continue
        if mark["argument"]:
            commands = [Command(index + 1, mark["argument"], rows)]
        else:
            commands = shell_commands(rows, start + 2)
        blocks.append(Block(page, start + 1, slow, commands, files))
    return blocks


def unmarked_command_blocks(text: str) -> list[int]:
    """Lines of the shell blocks with an ``rnglab`` command and no check or shown mark before them."""
    lines, found, inside = text.splitlines(), [], False
    for index, line in enumerate(lines):
        if line.startswith("```"):
            if not inside and line.strip() in ("```sh", "```bash", "```console", "```shell"):
                end = next(j for j in range(index + 1, len(lines)) if lines[j].startswith("```"))
                has_command = any(row.lstrip().startswith("rnglab ") for row in lines[index + 1:end])
                marked = index > 0 and MARK.fullmatch(lines[index - 1].strip()) is not None
                if has_command and not marked:
                    found.append(index + 1)
            inside = not inside
    return found


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


def split_redirection(text: str) -> tuple[list[str], str | None]:
    """The arguments of a command line (after ``rnglab``) and the file its ``> FILE`` names, if any."""
    words = shlex.split(text, comments=True)
    if {"|", "<", ">>", "2>"} & set(words) or words.count(">") > 1:
        raise ValueError(f"a checked command runs rnglab alone (or with one '> FILE'): {text}")
    if ">" in words:
        at = words.index(">")
        if at != len(words) - 2:
            raise ValueError(f"'> FILE' must end the command: {text}")
        return words[1:at], words[-1]
    return words[1:], None


def run(arguments: list[str]) -> tuple[int, bytes, str]:
    """Run ``rnglab ARGUMENTS`` in-process: (exit status, standard output bytes, standard error)."""
    out, err = io.BytesIO(), io.StringIO()
    text = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = text, err
    try:
        status = main(arguments)
    finally:
        sys.stdout, sys.stderr = saved
        text.flush()
        text.detach()              # keep the bytes: closing the wrapper would close them
    return status, out.getvalue(), err.getvalue()


def check_command(block: Block, command: Command) -> None:
    arguments, target = split_redirection(command.text)
    status, output, errors = run(arguments)
    where = f"{block.page} line {command.line}: {command.text}"
    if target is not None:
        Path(target).write_bytes(output)
    if command.expected and command.expected[0].startswith("Error:"):
        assert status == 2, f"{where}: exit status {status}, not 2\n{errors}"
        shown = errors.splitlines()
    else:
        assert status in (0, 1), f"{where}: exit status {status}\n{errors}"
        out = output.decode("utf-8", errors="replace").splitlines()
        shown = out + errors.splitlines()
        if missing_lines(command.expected, shown):          # a notice on standard error may come first
            shown = errors.splitlines() + out
    assert missing_lines(command.expected, shown) == [], f"{where}: output was\n" + "\n".join(shown)


BLOCKS = [block for page in pages()
          for block in page_blocks(page.read_text(encoding="utf-8"), str(page.relative_to(ROOT)))]


def block_parameters():
    for block in BLOCKS:
        marks = [pytest.mark.slow] if block.slow else []
        first = block.commands[0].text if block.commands else block.session.splitlines()[0]
        label = f"{block.page}:{block.line}: {first}"
        yield pytest.param(block, marks=marks, id=label)


@pytest.mark.parametrize("block", block_parameters())
def test_documented_example(block, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("RNGLAB_PROGRESS", "0")
    for name, text in block.files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    for command in block.commands:  # each as a reader runs it: a new process, where no kernel has run yet
        monkeypatch.setattr(compiled, "_started", False)
        monkeypatch.setattr(compiled, "_numpy_work", 0)
        check_command(block, command)
    if block.session:
        run_session(block)


def run_session(block: Block) -> None:
    """Run a page's ``>>>`` session as a doctest; every printed value must match."""
    import doctest

    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    test = doctest.DocTestParser().get_doctest(block.session, {}, f"{block.page}:{block.line}", block.page, block.line)
    assert test.examples, f"{block.page} line {block.line}: a checked Python block needs >>> lines"
    output = io.StringIO()
    result = doctest.DocTestRunner(optionflags=flags).run(test, out=output.write)
    assert result.failed == 0, output.getvalue()


@dataclass
class Script:
    page: str
    line: int                      # page line of the block's first row
    code: str


def script_blocks(text: str, page: str) -> list[Script]:
    """The page's ```` ```python ```` blocks with no mark before them (its scripts), in order."""
    lines, found, index = text.splitlines(), [], 0
    while index < len(lines):
        if lines[index].startswith("```"):
            end = next(j for j in range(index + 1, len(lines)) if lines[j].startswith("```"))
            marked = index > 0 and MARK.fullmatch(lines[index - 1].strip()) is not None
            if lines[index].strip() == "```python" and not marked:
                found.append(Script(page, index + 2, "\n".join(lines[index + 1:end]) + "\n"))
            index = end
        index += 1
    return found


#: Runs the scripts given as JSON on standard input in one namespace, each compiled under its page's name
#: and line numbers, so that a traceback points into the page.
SCRIPT_RUNNER = """
import json, sys
namespace = {"__name__": "__main__"}
for page, line, code in json.load(sys.stdin):
    exec(compile("\\n" * (line - 1) + code, page, "exec"), namespace)
"""


def run_scripts(scripts: list[Script], folder: Path) -> None:
    """Run ``scripts`` in order as one program in a fresh interpreter in ``folder``; they must not raise or print."""
    import json
    import os
    import subprocess

    environment = {**os.environ, "RNGLAB_PROGRESS": "0",
                   "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", SCRIPT_RUNNER], check=False, cwd=folder, env=environment, capture_output=True,
                          text=True, input=json.dumps([[script.page, script.line, script.code] for script in scripts]))
    where = ", ".join(f"{script.page} line {script.line}" for script in scripts)
    assert done.returncode == 0, f"{where}: the script raised\n{done.stderr}"
    assert done.stdout == "", f"{where}: a script printed (show it in a checked >>> session instead)\n{done.stdout}"


SCRIPTS = {str(page.relative_to(ROOT)): script_blocks(page.read_text(encoding="utf-8"), str(page.relative_to(ROOT)))
           for page in pages()}


@pytest.mark.parametrize("page", sorted(page for page, scripts in SCRIPTS.items() if scripts))
def test_python_scripts_run(page, tmp_path):
    run_scripts(SCRIPTS[page], tmp_path)


def test_the_script_runner():
    text = ("<!-- file: a.py -->\n```python\nx = 1\n```\n<!-- check -->\n```python\n>>> 1\n1\n```\n"
            "```python\ny = 2\n```\n```sh\nls\n```\n```python\nassert y == 2\n```\n")
    scripts = script_blocks(text, "page.md")
    assert [(script.line, script.code) for script in scripts] == [(11, "y = 2\n"), (17, "assert y == 2\n")]
    run_scripts(scripts, ROOT)
    with pytest.raises(AssertionError, match=r"page.md line 3: the script raised(.|\n)*\"page.md\", line 4"):
        run_scripts([Script("page.md", 3, "z = 1\nundefined_name\n")], ROOT)
    with pytest.raises(AssertionError, match="printed"):
        run_scripts([Script("page.md", 1, "print(1)\n")], ROOT)


@pytest.mark.parametrize("page", pages(), ids=lambda page: str(page.relative_to(ROOT)))
def test_every_command_block_is_checked(page):
    assert unmarked_command_blocks(page.read_text(encoding="utf-8")) == [], \
        f"{page.relative_to(ROOT)}: shell blocks with rnglab commands and neither <!-- check --> nor <!-- shown: why -->"


#: The blocks shown and not run, (page, how the block's first line starts) -> why no test can run them. Every other
#: block with an rnglab command is run: a long one at a smaller size that shows the same, or under check slow.
NOT_RUN = {
    ("docs/guides/testing.md", "mygame --dump-rng |"): "the stream comes from the reader's own program",
    ("docs/guides/testing.md", "python tests/data/smallcrush/streams.py lfib |"):
        "a pipe of 907 MB from a reference program; tests/empirical/test_smallcrush_testu01.py checks its figures",
    ("docs/guides/testing.md", "rnglab stream randu | dieharder"):
        "pipes into dieharder, PractRand's RNG_test, xxd or a TestU01 driver, none of them a dependency",
    ("docs/guides/cluster.md", "rnglab crack java --seeds 0..2^40-1"): "needs a dask scheduler at that address",
    ("docs/guides/cluster.md", "rnglab test randu --until-fail --max-bytes 1GiB --seeds 1..64 --cluster"):
        "needs a dask scheduler at that address",
}


def shown_blocks(text: str) -> list[str]:
    """The first line of every block marked ``<!-- shown: ... -->`` (run by no test)."""
    lines = text.splitlines()
    return [fenced(lines, index)[1][0] for index, line in enumerate(lines)
            if (mark := MARK.fullmatch(line.strip())) and mark["kind"] == "shown"]


def test_every_block_not_run_is_listed():
    """Each block shown and not run is one entry of NOT_RUN, and each entry one such block."""
    shown = [(str(page.relative_to(ROOT)), first) for page in pages()
             for first in shown_blocks(page.read_text(encoding="utf-8"))]
    listed = {block: [entry for entry in NOT_RUN if entry[0] == block[0] and block[1].startswith(entry[1])]
              for block in shown}
    assert [block for block, entries in listed.items() if len(entries) != 1] == [], \
        "a block shown but not run needs its reason in NOT_RUN (or run it)"
    assert sorted(entry for entries in listed.values() for entry in entries) == sorted(NOT_RUN)


#: The examples of ``--help`` (rnglab.cli.examples.EXAMPLES, shown in the CLI reference) that are not run, and why.
HELP_NOT_RUN = {
    "rnglab stream randu | RNG_test stdin32": "pipes into PractRand's RNG_test, not a dependency",
    "rnglab stream java --word 64 --low-bits 8 | dieharder -a -g 200": "pipes into dieharder, not a dependency",
    "rnglab report --out rnglab-report --force": "the full report, minutes of CPU; its --quick example runs",
}


def help_examples() -> list[str]:
    from rnglab.cli.examples import EXAMPLES

    return [line for lines in EXAMPLES.values() for line in lines]


@pytest.mark.slow
@pytest.mark.parametrize("line", [line for line in help_examples() if line not in HELP_NOT_RUN])
def test_help_example_runs(line, tmp_path, monkeypatch):
    """Each example that ``--help`` shows runs as written and ends with a verdict (status 0 or 1), not an error;
    the audit guide's my-game.toml is at hand for the example that reads it."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("RNGLAB_PROGRESS", "0")
    for block in BLOCKS:
        for name, text in block.files.items():
            if block.page == "docs/guides/audit.md":
                (tmp_path / name).write_text(text, encoding="utf-8")
    arguments, target = split_redirection(line)
    status, output, errors = run(arguments)
    assert status in (0, 1), f"{line}: exit status {status}\n{errors}"
    if target is not None:
        assert output, f"{line}: wrote nothing to {target}"


def test_help_not_run_lists_examples_that_exist():
    assert set(HELP_NOT_RUN) <= set(help_examples())


def test_the_pages_have_checked_examples():
    assert sum(len(block.commands) for block in BLOCKS) >= 40
    assert {block.page for block in BLOCKS} >= {"README.md", "docs/guides/testing.md", "docs/guides/recovery.md"}


def test_the_matcher():
    assert matches("a  b ... s (... per second)", "a b in 0.31 s (3.2 million per second)")
    assert not matches("candidates: 1", "candidates: 12")
    assert missing_lines(["x", "z"], ["x", "y", "z"]) == [] and missing_lines(["z", "x"], ["x", "y", "z"]) == ["x"]


def test_the_parser():
    text = ("<!-- file: a.py -->\n```python\nx = 1\n```\n"
            "<!-- check -->\n```sh\nrnglab gen msvc -n 2   # remark\n# 41\n# 18467\n"
            "rnglab stream msvc --bytes 8 > w.bin\nrnglab test w.bin \\\n  --format u32\n# z\n```\n"
            "<!-- check slow: rnglab list -->\n```text\nmsvc ...\n```\n"
            "<!-- shown: needs PractRand -->\n```sh\nrnglab stream x | RNG_test stdin32\n```\n"
            "```sh\nrnglab gen msvc\n```\n")
    blocks = page_blocks(text, "page.md")
    assert [(c.line, c.text, c.expected) for c in blocks[0].commands] == [
        (7, "rnglab gen msvc -n 2   # remark", ["41", "18467"]), (10, "rnglab stream msvc --bytes 8 > w.bin", []),
        (11, "rnglab test w.bin --format u32", ["z"])]
    assert blocks[0].files == {"a.py": "x = 1\n"} and not blocks[0].slow
    assert blocks[1].slow and [(c.text, c.expected) for c in blocks[1].commands] == [("rnglab list", ["msvc ..."])]
    assert unmarked_command_blocks(text) == [23]
    assert split_redirection("rnglab stream msvc > w.bin  # words") == (["stream", "msvc"], "w.bin")
    with pytest.raises(ValueError, match="alone"):
        split_redirection("rnglab stream msvc | head")


PATH_NAME = re.compile(r"(?<![\w./-])((?:rnglab|tests|bench|docs)/[\w./*-]*\w)")
FILE_TYPES = {"md", "html", "json", "png", "toml", "py", "txt"}      # report.html is a file, not a name
PACKAGES = sorted(path.parent.name for path in (ROOT / "rnglab").glob("*/__init__.py"))
DOTTED_NAME = re.compile(r"`((?:rnglab\.)?(?:" + "|".join(PACKAGES) + r")(?:\.\w+)+)")


def resolves(dotted: str) -> bool:
    """Whether ``rnglab.a.b.c`` names a module, or an attribute of the longest module prefix."""
    import importlib

    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            value = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for part in parts[cut:]:
            if not hasattr(value, part):
                return False
            value = getattr(value, part)
        return True
    return False


@pytest.mark.parametrize("page", pages(), ids=lambda page: str(page.relative_to(ROOT)))
def test_named_files_and_objects_exist(page):
    """Every file path (``rnglab/draws/bias.py``) and every ``rnglab.x.y`` a page names exists."""
    text = page.read_text(encoding="utf-8")
    missing = sorted({path for path in PATH_NAME.findall(text)
                      if not path.startswith("docs/_build") and not list(ROOT.glob(path.rstrip(".")))})  # built later
    unresolved = sorted({name for name in DOTTED_NAME.findall(text) if name.rsplit(".", 1)[1] not in FILE_TYPES
                         and not resolves(name if name.startswith("rnglab.") else "rnglab." + name)})
    assert (missing, unresolved) == ([], []), f"{page.relative_to(ROOT)} names what does not exist"


def test_the_architecture_page_lists_the_layers_in_order():
    """The package table of docs/architecture.md is tests/test_architecture.py's order of layers."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("architecture", ROOT / "tests" / "test_architecture.py")
    architecture = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(architecture)
    lines = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8").splitlines()
    start = lines.index("<!-- layers -->")
    rows = [line for line in lines[start + 3:] if line.startswith("| `")]
    rows = rows[:next((i for i, row in enumerate(rows[1:], 1) if not row.startswith("| `rnglab.")), len(rows))]
    listed = [re.match(r"\| `([\w.]+)`", row)[1] for row in rows]
    assert listed == [name for name in architecture.LAYERS if name.count(".") == 1 and "__" not in name
                      and name != "rnglab.console"]



# -- no figure typed that a program prints (issue #33) ------------------------------------------------------------

#: A quantity of memory or of time in a page's prose: a measurement, which goes stale with the next run unless it
#: comes from a benchmark's table (an ``{include}``) or from a checked example. Durations spelled out count too
#: ("two minutes", "the one-second battery").
SPELLED = r"(?:one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|half an?|a half)"
MEASURED = re.compile(r"(?<![\w.^])\d[\d,.]*\s?(?:[KMGTP]iB|[kKMGTP]B|ms|us|µs|ns|s of CPU|CPU s|CPU seconds"
                      r"|s of processor time|minutes of CPU)\b"
                      r"|\b" + SPELLED + r"[ -](?:(?:CPU |processor )?(?:seconds?|minutes?|hours?|milliseconds?))\b",
                      re.IGNORECASE)
FENCED = re.compile(r"^(```|~~~).*?^\1[ \t]*$", re.DOTALL | re.MULTILINE)
INLINE_CODE = re.compile(r"`[^`\n]*`")


def defined_quantities() -> dict[str, dict[str, int | None]]:
    """Quantities that are definitions, not measurements, by page: figure -> the value in bytes that the code states
    (checked against it, so a changed constant fails here), or None for a setting that is not rnglab's."""
    import inspect

    from rnglab.cli.test import PLAIN_BUDGET, UNTIL_FAIL_BUDGET
    from rnglab.empirical.until_fail import LEAST_INPUT_BYTES, stage_bytes, stages
    from rnglab.report.battery import CAP, QUICK_CAP
    from rnglab.shuffles.sandbox import Limits

    start = inspect.signature(stages).parameters["start_bytes"].default
    first, second, third = list(stage_bytes(start, 4 * start))[:3]
    return {
        "docs/guides/testing.md": {"1 KiB": first, "2 KiB": second, "4 KiB": third,   # --until-fail's stages
                                   "64 MiB": PLAIN_BUDGET, "1 TiB": UNTIL_FAIL_BUDGET,
                                   "6 MiB": 6 * 2**20},                               # `--max-bytes 6MiB`, an example
        "docs/guides/audit.md": {"8 MiB": CAP, "512 KiB": QUICK_CAP},
        "docs/guides/cluster.md": {"10 ms": None},                                     # dask's profiler interval
        "docs/guides/shuffles.md": {"two-minute": None},                               # a window of ±60 s
        "docs/errors.md": {"4 GiB": 4 << 30, "2 GiB": Limits().memory_bytes, "1 MiB": LEAST_INPUT_BYTES,
                           "half a second": None},                 # rnglab.shuffles.paths.BATCH_SECONDS, a setting
    }


def measured_figures(text: str) -> list[str]:
    """The quantities of memory or time in ``text`` outside code blocks, included files and inline code."""
    prose = INLINE_CODE.sub("", FENCED.sub("", text))
    return [" ".join(found.split()) for found in MEASURED.findall(prose)]


@pytest.mark.parametrize("page", pages(), ids=lambda page: str(page.relative_to(ROOT)))
def test_no_measured_figure_is_typed_into_prose(page):
    name = str(page.relative_to(ROOT))
    typed = [figure for figure in measured_figures(page.read_text(encoding="utf-8"))
             if figure not in defined_quantities().get(name, {})]
    assert typed == [], f"{name}: include the benchmark's table or show a checked example instead of typing {typed}"


def test_the_defined_quantities_are_the_code_s():
    """A figure let through as a definition is the value its constant has now (the --until-fail stages, the caps)."""
    from rnglab.core.params import human_bytes

    stated = {(page, figure): human_bytes(value) for page, figures in defined_quantities().items()
              for figure, value in figures.items() if value is not None}
    assert {key: shown for key, shown in stated.items() if shown != key[1]} == {}
    assert all(figure in measured_figures((ROOT / page).read_text(encoding="utf-8"))
               for page, figures in defined_quantities().items() for figure in figures), "an entry no page needs"


def test_measured_figures_are_found_in_prose_only():
    text = ("It held 4.4 GB, took 7.3 s of CPU and 38.5 ms,\nthen 60\nMiB; `--max-bytes 6MiB` and 2^20 KiB are not "
            "figures.\n\n```{include} ../../bench/results/memory.md\n```\n\n```sh\nrnglab x\n# 17 MiB\n```\n")
    assert measured_figures(text) == ["4.4 GB", "7.3 s of CPU", "38.5 ms", "60 MiB"]
    assert measured_figures("It took two minutes, the one-second battery; one core, a few minutes.") == [
        "two minutes", "one-second"]


#: A number in prose that reads like a program's output: a decimal of two significant digits or more, or one in
#: scientific notation with a decimal point (0.0095, 3.553e-10); not a time of day (10:23:45.678). Integers and
#: percentages are left out: limits, sizes and constants would be most of them.
PRINTED_LIKE = re.compile(r"(?<![\w.^/:-])(\d+\.\d+(?:e[-+]?\d+)?)(?![\w^.]|\.\d)")
#: Words before a number that make it a version or a reference, not a result (TestU01 1.2.3, Table 2.1).
NAMED_BEFORE = re.compile(r"(?:TestU01|glibc|node|V8|CPython|Python|numpy|OpenJDK|g\+\+|PractRand|Table|Theorem"
                          r"|SP 800-22|CFR|V8 [\d.]+ to|V8 from)\s*$")
#: Output-like numbers a page's prose may hold that no example on the page prints, and where each comes from.
NOT_PRINTED_HERE = {
    "docs/guides/cluster.md": {"1.1": "volunteers' published Minecraft seed-search rates, cited"},
    "docs/guides/recovery.md": {"88.4": "19937 / log2 52!, the formula beside it", "225.6": "log2 52!, stated",
                                "55.4": "log2(52! / 42!), the bits of ten cards", "51.7": "20 log2 6, twenty dice",
                                "1.5": "an estimate said so: about 130 decks against the 88.4-deck floor"},
    "docs/guides/shuffles.md": {"16.4": "log2 86,400, the seconds of a day"},
    "docs/guides/spectral.md": {"3.3": "Sorenson and Webster's bound 3.3·10^24, cited",
                                "0.622503": "LatMRG's published M_45 (tests/algebra/test_mrg_spectral.py)",
                                "0.21911": "LatMRG's guide (tests/algebra/test_mrg_spectral.py)",
                                "0.2185": "LatMRG's guide (tests/algebra/test_mrg_spectral.py)"},
    "docs/guides/testing.md": {"0.730095": "TestU01's report (tests/data/testu01/smallcrush.toml)"},
}


def printed_like_figures(text: str) -> list[str]:
    """The numbers of ``text``'s prose that read like a program's output (code, inline code, versions left out)."""
    prose = INLINE_CODE.sub("", FENCED.sub("", text))
    return [found[1] for found in PRINTED_LIKE.finditer(prose)
            if ("e" in found[1] or len(found[1].replace(".", "").lstrip("0")) >= 2)
            and not NAMED_BEFORE.search(prose[max(0, found.start() - 30):found.start()])]


def checked_output(page: str) -> str:
    """Every expected output line of the page's checked examples, commands and Python sessions, as one text."""
    return "\n".join([line for block in BLOCKS if block.page == page for command in block.commands
                      for line in command.expected] + [block.session for block in BLOCKS if block.page == page])


@pytest.mark.parametrize("page", pages(), ids=lambda page: str(page.relative_to(ROOT)))
def test_a_figure_in_prose_is_printed_by_an_example_on_the_page(page):
    """A result copied into prose must be in the output of a checked example on the same page: when the output
    changes, the example is updated and the copy no longer matches, so it fails here instead of going stale."""
    name = str(page.relative_to(ROOT))
    figures = printed_like_figures(page.read_text(encoding="utf-8"))
    allowed = NOT_PRINTED_HERE.get(name, {})
    copied = [figure for figure in figures if figure not in checked_output(name) and figure not in allowed]
    assert copied == [], f"{name}: show the example that prints {copied} (checked), derive them, or remove them"
    assert sorted(set(allowed) - set(figures)) == [], f"{name}: NOT_PRINTED_HERE lists figures the page no longer has"


def test_printed_like_figures():
    text = ("TV 0.0095 at n = 30, 3.553e-10, 2.3e-22, a 2.5 s budget, TestU01 1.2.3, V8 4.9 to 7.0, Table 2.1, "
            "at 10:23:45.678, 0.5, 4,003, `0.658` and\n```sh\n# 0.931\n```\n")
    assert printed_like_figures(text) == ["0.0095", "3.553e-10", "2.3e-22", "2.5"]


def measured_parts_masked(card: list[str]) -> list[str]:
    """An audit's verdict card with the brute-force time written ``...`` (a measurement when the screenshots were
    made, counted now: the states at a fixed cost per seed)."""
    return [re.sub(r"every seed tried in .* on one core", "every seed tried in ... on one core", line) for line in card]


@pytest.mark.slow
@pytest.mark.parametrize("screenshot", ["audit-deitel-msvc.png", "audit-pcg64-lemire-fisher-yates.png"])
def test_the_audit_screenshots_show_the_current_card(screenshot, tmp_path, monkeypatch):
    """docs/make_figures.py keeps the card each screenshot shows; the audit must still print it."""
    import importlib.util
    import json

    spec = importlib.util.spec_from_file_location("make_figures", ROOT / "docs" / "make_figures.py")
    figures = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(figures)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("RNGLAB_PROGRESS", "0")
    status, output, errors = run(["audit", figures.AUDITS[screenshot], "--out", "audit", "--fail-on", "never"])
    assert status == 0, errors
    shown = json.loads(figures.CARDS.read_text(encoding="utf-8"))[screenshot]
    assert measured_parts_masked(figures.verdict_card(output.decode())) == measured_parts_masked(shown), \
        f"docs/{screenshot} shows an old card: run python docs/make_figures.py"


def calibrated_entries(text: str) -> dict[str, set[int]]:
    """Battery -> the entry counts its calibration table lists (``### `small` `` then rows ``| R | entries |``)."""
    counts, battery = {}, None
    for line in text.splitlines():
        heading = re.fullmatch(r"### `([\w-]+)`", line.strip())
        if heading:
            battery = heading[1]
        elif battery and re.match(r"\| [\w^*+-]+ \| \d+ \|", line):
            counts.setdefault(battery, set()).add(int(line.split("|")[2]))
    return counts


def test_the_included_calibration_is_of_the_current_batteries():
    """The validation page includes bench/results/calibration.md: its batteries must be today's."""
    from rnglab.empirical.battery import get_battery

    listed = calibrated_entries((ROOT / "bench" / "results" / "calibration.md").read_text(encoding="utf-8"))
    assert listed == {name: {len(get_battery(name).entries)} for name in listed}


def test_calibrated_entries_reads_the_table():
    text = "### `smoke`\n\n| R | entries |\n|---|---|\n| 2^15 | 14 | 100 |\n| 3*2^30 | 14 | 100 |\n### `small`\n| 2^64 | 19 | 2 |\n"
    assert calibrated_entries(text) == {"smoke": {14}, "small": {19}}


def test_a_python_session_is_run_as_a_doctest():
    text = "<!-- check -->\n```python\n>>> 1 + 1\n2\n```\n"
    block, = page_blocks(text, "page.md")
    run_session(block)
    block.session = ">>> 1 + 1\n3\n"
    with pytest.raises(AssertionError, match="Expected"):
        run_session(block)


def inline_commands(text: str) -> list[str]:
    """The ``rnglab ...`` commands a page shows in running text or tables (in single backticks)."""
    return re.findall(r"(?<!`)`(rnglab [^`]+)`(?!`)", text)


def shown_by_a_check(command: str, checked: list[str]) -> bool:
    """Whether a checked command starts like ``command``, its upper-case words (GEN, N, FILE.py:NAME) any word."""
    pattern = r"\s+".join(r"\S+" if re.fullmatch(r"[A-Z][A-Z0-9_]*(?:\.py:[A-Z]+)?", word) else re.escape(word)
                          for word in command.split())
    return any(re.match(pattern + r"(\s|$)", text) for text in checked)


def test_the_readme_table_commands_are_run_by_a_checked_example():
    """Each command of the README's question table is the start of an example that the tests run."""
    checked = [" ".join(command.text.split("#")[0].split()) for block in BLOCKS for command in block.commands]
    table = [line for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines() if line.startswith("| ")]
    unchecked = [command for line in table for command in inline_commands(line) if not shown_by_a_check(command, checked)]
    assert unchecked == []


def test_shown_by_a_check():
    assert shown_by_a_check("rnglab reduce GEN --n N", ["rnglab reduce msvc --n 52"])
    assert shown_by_a_check("rnglab fairness --function FILE.py:NAME --n N", ["rnglab fairness --function my.py:f --n 3"])
    assert not shown_by_a_check("rnglab reduce GEN --n N", ["rnglab reduce msvc --range 52"])


def documented_examples() -> dict[str, str]:
    """Public name -> its docstring, for the public names of rnglab whose docstring has ``>>>`` examples."""
    import inspect

    import rnglab

    docstrings = {name: inspect.getdoc(getattr(rnglab, name)) or "" for name in rnglab.__all__
                  if inspect.isclass(getattr(rnglab, name)) or callable(getattr(rnglab, name))}
    return {name: text for name, text in docstrings.items() if ">>>" in text}


@pytest.mark.parametrize("name", sorted(documented_examples()))
def test_the_api_examples_run(name):
    """The Examples of every public name's docstring (the API reference shows them) print what they say.

    As numpydoc's convention has it, an example sees the names of the module that defines the object."""
    import doctest

    import rnglab

    value = getattr(rnglab, name)
    names = dict(vars(sys.modules[value.__module__]))
    test = doctest.DocTestParser().get_doctest(documented_examples()[name], names, f"rnglab.{name}", None, 0)
    output = io.StringIO()
    result = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE).run(test, out=output.write)
    assert result.failed == 0, output.getvalue()


def test_the_key_entry_points_have_examples():
    assert {"LCG", "bias", "catalog", "lcg_period", "make_source", "shuffle"} <= set(documented_examples())


def test_every_public_name_is_documented():
    # The API reference is built from these docstrings: a public name without one is a blank entry there.
    import inspect

    import rnglab

    undocumented = [name for name in rnglab.__all__ if len((inspect.getdoc(getattr(rnglab, name)) or "").split()) < 5]
    assert undocumented == []
