"""The foundation commands: list, gen, stream, report, and how bad input fails."""

import json
import subprocess
import sys

import pytest
from cli_runs import run


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
    (["gen", "--a", "3", "--m", "3^4000", "-n", "2"], "'3^4000' is too large: it needs about 6340 bits"),
    (["gen", "msvc", "-n", "3^4095"], "'3^4095' is too large: it needs about 6491 bits"),
    (["gen", "msvc", "-n", "10^40"], "-n must be at most 10^7 for printing; got about 2^133"),
    (["gen", "msvc", "-n", "(" * 3000 + "1" + ")" * 3000], "may nest at most 100 deep"),
    (["gen", "msvc", "-n", "-" * 5000 + "1"], "may nest at most 100 deep"),
    (["gen", "msvc", "-n", "1" * 5000], "it needs about 16607 bits"),
    (["gen", "os", "--seed", "5"], "os takes no seed"),
    (["stream", "os", "--seed", "5"], "takes no seed"),
    (["test", "os", "--seed", "5"], "takes no seed"),
    (["gen", "lcg:a=5"], "a and m are required"),
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
    assert "| `minstd` | lcg | [1, 2^31 - 2] | 2^31 - 2 (maximal) | 31 |" in text     # a, c, m in report.json
    assert '"a": 16807,' in (out_dir / "report.json").read_text()
    assert (out_dir / "report.html").read_text().startswith("<!DOCTYPE html>")
    assert result.sections == ["Generator catalog"]
    with pytest.raises(ValueError, match="already exists and is not empty; choose another folder or pass --force"):
        build_report(out_dir, quick=True, sections=[catalog.section])


def _section_with_figure(context):
    from rnglab.plot import new_figure
    from rnglab.report import Section

    figure, axes = new_figure()
    axes.plot([0, 1], [0, 1])
    return Section("Fake", [context.add_figure("spectral_merits", figure, "a line")])


def _failing_section(context):
    raise RuntimeError("killed mid-report")


def test_report_never_touches_a_users_folder_without_force(tmp_path):
    from rnglab.report import build_report

    mine = tmp_path / "d" / "figures" / "spectral_merits.png"
    mine.parent.mkdir(parents=True)
    mine.write_bytes(b"mine")
    with pytest.raises(ValueError, match="already exists and is not empty"):
        build_report(tmp_path / "d", sections=[_section_with_figure])
    assert mine.read_bytes() == b"mine"
    result = build_report(tmp_path / "d", sections=[_section_with_figure], force=True)
    assert mine.read_bytes()[:4] == b"\x89PNG" and result.figures == ["figures/spectral_merits.png"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d"]


def test_a_report_that_fails_leaves_nothing_behind(tmp_path):
    from rnglab.report import build_report

    with pytest.raises(RuntimeError, match="killed mid-report"):
        build_report(tmp_path / "r", sections=[_section_with_figure, _failing_section])
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "r").mkdir()                      # an empty folder may be filled without --force
    build_report(tmp_path / "r", sections=[_section_with_figure])
    assert sorted(p.name for p in (tmp_path / "r").iterdir()) == ["figures", "report.html", "report.json", "report.md"]


@pytest.mark.parametrize("args, message", [
    (["report", "--seed", "-1"], "seed must be in [0, 2^32); got -1"),
    (["report", "--out", "/proc/r"], "cannot write in folder /proc"),
    (["report", "--out", "/nonexistent-rnglab/r"], "folder /nonexistent-rnglab does not exist"),
])
def test_report_options_are_checked_before_any_section(args, message, monkeypatch, capsys):
    import rnglab.report

    monkeypatch.setattr(rnglab.report, "SECTIONS", [_failing_section])
    status, _, err = run(args, capsys)
    assert status == 2 and message in err and err.count("\n") == 1


def test_list_shows_each_generators_source_and_bounded_call(capsys):
    # Issue 12: the README said `rnglab list` shows sources; only --json had them.
    status, out, _ = run(["list"], capsys)
    assert status == 0 and "Sources:" in out
    assert "  minstd: S. K. Park and K. W. Miller" in out and "  os: Python os.urandom" in out
    java = next(line for line in out.splitlines() if line.startswith("java "))
    assert java.split()[-1] == "java-nextint"  # the generator's own bounded call


def test_a_written_plot_is_announced_on_standard_error(capsys, tmp_path):
    path = tmp_path / "lattice.png"
    status, out, err = run(["spectral", "randu", "--dims", "2..3", "--plot", str(path), "--json"], capsys)
    assert status == 0 and path.exists() and err == f"plot written to {path}\n" and json.loads(out)["a"] == 65539
