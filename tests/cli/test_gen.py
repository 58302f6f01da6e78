"""``rnglab gen`` (rnglab.cli.gen): the first outputs of a generator, against published sequences.

Known answers: MSVC's ``rand()`` without ``srand`` (41 18467 6334 26500 19169); ``new java.util.Random(42)``'s
``nextInt()`` -1170105035, 234785527, -1360544799 (as unsigned 32-bit words); Park and Miller's MINSTD from 1
(16807, 282475249, 1622650073); L'Ecuyer's RngStreams MRG32k3a from 12345 x 6, whose first ``U01`` is
0.127011122046577 (its published example output).
"""

import json

import pytest
from cli_runs import run


@pytest.mark.parametrize("args, expected", [
    (["gen", "msvc", "-n", "5"], [41, 18467, 6334, 26500, 19169]),
    (["gen", "java", "--seed", "42", "-n", "3"], [-1170105035 + 2**32, 234785527, -1360544799 + 2**32]),
    (["gen", "minstd", "--seed", "1", "-n", "3"], [16807, 282475249, 1622650073]),
    (["gen", "--a", "16807", "--m", "2^31-1", "--seed", "1", "-n", "3"], [16807, 282475249, 1622650073]),
])
def test_published_sequences(args, expected, capsys):
    status, out, _ = run(args, capsys)
    assert status == 0 and [int(v) for v in out.split()] == expected


def test_uniform_prints_the_reference_double(capsys):
    status, out, _ = run(["gen", "mrg32k3a", "-n", "1", "--uniform"], capsys)
    assert status == 0 and out.split() == ["0.12701112204657714"]
    assert float(out) == pytest.approx(0.127011122046577, abs=1e-15)


def test_json_names_the_seed_and_range(capsys):
    status, out, _ = run(["gen", "randu", "-n", "3", "--json"], capsys)
    assert status == 0 and json.loads(out) == {"generator": "randu", "seed": 1, "low": 0, "high": 2**31 - 1,
                                               "values": [65539, 393225, 1769499]}


def test_a_seed_outside_the_convention_is_one_line_and_status_2(capsys):
    status, out, err = run(["gen", "msvc", "--seed", "-1"], capsys)
    assert status == 2 and out == "" and err.startswith("Error: ") and err.count("\n") == 1


def v8_variant_raw(seed: int, name: str) -> list[int]:
    """The C++ driver's Math.random() * 2^52 or * 2^53 (tests/data/v8/variants/reference.txt, V8's own code)."""
    from pathlib import Path

    path = Path(__file__).parents[1] / "data" / "v8" / "variants" / "reference.txt"
    return next([int(v) for v in line.split()[3:]] for line in path.read_text().splitlines()
                if line.startswith(f"{seed} {name} raw "))


@pytest.mark.parametrize("name, seed", [("v8-53", 1337), ("v8-plus", 193)])
def test_v8_variants_print_what_v8s_code_computes(name, seed, capsys):
    # v8-plus seed 193 stores a NaN-looking state word after its third refill (the last 14 of 200 values)
    status, out, _ = run(["gen", name, "--seed", str(seed), "-n", "200"], capsys)
    assert status == 0 and [int(v) for v in out.split()] == v8_variant_raw(seed, name)


def test_unity_prints_unitys_first_output(capsys):
    # Random.InitState(0); Random.Range(-1366991463, -784454117) gives -1213877975 in Unity (tests/data/unity/):
    # -1366991463 + 1900725526 mod 582537346
    status, out, _ = run(["gen", "unity", "--seed", "0", "-n", "2"], capsys)
    assert status == 0 and [int(v) for v in out.split()] == [1900725526, 1900725046]
    assert -1366991463 + 1900725526 % 582537346 == -1213877975
