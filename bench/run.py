"""Run every benchmark (``bench/bench_*.py``) and assemble ``bench/RESULTS.md``.

Usage: ``python bench/run.py [TOPIC ...] [--full]`` (topics are the file names
without ``bench_``; default: all). ``--full`` is passed to the benchmarks that
take it (reduce: 10^8 draws per call instead of 10^7; crack: all 2^32 seeds).
Each benchmark writes ``bench/results/<topic>.md``; this script concatenates
the fragments in a fixed order.
"""

from __future__ import annotations

import importlib.util
import inspect
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def load(path: Path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(HERE))
    spec.loader.exec_module(module)
    return module


def assemble() -> Path:
    """Concatenate every fragment in bench/results/ into bench/RESULTS.md."""
    fragments = sorted((HERE / "results").glob("*.md"))
    text = ("# rnglab benchmark results\n\nProduced by `python bench/run.py`; each section is written by one "
            "benchmark, which measures rnglab side by side with a reference in the same run and reports "
            "ratios (the machine is shared and noisy, so absolute times mean little).\n\n")
    text += "\n".join(path.read_text() for path in fragments)
    target = HERE / "RESULTS.md"
    target.write_text(text)
    return target


def main(arguments: list[str]) -> None:
    flags = [a for a in arguments if a.startswith("--")]
    topics = [a for a in arguments if not a.startswith("--")]
    scripts = sorted(HERE.glob("bench_*.py"))
    chosen = [s for s in scripts if not topics or s.stem.removeprefix("bench_") in topics]
    for script in chosen:
        print(f"== {script.stem}", flush=True)
        benchmark = load(script).main
        if inspect.signature(benchmark).parameters:
            benchmark(flags)
        else:
            benchmark()
    print(f"wrote {assemble()}")


if __name__ == "__main__":
    main(sys.argv[1:])
