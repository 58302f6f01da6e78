"""A click group with a default command (rnglab.cli.groups): a standalone group checked by hand, and
``rnglab spectral randu`` run as ``rnglab spectral test randu`` (RANDU's nu_3^2 = 9^2 + 6^2 + 1 = 118)."""

import json

import click
from click.testing import CliRunner

from rnglab.cli import main
from rnglab.cli.groups import DefaultCommandGroup


@click.group(cls=DefaultCommandGroup, default="first")
def group():
    """A group of two commands."""


@group.command("first")
@click.argument("word", required=False)
def first(word):
    click.echo(f"first {word}")


@group.command("second")
def second():
    click.echo("second")


def test_the_default_runs_unless_a_command_or_help_is_named():
    runner = CliRunner()
    assert runner.invoke(group, ["hello"]).output == "first hello\n"
    assert runner.invoke(group, []).output == "first None\n"
    assert runner.invoke(group, ["second"]).output == "second\n"
    listing = runner.invoke(group, ["--help"]).output
    assert "first" in listing and "second" in listing and "A group of two commands." in listing


def test_spectral_runs_its_test_by_default(capsys):
    assert main(["spectral", "randu", "--json"]) == 0
    by_default = json.loads(capsys.readouterr().out)
    assert main(["spectral", "test", "randu", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == by_default
    three = next(figures for figures in by_default["dims"] if figures["t"] == 3)
    assert three["nu2"] == 118
