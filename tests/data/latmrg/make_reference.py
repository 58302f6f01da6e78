"""Extract the reference tables in this folder from LatMRG's published result files.

Usage: python make_reference.py /path/to/LatMRG-git-dir [/path/to/latmrg_driver]

Reads, at LatMRG commit 0794c9ab871ba9eb0a323c6f8a220e7222ae643e
(github.com/pierrelecuyer/LatMRG, examples/results/), the first table after a header line
of each case, and writes ``coordinates<TAB>sqlen<TAB>merit`` exactly as LatMRG printed them
(sqlen with 6 significant digits, ``%g``, except where LatMRG printed more).

With the path of ``latmrg_driver`` (``latmrg_driver.cc`` here, built against LatMRG 0794c9a and
LatticeTester dbda694 and NTL 11: see its first lines), it also runs LatMRG itself on the cases of
:data:`DRIVER_CASES`, for which no result file is published, and writes their tables the same way.
"""

import subprocess
import sys

COMMIT = "0794c9ab871ba9eb0a323c6f8a220e7222ae643e"

#: (output file, result file, line after which the table starts, first dimension, last dimension)
CASES = [
    ("mrg32k3a_rogers.tsv", "TestMRG32k3a.res", "MRG32k3a, with BKZ+BB with default parameters", 4, 45),
    ("mrg32k3a_rogers_46_47.tsv", "TestMRG32k3a-Q50.res", "MRG32k3a, with BKZ+BB with default parameters", 46, 47),
    ("lcg_2p31m1_45991_bestlat.tsv", "TestLEC97.res", "An LCG with m = 2147483647 and a = 45991", 2, 12),
    ("lcg_2p30_1099087573_bestlat.tsv", "TestLEC97.res", "An LCG with m = 4294967296, a = 1099087573.", 2, 30),
    ("mrg63k3_bestlat.tsv", "TestLEC97.res", "An MRG with m = 9223372036854773561", 4, 12),
    ("lacunary_16807_131072_bestlat.tsv", "TestLEC97.res", "An LCG with m = 2147483647, a = 16807, lacunary", 2, 42),
    ("mrg101k3_dual_bestlat.tsv", "TestMLCG101.res", "Using MRGLattice, dual:", 4, 24),
]


#: (output file, driver arguments: m, normalisation, first and last dimension, a_1..a_k)
DRIVER_CASES = [
    ("lcg_1021_331_bestlat_latmrg.tsv", ["1021", "bestlat", "2", "16", "331"]),
    ("mrg31k3p_rogers_latmrg.tsv", ["4611640770946945613", "rogers", "4", "40", "4341088847531259234",
                                    "2349160800583431525", "3927818590467337243"]),
]


def table(text: str, header: str, first: int, last: int) -> list[tuple[str, str, str]]:
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header)) if header else 0
    rows = []
    for line in lines[start:]:
        if not line.startswith("{"):
            continue
        coordinates, rest = line.split("}", 1)
        fields = rest.split()
        t = len(coordinates.split(",")) if "..." not in coordinates else int(coordinates.split(",")[-1])
        if first <= t <= last:
            merit = fields[2] if len(fields) > 4 else fields[1]  # the -Q50 file prints no 1/len column
            rows.append((str(t), fields[0], merit))
        if t == last:
            return rows
    raise ValueError(f"table {header!r} ends before t = {last}")


def run_driver(driver: str) -> None:
    for output, arguments in DRIVER_CASES:
        text = subprocess.run([driver] + arguments, check=True, capture_output=True, text=True).stdout
        with open(output, "w") as handle:
            handle.write(f"# LatMRG {COMMIT[:10]} run by latmrg_driver " + " ".join(arguments) + "\n")
            handle.write("t\tsqlen\tmerit\n")
            handle.writelines("\t".join(row) + "\n" for row in table(text, "", int(arguments[2]), int(arguments[3])))


def main(git_dir: str) -> None:
    for output, source, header, first, last in CASES:
        text = subprocess.run(["git", "--git-dir", git_dir, "show", f"{COMMIT}:examples/results/{source}"],
                              check=True, capture_output=True, text=True).stdout
        with open(output, "w") as handle:
            handle.write(f"# LatMRG {COMMIT[:10]} examples/results/{source}: {header}\n")
            handle.write("t\tsqlen\tmerit\n")
            handle.writelines("\t".join(row) + "\n" for row in table(text, header, first, last))


if __name__ == "__main__":
    main(sys.argv[1])
    if len(sys.argv) > 2:
        run_driver(sys.argv[2])
