"""The foundation commands: list, gen, stream, report, and how bad input fails."""

import json
import subprocess
import sys

import pytest

from rnglab.cli import main


def run(args, capsys):
    status = main(args)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_list_names_every_catalog_entry(capsys):
    status, out, _ = run(["list", "--json"], capsys)
    names = [row["name"] for row in json.loads(out)]
    assert status == 0 and names[:3] == ["minstd", "minstd_rand", "randu"] and "pcg64" in names


def test_gen_json_keeps_integers(capsys):
    status, out, _ = run(["gen", "mmix", "-n", "2", "--seed", "0", "--json"], capsys)
    data = json.loads(out)
    assert status == 0
    assert data == {"generator": "mmix", "seed": 0, "low": 0, "high": 2**64 - 1,
                    "values": [1442695040888963407, 1876011003808476466]}


def test_gen_inline_lcg_and_options_agree(capsys):
    _, by_spec, _ = run(["gen", "lcg:a=16807,m=2^31-1,seed=1", "-n", "3"], capsys)
    _, by_options, _ = run(["gen", "--a", "16807", "--m", "2^31-1", "--seed", "1", "-n", "3"], capsys)
    assert by_spec == by_options == "16807\n282475249\n1622650073\n"


def test_gen_inline_output_function(capsys):
    _, out, _ = run(["gen", "lcg:a=214013,c=2531011,m=2^32,output=bits(16,15)", "-n", "5"], capsys)
    assert out.split() == ["41", "18467", "6334", "26500", "19169"]


@pytest.mark.parametrize("args, message", [
    (["gen", "nope"], "unknown generator 'nope'"),
    (["gen", "--a", "2^^31", "--m", "7"], "cannot parse '2^^31'"),
    (["gen", "--a", "16807", "--m", "1"], "m must be >= 2; got 1"),
    (["gen", "--a", "3", "--m", "2^31-1", "--seed", "0"], "seed must be non-zero when c = 0"),
    (["gen", "minstd", "-n", "-5"], "must be >= 0; got -5"),
    (["gen", "--a", "2^(2^40)", "--m", "7"], "too large"),
    (["gen", "msvc", "--m", "7"], "either as GEN or with --a/--m"),
    (["gen"], "name a generator"),
    (["gen", "lcg:a=5"], "a and m are required"),
    (["stream", "randu", "--low-bits", "4", "--drop-bits", "2"], "--drop-bits and --low-bits exclude each other"),
    (["test", "drand48", "--low-bits", "8", "--drop-bits", "16"], "--drop-bits and --low-bits exclude each other"),
])
def test_bad_input_is_one_line_and_status_2(args, message, capsys):
    status, out, err = run(args, capsys)
    assert status == 2 and out == ""
    assert err.startswith("Error: ") and message in err and err.count("\n") == 1


def test_stream_bytes_through_a_pipe():
    # 3124862261 = 0xBA419D35 is new Random(42).nextInt() as unsigned; written little-endian.
    out = subprocess.run([sys.executable, "-m", "rnglab", "stream", "java", "--seed", "42", "--bytes", "6"],
                         capture_output=True, check=True).stdout
    assert out == bytes.fromhex("359d41ba") + (234785527).to_bytes(4, "little")[:2]


def test_stream_stops_cleanly_on_a_closed_pipe():
    producer = subprocess.Popen([sys.executable, "-m", "rnglab", "stream", "pcg64"], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
    head = producer.stdout.read(4096)
    producer.stdout.close()
    producer.wait(timeout=60)
    assert len(head) == 4096 and producer.stderr.read() == b""


def test_report_writes_markdown_and_html(tmp_path, capsys):
    out_dir = tmp_path / "r"
    from rnglab.report import build_report, catalog
    result = build_report(out_dir, quick=True, sections=[catalog.section])
    text = (out_dir / "report.md").read_text()
    assert "| `minstd` | lcg | 16807 | 0 | 2147483647 |" in text
    assert (out_dir / "report.html").read_text().startswith("<!DOCTYPE html>")
    assert result.sections == ["Generator catalog"]
    with pytest.raises(ValueError, match="already exists"):
        build_report(out_dir, quick=True, sections=[catalog.section])
