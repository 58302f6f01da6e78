"""``rnglab list`` (rnglab.cli.listing): the catalog as a table and as JSON, with each entry's published
parameters (MSVC's rand.c: ``holdrand * 214013 + 2531011``, bits 16..30; IBM's RANDU: 65539, 2^31)."""

import json

from cli_runs import run


def test_json_rows_hold_the_published_parameters(capsys):
    status, out, _ = run(["list", "--json"], capsys)
    rows = {row["name"]: row for row in json.loads(out)}
    assert status == 0
    msvc, randu = rows["msvc"], rows["randu"]
    assert (msvc["a"], msvc["c"], msvc["m"], msvc["output"], msvc["low"], msvc["high"]) == \
        (214013, 2531011, 2**32, "bits(16,15)", 0, 32767)
    assert (randu["a"], randu["c"], randu["m"], randu["output"], randu["high"]) == (65539, 0, 2**31, "state", 2**31 - 1)
    assert rows["minstd"]["low"] == 1 and rows["minstd"]["high"] == 2**31 - 2


def test_the_table_writes_moduli_as_powers_of_two(capsys):
    status, out, _ = run(["list"], capsys)
    randu = next(line.split() for line in out.splitlines() if line.startswith("randu "))
    assert status == 0 and randu[:6] == ["randu", "lcg", "65539", "0", "2^31", "state"]
    assert out.splitlines()[0].split()[:3] == ["name", "kind", "a"]
