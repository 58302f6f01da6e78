"""``rnglab crack --method`` (rnglab.cli.crack_method): which method runs for what was given, and why; the
lattice's printed recovery; the methods' refusals.

The recoveries themselves are tested in tests/recovery/ (test_lattice.py, test_dealt.py, test_linear.py).
"""

import click
import pytest
from cli_runs import run

from rnglab.cli.crack_method import choose
from rnglab.generators import as_generator
from rnglab.seeds.space import seed_range_space

SPACE = seed_range_space([(0, 1000)])


def test_cli_whole_outputs_with_few_hidden_bits_use_brute_force():
    import json

    from click.testing import CliRunner

    from rnglab.cli.crack import crack_command
    result = CliRunner().invoke(crack_command, ["java", "--outputs", "-1170105035,234785527", "--json"])
    data = json.loads(result.output)
    assert data["method"] == "brute" and data["seeds"] == [42] and "2^16" in data["why"]


@pytest.mark.parametrize("generator, given, method, why", [
    ("java", {"bound": 6}, "lattice", "partial outputs (draws or top bits) constrain the state linearly"),
    ("java", {"outputs": "1 2", "top_bits": 20}, "lattice",
     "partial outputs (draws or top bits) constrain the state linearly"),
    ("mt19937", {}, "linear",
     "mt19937's outputs are linear over GF(2): its state follows by elimination, no seed tried"),
    # java: m = 2^48, 32-bit outputs: 16 hidden bits, tried; lrand48: 17; the top 32 bits of a 64-bit state hide
    # 32, beyond MAX_HIDDEN_BITS (26). An LCG that outputs its state (minstd) goes to the lattice too.
    ("java", {"outputs": "1 2"}, "brute", "each output hides 16 state bits: 2^16 states are tried"),
    ("lrand48", {"outputs": "1 2"}, "brute", "each output hides 17 state bits: 2^17 states are tried"),
    ("lcg:a=6364136223846793005,c=1,m=2^64,output=bits(32,32)", {"outputs": "1 2"}, "lattice",
     "the outputs hide too many state bits to try them all"),
    ("minstd", {"outputs": "1 2"}, "lattice",
     "each output is the whole state: the lattice checks the outputs and predicts on"),
    ("msvc", {"seeds": SPACE}, "brute", "a seed space of 1,000 seeds was given"),
    ("mt19937", {"seeds": SPACE}, "brute", "a seed space of 1,000 seeds was given"),
    ("java", {}, "lattice", "no seed space given: the 48-bit state of the LCG is recovered"),
    # the state of minstd is in [1, 2^31 - 2]: 31 bits (the message said 30: m.bit_length() - 1)
    ("minstd", {}, "lattice", "no seed space given: the 31-bit state of the LCG is recovered"),
])
def test_auto_chooses_the_method_for_what_was_given(generator, given, method, why):
    arguments = {"seeds": None, "outputs": None, "bound": None, "top_bits": None, **given}
    assert choose("auto", as_generator(generator), **arguments) == (method, why)


@pytest.mark.parametrize("method", ["brute", "lattice", "linear"])
def test_a_method_given_is_the_one_chosen(method):
    seeds = SPACE if method == "brute" else None
    assert choose(method, as_generator("mt19937"), seeds=seeds, outputs=None, bound=None, top_bits=None) == (
        method, "chosen with --method")


def test_without_seeds_a_generator_neither_lcg_nor_linear_has_no_method():
    with pytest.raises(click.UsageError, match="say where the seeds come from: --seeds POLICY"):
        choose("auto", as_generator("pcg64"), seeds=None, outputs=None, bound=None, top_bits=None)


