"""Named pipelines on the command line: a pipeline's name as GEN in every shuffle command, and rnglab list."""

import json

from cli_runs import run


def test_shuffle_python3_deals_what_random_shuffle_deals(capsys):
    # random.Random(42).shuffle(list(range(10))) in CPython 3 (the example)
    status, out, _ = run(["shuffle", "python3-shuffle", "--seed", "42", "--n", "10"], capsys)
    assert status == 0 and out.split() == ["7", "3", "2", "8", "5", "6", "9", "4", "0", "1"]
    assert run(["shuffle", "python", "--seed", "42", "--n", "10"], capsys)[1] == out  # python's own bounded call


def test_pipeline_sets_generator_reducer_and_algorithm(capsys):
    status, out, _ = run(["shuffle", "deitel-msvc", "--seed", "1", "--json"], capsys)
    data = json.loads(out)
    assert status == 0 and (data["generator"], data["reducer"], data["algorithm"]) == ("msvc", "modulo", "deitel")


def test_deitel_pipeline_prints_the_books_suits_with_or_without_n(capsys):
    # srand(1): the compiled program prints Ten of Spades, Five of Diamonds, Deuce of Diamonds, Four of Clubs, ...
    # (tests/data/pipelines/names_c.txt); Deitel's row 0 is hearts and row 2 clubs
    for extra in ([], ["--n", "52"], ["--deck", "deitel"]):
        status, out, _ = run(["shuffle", "deitel-glibc", "--seed", "1", *extra], capsys)
        assert status == 0 and out.split()[:8] == ["Ts", "5d", "2d", "4c", "8d", "5c", "2s", "Jh"]


def test_pipeline_refuses_what_it_fixes(capsys):
    status, _, err = run(["shuffle", "cpp-random-shuffle", "--reducer", "lemire"], capsys)
    assert status == 2 and "cpp-random-shuffle is a pipeline" in err and "--reducer does not apply" in err


def test_crack_vbscript_pipeline_searches_every_randomize_seed(capsys):
    # Randomize 12345 keeps h = 23624; all 2^16 seeds a bare Randomize can give are searched at once
    status, out, _ = run(["shuffle", "vbscript-xiangqi", "--seed", "23624", "--n", "15"], capsys)
    seen = out.strip()
    status, out, _ = run(["crack", "vbscript-xiangqi", "--seeds", "0..65535", "--deck", "15", "--seen", seen,
                          "--json"], capsys)
    data = json.loads(out)
    assert status == 0 and [c["seed"] for c in data["candidates"]] == [23624]


def test_reach_glibc_pipeline_over_time_seeds(capsys):
    status, out, _ = run(["reach", "cpp-random-shuffle", "--seeds", "time-s", "--window",
                          "2026-11-22T10:00:00±30s", "--json"], capsys)
    data = json.loads(out)
    assert status == 0 and data["seeds"] == data["distinct"] == 60


def test_non_shuffle_command_takes_the_pipelines_generator(capsys):
    status, out, _ = run(["gen", "deitel-glibc", "-n", "4", "--seed", "1", "--json"], capsys)
    assert status == 0 and json.loads(out)["values"] == [1804289383, 846930886, 1681692777, 1714636915]


def test_list_shows_pipelines_and_new_generators(capsys):
    status, out, _ = run(["list"], capsys)
    assert status == 0 and "Pipelines" in out and "  deitel-glibc: srand(time(0))" in out
    assert any(line.startswith("glibc ") for line in out.splitlines())
    assert any(line.startswith("vbscript ") for line in out.splitlines())
    names = [row["name"] for row in json.loads(run(["list", "--json"], capsys)[1]) if row["kind"] == "pipeline"]
    assert "java-collections" in names and "numpy-shuffle" in names


def test_pipeline_fills_its_seed_policy_and_deck(capsys):
    # vbscript-xiangqi: bare Randomize (vb-timer seeds) and the 15 hidden jieqi pieces, without --seeds or --deck
    status, out, _ = run(["shuffle", "vbscript-xiangqi", "--seed", "23624"], capsys)
    assert status == 0 and sorted(set(out.split())) == ["advisor", "cannon", "chariot", "elephant", "horse", "soldier"]
    status, out, _ = run(["shuffle", "vbscript-xiangqi", "--seed", "23624", "--n", "15"], capsys)
    seen = out.strip()  # pieces of a kind share a name: the search takes their indices
    assert status == 0 and seen == "7 3 14 13 8 6 1 5 2 10 0 4 9 11 12"
    status, out, _ = run(["crack", "vbscript-xiangqi", "--seen", seen, "--json"], capsys)
    data = json.loads(out)
    assert status == 0 and 23624 in [c["seed"] for c in data["candidates"]]
    status, out, _ = run(["reach", "vbscript-xiangqi", "--bound-only", "--json"], capsys)
    data = json.loads(out)
    assert status == 0 and data["n"] == 15 and data["seeds"] == 2**16


def test_pipeline_from_the_os_source_still_needs_a_seed_space(capsys):
    status, _, err = run(["reach", "java-collections", "--bound-only"], capsys)
    assert status == 2 and "--seeds" in err
