"""What every ``--help`` ends with: real examples, GEN's syntax, and choice lists that wrap.

Kept apart from the commands so that their option lists stay short: the group
(:class:`rnglab.cli.LazyGroup`) passes each command through :func:`teach` when it
loads it. Adding an example is adding a line to :data:`EXAMPLES` (keyed by the
command's path: ``"gen"``, ``"spectral search"``); tests/cli/test_examples.py parses
every example against its command's options, so an example cannot name an
option that does not exist.
"""

from __future__ import annotations

import click

#: Command path -> example command lines (each runs as written, from a shell).
EXAMPLES = {
    "list": ["rnglab list", "rnglab list --json"],
    "gen": ["rnglab gen msvc -n 5", "rnglab gen java --seed 42 -n 3",
            "rnglab gen lcg:a=16807,m=2^31-1,seed=1 -n 3", "rnglab gen --a 65539 --m 2^31 --seed 1 -n 5"],
    "stream": ["rnglab stream msvc --bytes 1048576 > msvc.bin", "rnglab stream randu | RNG_test stdin32",
               "rnglab stream java --word 64 --low-bits 8 | dieharder -a -g 200"],
    "period": ["rnglab period --a 16807 --m 2^31-1", "rnglab period randu --seed 1",
               "rnglab period lcg:a=5,c=3,m=2^16 --walk"],
    "spectral": ["rnglab spectral randu", "rnglab spectral", "rnglab spectral search --m 2^32 --dims 2..6"],
    "spectral test": ["rnglab spectral randu --dims 2..8", "rnglab spectral --a 69069 --m 2^32 --json"],
    "spectral search": ["rnglab spectral search --m 2^32 --dims 2..6",
                        "rnglab spectral search --m 2^31-1 --candidates 1000 --top 5"],
    "test": ["rnglab test randu --battery small", "rnglab test msvc --tests frequency,gap,poker",
             "rnglab test lcg:a=69069,m=2^32 --low-bits 8 --fail-on suspicious"],
    "reduce": ["rnglab reduce --range 32768 --n 52", "rnglab reduce msvc --n 52 --samples 10^6",
               "rnglab reduce java --n 10^9 --reducer modulo --json"],
    "seeds": ["rnglab seeds time-s --window 1d --tables 1000", "rnglab seeds ms-midnight --window 90m"],
    "shuffle": ["rnglab shuffle msvc --n 10 --count 3", "rnglab shuffle java --algo naive --reducer lemire"],
    "deal": ["rnglab deal msvc --players 6", "rnglab deal java --game doudizhu --seed 7"],
    "fairness": ["rnglab fairness --algo naive --n 4", "rnglab fairness --n 12 --algo transpositions --swaps touch",
                 "rnglab fairness msvc --algo fisher-yates --n 52 --shuffles 10^5"],
    "reach": ["rnglab reach msvc --seeds time-s --window 1d", "rnglab reach msvc --seeds 0..2^16 --n 52",
              "rnglab reach lcg:a=5,c=1,m=2^16 --games"],
    "crack": ['rnglab crack msvc --seeds 0..2^16 --seen "As Kd 7h 2c 9s"',
              'rnglab crack delphi --seeds ms-midnight --algo poker1999 --seen "7h 2c Qs Td 4d"',
              "rnglab crack java --outputs -1155869325,431529176"],
    "audit": ["rnglab audit deitel-msvc --out deitel", "rnglab audit numpy-shuffle --json --out numpy --force",
              "rnglab audit my-game.toml --cards-seen 2 --tables 5000"],
    "report": ["rnglab report --quick --out preview", "rnglab report --out rnglab-report --force"],
}

#: Said under the examples of every command that takes GEN (and, where they exist, of --a/--m/--c).
GEN_SYNTAX = ("GEN is a catalog name (rnglab list) or an LCG written "
              "lcg:a=..,m=..[,c=..][,seed=..][,output=..], e.g. lcg:a=16807,m=2^31-1,seed=1.")
LCG_OPTIONS = "Without GEN, --a and --m (and --c, default 0) give an LCG."

#: Choice lists longer than this (in characters) are moved from the option's column into its help text.
LONG_CHOICES = 30


def teach(command: click.Command, path: str) -> click.Command:
    """Give ``command`` (and the commands of a group) its examples and wrapped choice lists, once."""
    if getattr(command, "_taught", False):
        return command
    command._taught = True
    for option in command.params:
        _wrap_choices(option)
    lines = EXAMPLES.get(path, [])
    paragraphs = ["Examples:\n\n\b\n" + "\n".join(f"  {line}" for line in lines)] if lines else []
    if any(isinstance(param, click.Argument) and param.name in ("gen", "generator") for param in command.params):
        paragraphs.append(GEN_SYNTAX + (" " + LCG_OPTIONS if any(p.name == "a" for p in command.params) else ""))
    if paragraphs:
        command.epilog = "\n\n".join(([command.epilog] if command.epilog else []) + paragraphs)
    for name, subcommand in getattr(command, "commands", {}).items():
        teach(subcommand, f"{path} {name}")
    return command


def _wrap_choices(option: click.Parameter) -> None:
    """``--algo NAME`` with "One of a, b, ..." in the help (wrapped) instead of a 150-character ``[a|b|...]``."""
    if not isinstance(option, click.Option) or not isinstance(option.type, click.Choice) or option.metavar:
        return
    if len("|".join(map(str, option.type.choices))) <= LONG_CHOICES:
        return
    option.metavar = "NAME"
    option.help = f"{option.help or ''} One of {', '.join(map(str, option.type.choices))}.".strip()