@pytest.mark.parametrize("args, message", [
    (["java", "--method", "brute", "--outputs", "1 2", "--bound", "6"],
     "--bound and --top-bits are read by the lattice method: use --method auto or lattice"),
    (["msvc", "--method", "lattice", "--seeds", "0..9", "--seen", "As"],
     "--seeds is a space to search by brute force; --method lattice needs none"),
    (["minstd", "--method", "linear", "--outputs", "1 2"],
     ("--method linear needs a generator whose outputs are linear over GF(2) (MT19937, V8, xorshift, WELL) and "
      "whole outputs or cards; minstd is not linear")),
    (["xoroshiro128plus", "--method", "linear", "--outputs", "1 2"],
     "xoroshiro128plus's +, ++ or ** output is not linear over GF(2) (its engine is)"),
    (["mt19937", "--method", "linear", "--outputs", "1 2", "--bound", "6"], "mt19937 is given --bound or --top-bits"),
    (["java", "--outputs", "1 2", "--bound", "6", "--top-bits", "3"], "give --bound (draws) or --top-bits (outputs)"),
    (["java", "--outputs", "1 -2", "--bound", "6"], "observed values are non-negative; got -2"),
    (["java", "--outputs", ",", "--bound", "6"], "give the outputs seen, e.g. --outputs \"4 5 2 5\""),
    (["java", "--method", "lattice", "--outputs", "1 2", "--top-bits", "33"],
     "--top-bits must be in [1, 32] (the output's width); got 33"),
    (["minstd", "--outputs", "1 2", "--top-bits", "32"], "--top-bits must be in [1, 31] (the output's width); got 32"),
    (["java", "--outputs", "1 2 3 4 5 6", "--top-bits", "32", "--method", "lattice"],
     "no state reproduces these observations: they contradict each other"),
    # neither an LCG nor linear: no method from outputs (the brute-force path once answered "needs an LCG with
    # m = 2^e" for v8-plus, and could not read @FILE)
    (["pcg64", "--outputs", "1 2"], ("pcg64: no recovery from outputs: rnglab recovers an LCG's state (lattice) or "
                                     "a state linear over GF(2) (elimination), and pcg64 is not linear over GF(2); search its "
                                     "seeds from the cards instead: --seen CARDS --seeds POLICY")),
    (["v8-plus", "--outputs", "1 2"], "and v8-plus's output (state0 + state1) mod 2^52 is not linear"),
])
def test_what_the_methods_refuse_is_one_line(args, message, capsys):
    status, out, err = run(["crack", *args], capsys)
    assert (status, out) == (2, "") and message in err and err.startswith("Error: ") and err.count("\n") == 1


def test_minstd_s_state_follows_from_its_whole_outputs(capsys):
    # minstd from seed 1: 16807, 282475249, 1622650073, 984943658, then 1144108930, 470211272 (Park and Miller).
    # Whole outputs were reduced modulo 2^30 (the width m.bit_length() - 1), so 1622650073 >= 2^30 contradicted.
    status, out, err = run(["crack", "minstd", "--outputs", "16807 282475249 1622650073 984943658", "--predict", "2"],
                           capsys)
    assert status == 0 and err == ("method: lattice (each output is the whole state: the lattice checks the outputs "
                                   "and predicts on)\n")
    assert out.splitlines() == [
        "minstd: 1 state(s) from 4 observations (124.0 bits against 31 state bits; lattice)",
        "state 984943658 (initial state 1, seed 1)", "next: 1144108930 470211272"]


def test_the_top_31_bits_of_minstd_are_its_whole_outputs(capsys):
    status, out, _ = run(["crack", "minstd", "--outputs", "16807 282475249 1622650073", "--top-bits", "31",
                          "--predict", "1"], capsys)
    assert status == 0 and out.splitlines()[1:] == ["state 1622650073 (initial state 1, seed 1)", "next: 984943658"]


@pytest.mark.parametrize("generator", ["java", "minstd", "xorshift128"])
def test_outputs_are_read_from_a_file_for_every_method(generator, tmp_path, capsys):
    # --outputs @PATH was read by the linear method only; the brute-force (java) and lattice (minstd) paths
    # answered "cannot parse '@...'". Java's nextInt() from seed 0, minstd's from 1, xorshift128's first outputs.
    outputs = {"java": "-1155484576 -723955400 1033096058 -1690734402", "minstd": "16807 282475249 1622650073",
               "xorshift128": "3701687786 458299110 2500872618 3633119408 516391518"}[generator]
    path = tmp_path / "outputs.txt"
    path.write_text(outputs.replace(" ", "\n") + "\n")
    assert run(["crack", generator, "--outputs", f"@{path}", "--predict", "2"], capsys) == \
        run(["crack", generator, "--outputs", outputs, "--predict", "2"], capsys)
    status, out, _ = run(["crack", generator, "--outputs", f"@{path}", "--predict", "2"], capsys)
    assert status == 0 and ("1 state(s)" in out)
