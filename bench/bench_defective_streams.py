"""Data to fail of the plain ``rnglab test - --format u32`` and of PractRand on the streams of issue #30.

bench/c/defective_streams.c writes each kind of stream (seed 1); the same bytes go to
``rnglab test - --format u32`` (the plain command: the core battery until it fails, up to 64 MiB) and, when given
(``--practrand PATH`` or ``PRACTRAND_RNG_TEST``), to ``RNG_test stdin32 -tlmin 10 -tlmax 64MB`` (its data at the
first FAIL). Writes bench/results/defective_streams.md.

    python bench/bench_defective_streams.py --practrand /tmp/practrand/tools/RNG_test
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

from common import C_SOURCES, RESULTS, compile_c

#: The kinds of bench/c/defective_streams.c, the five of issue #30 item 1 first.
KINDS = ("xorshift64-low", "lcg48-mid", "lfib-add-24-55", "xorshift128p-low", "lcg32-top16-pairs", "xorshift32",
         "lcg32", "lcg64-low", "weyl-hash", "lcg128-top")
LIMIT = "64MB"


def piped(producer: list[str], consumer: list[str]) -> str:
    """``producer | consumer``: the consumer's output (the producer ends when the consumer stops reading)."""
    with subprocess.Popen(producer, stdout=subprocess.PIPE) as source:
        done = subprocess.run(consumer, stdin=source.stdout, capture_output=True, text=True, check=False,
                              env={**os.environ, "RNGLAB_PROGRESS": "0"})
        source.stdout.close()
        source.kill()
    return done.stdout


def rnglab_verdict(stream: Path, kind: str) -> str:
    last = piped([str(stream), kind], [sys.executable, "-m", "rnglab", "test", "-", "--format", "u32"])
    return last.strip().splitlines()[-1]


def practrand_verdict(binary: str, stream: Path, kind: str) -> str:
    """PractRand's data at its first FAIL (its ``length=`` line before the first FAIL), or that none came."""
    text = piped([str(stream), kind], [binary, "stdin32", "-tlmin", "10", "-tlmax", LIMIT])
    length = None
    for line in text.splitlines():
        found = re.search(r"length= (.*?) \(", line)
        if found:
            length = found.group(1)
        elif "FAIL" in line:
            return f"FAIL at {length}: {line.split()[0]}"
    return f"no FAIL up to {LIMIT}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--practrand", default=os.environ.get("PRACTRAND_RNG_TEST"), help="PractRand's RNG_test")
    arguments = parser.parse_args()
    stream = compile_c(C_SOURCES / "defective_streams.c")
    rows = []
    for kind in KINDS:
        theirs = practrand_verdict(arguments.practrand, stream, kind) if arguments.practrand else "not measured"
        rows.append(f"| `{kind}` | {rnglab_verdict(stream, kind)} | {theirs} |")
    text = ("# The plain `rnglab test - --format u32` and PractRand on the streams of issue #30\n\n"
            "bench/c/defective_streams.c, seed 1; rnglab's plain command runs the core battery until it fails, up "
            f"to 64 MiB; PractRand: `RNG_test stdin32 -tlmin 10 -tlmax {LIMIT}`. The first five are item 1 of the "
            "issue (the smoke battery passed them); `lcg128-top` is a good generator.\n\n"
            "| stream | rnglab | PractRand |\n|---|---|---|\n" + "\n".join(rows) + "\n")
    (RESULTS / "defective_streams.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
