"""Regenerate every figure of the documentation: ``python docs/make_figures.py``.

The pictures the pages show are made by rnglab itself, so that none drifts from what the program
draws: the audit pages of a broken and of a sound pipeline as a reader sees them in headless
Chromium (Debian's ``chromium``; without it the screenshots are left as they are, and the script
says so), the figures that ``--plot`` draws, and figures of ``rnglab report``'s sections. Each file is written to a temporary name and
moved into place, so an interrupted run leaves the previous figure whole.

Run it after a change to the audit's pages or to a plot, and commit the figures with the change.
The verdict card each screenshot shows is kept beside it in ``docs/figures/audit-cards.json``;
``tests/test_docs_examples.py`` (slow) runs the audits again and fails when a card has changed, so a
screenshot cannot go stale unnoticed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
FIGURES = DOCS / "figures"
#: Screenshot name -> the audit's argument (a named pipeline, or a TOML file of the repository).
AUDITS = {
    "audit-deitel-msvc.png": "deitel-msvc",
    "audit-pcg64-lemire-fisher-yates.png": str(ROOT / "tests" / "data" / "audit" / "sound.toml"),
}
#: Figure name under docs/figures -> the rnglab command that draws it (its --plot FILE appended).
PLOTS = {
    "spectral-randu.png": ["spectral", "randu"],
    "reduce-msvc-52.png": ["reduce", "msvc", "--n", "52"],
}
#: Figure name under docs/figures -> the report section (``rnglab.report.<module>``) that draws it under that name.
SECTION_FIGURES = {
    "deals-identity-rotations.png": "deals",
}
#: The verdict cards the screenshots show, by screenshot name.
CARDS = FIGURES / "audit-cards.json"
#: The window of the screenshots, as in tests/audit/test_browser.py.
WINDOW = "1280,760"


def rnglab(*arguments: str) -> subprocess.CompletedProcess:
    """Run the rnglab command line of this checkout (status 1, a FAIL verdict, is expected of some)."""
    environment = dict(os.environ, PYTHONPATH=str(ROOT), RNGLAB_PROGRESS="0")
    return subprocess.run([sys.executable, "-m", "rnglab", *arguments], env=environment,
                          capture_output=True, text=True, check=False)


def verdict_card(output: str) -> list[str]:
    """The card of an audit's output: the verdict line and the six graded lines."""
    return output.splitlines()[:7]


def move_into_place(made: Path, target: Path) -> None:
    """Replace ``target`` by ``made`` in one step (a file on the same file system)."""
    staged = target.with_name(f".{target.name}.new")
    shutil.copyfile(made, staged)
    os.replace(staged, target)


def screenshot(chromium: str, page: Path, picture: Path) -> None:
    subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    f"--window-size={WINDOW}", "--virtual-time-budget=5000", f"--screenshot={picture}",
                    page.as_uri()], capture_output=True, timeout=120, check=True)


def audit_screenshots(work: Path) -> list[str]:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        return ["chromium is not installed: the audit screenshots were left as they are"]
    written, cards = [], {}
    for name, target in AUDITS.items():
        folder = work / Path(name).stem
        run = rnglab("audit", target, "--out", str(folder), "--fail-on", "never")
        if run.returncode != 0:
            raise SystemExit(f"rnglab audit {target} exited with status {run.returncode}: {run.stderr}")
        screenshot(chromium, folder / "report.html", work / name)
        move_into_place(work / name, DOCS / name)
        cards[name] = verdict_card(run.stdout)
        written.append(f"docs/{name}")
    (work / CARDS.name).write_text(json.dumps(cards, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    move_into_place(work / CARDS.name, CARDS)
    return written + [f"docs/figures/{CARDS.name}"]


def plots(work: Path) -> list[str]:
    FIGURES.mkdir(exist_ok=True)
    written = []
    for name, command in PLOTS.items():
        run = rnglab(*command, "--plot", str(work / name))
        if run.returncode not in (0, 1):
            raise SystemExit(f"rnglab {' '.join(command)} exited with status {run.returncode}: {run.stderr}")
        move_into_place(work / name, FIGURES / name)
        written.append(f"docs/figures/{name}")
    return written


def section_figures(work: Path) -> list[str]:
    """The figures of the report's sections, drawn by the section itself (as ``rnglab report`` draws them)."""
    written = []
    for name, module in SECTION_FIGURES.items():
        script = (f"from pathlib import Path; from rnglab.report import ReportContext, {module}; "
                  f"{module}.section(ReportContext(Path({str(work)!r})))")
        run = subprocess.run([sys.executable, "-c", script], env=dict(os.environ, PYTHONPATH=str(ROOT)),
                             capture_output=True, text=True, check=False)
        if run.returncode != 0:
            raise SystemExit(f"the report section {module} exited with status {run.returncode}: {run.stderr}")
        move_into_place(work / "figures" / name, FIGURES / name)
        written.append(f"docs/figures/{name}")
    return written


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="rnglab-figures-") as folder:
        work = Path(folder)
        for line in plots(work) + section_figures(work) + audit_screenshots(work):
            print(line)


if __name__ == "__main__":
    main()
