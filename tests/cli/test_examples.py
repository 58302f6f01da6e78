"""Every --help teaches: examples that parse against their command, GEN's syntax, choice lists that wrap."""

import shlex

import click
import pytest

from rnglab.cli import COMMANDS, rnglab
from rnglab.cli.examples import EXAMPLES


def command_and_arguments(line: str):
    """The command an example runs and its arguments (shell pipes and redirections cut off)."""
    words = shlex.split(line)
    cut = [i for i, word in enumerate(words) if word in ("|", ">")]
    words = words[1:cut[0] if cut else None]
    command = rnglab.get_command(click.Context(rnglab), words[0])
    path, arguments = [words[0]], words[1:]
    if isinstance(command, click.Group):
        name = arguments[0] if arguments and arguments[0] in command.commands else command.default
        command, arguments = command.commands[name], arguments[1:] if arguments and arguments[0] == name else arguments
        path.append(name)
    return " ".join(path), command, arguments


def test_every_command_has_examples():
    assert set(COMMANDS) <= set(EXAMPLES)
    assert all(2 <= len(lines) <= 4 for lines in EXAMPLES.values())


@pytest.mark.parametrize("line", [line for lines in EXAMPLES.values() for line in lines])
def test_example_parses(line):
    path, command, arguments = command_and_arguments(line)
    with command.make_context(path, arguments):  # options exist, values convert (GEN resolves), no work done
        pass


@pytest.mark.parametrize("name", list(COMMANDS))
def test_help_ends_with_examples(name, capsys):
    from rnglab.cli import main

    assert main([name, "--help"]) == 0
    text = capsys.readouterr().out
    assert "Examples:" in text and EXAMPLES[name][0] in text
    assert max(len(line) for line in text.splitlines()) <= 100   # choice lists wrap
    takes_gen = any(isinstance(p, click.Argument) and p.name in ("gen", "generator")
                    for p in rnglab.get_command(click.Context(rnglab), name).params)
    assert ("GEN is a catalog name" in text) == takes_gen


def test_long_choice_lists_move_into_the_help_text(capsys):
    from rnglab.cli import main

    main(["shuffle", "--help"])
    text = capsys.readouterr().out
    assert "--algo NAME" in text and "One of fisher-yates, forward," in text and "[fisher-yates|" not in text
