"""The pieces every command shares (rnglab.cli.common): integer, size and duration options, GEN and the LCG
options, the bits selected, the table and JSON printed, the lazy stand-ins of library functions."""

import json

import click
import pytest
from cli_runs import run

from rnglab.cli.common import COUNT, INT, ByteSize, Duration, IntExpr, format_table, lazy
from rnglab.generators import catalog
from rnglab.shuffles.pipelines import pipelines


@pytest.mark.parametrize("text, value", [("2^31-1", 2**31 - 1), ("0x5DEECE66D", 25214903917), ("1<<48", 2**48),
                                         ("-3", -3), (7, 7)])
def test_an_integer_option_is_an_expression(text, value):
    assert INT.convert(text, None, None) == value


def test_an_integer_below_the_minimum_is_refused_with_both_numbers():
    assert COUNT.convert("0", None, None) == 0 and IntExpr(minimum=1).convert("2^3", None, None) == 8
    with pytest.raises(click.BadParameter, match=r"must be >= 1; got 0"):
        IntExpr(minimum=1).convert("0", None, None)
    with pytest.raises(click.BadParameter, match=r"cannot parse '2\^\^3'"):
        INT.convert("2^^3", None, None)


@pytest.mark.parametrize("text, size", [("1TiB", 2**40), ("512MiB", 2**29), ("2^30", 2**30), ("1", 1)])
def test_a_size_takes_a_binary_unit(text, size):
    assert ByteSize().convert(text, None, None) == size


def test_a_size_is_at_least_one_byte():
    with pytest.raises(click.BadParameter, match="must be at least 1 byte; got 0"):
        ByteSize().convert("0", None, None)


@pytest.mark.parametrize("text, milliseconds", [("30s", 30_000), ("10m", 600_000), ("1h", 3_600_000),
                                                ("2d", 172_800_000), (5, 5)])
def test_a_duration_is_in_milliseconds(text, milliseconds):
    assert Duration().convert(text, None, None) == milliseconds


def test_the_table_aligns_numbers_right_and_text_left():
    assert format_table(["name", "value", "ratio"], [["minstd", 16807, 0.123456789], ["randu", 65539, None]]) == (
        "name    value     ratio\n"
        "------  -----  --------\n"
        "minstd  16807  0.123457\n"
        "randu   65539")


def test_a_lazy_stand_in_imports_its_module_on_the_first_call():
    bias = lazy("draws.bias", "bias")
    first, second = lazy("core.params", "parse_int", "parse_size")
    assert (bias.__name__, first.__name__, second.__name__) == ("bias", "parse_int", "parse_size")
    assert bias.__doc__ == "rnglab.draws.bias.bias, imported on first call."
    assert first("2^10") == 1024 and second("1KiB") == 1024


def test_json_keeps_integers_of_any_size(capsys):
    status, out, _ = run(["period", "--a", "3", "--m", "2^127-1", "--json"], capsys)
    assert status == 0 and json.loads(out)["m"] == 2**127 - 1


def test_a_pipeline_named_as_gen_gives_its_generator(capsys):
    own = pipelines()["numpy-shuffle"].generator.name
    assert own == "pcg64_uint32"
    assert run(["gen", "numpy-shuffle", "-n", "2", "--seed", "5"], capsys) == \
        run(["gen", own, "-n", "2", "--seed", "5"], capsys)


@pytest.mark.parametrize("args, message", [
    (["gen", "msvc", "--m", "7"], "either as GEN or with --a/--m"),
    (["gen"], "name a generator"),
    (["stream", "randu", "--low-bits", "4", "--drop-bits", "2"], "--drop-bits and --low-bits exclude each other"),
    (["test", "drand48", "--low-bits", "8", "--drop-bits", "16"], "--drop-bits and --low-bits exclude each other"),
    (["gen", "--a", "5"], "an LCG given by options needs both --a and --m"),
    (["gen", "--c", "3"], "--c needs --a and --m"),
    (["reduce", "--n", "52", "--seed", "3"], "--seed needs a generator"),
    (["gen", "nope"], f"unknown generator 'nope': not one of the {len(catalog())} in the catalog"),
    (["gen", "nope"], "or a pipeline's name"),
    (["gen", "/etc/hostname"], ("'/etc/hostname' names no generator (see 'rnglab list'); only 'rnglab test' reads a "
                               "stream ('-' or FILE with --format)")),
    (["test", "/etc/hostname", "--seed", "3"], ("'/etc/hostname' is an input to read: --a, --c, --m and --seed apply "
                                               "to generators")),
    (["test", "-", "--a", "5", "--m", "7"], "'-' is an input to read"),
    (["shuffle", "msvc", "--reducer", "nope"], "'nope' is not one of 'modulo', 'float-multiply'"),
])
def test_what_the_shared_options_refuse_is_one_line(args, message, capsys):
    status, out, err = run(args, capsys)
    assert status == 2 and out == ""
    assert err.startswith("Error: ") and message in err and err.count("\n") == 1
