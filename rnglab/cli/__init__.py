"""The ``rnglab`` command line: one click group, one module per command.

Library ``ValueError``s, click's usage errors and the system's refusals
(``OSError``) become one line, ``Error: ...``, on standard error with exit status 2; a command's own exit
status is passed on. Nothing shows a traceback for bad input; Ctrl-C is
handled by the console script, :mod:`rnglab.console` (status 130).
"""

from __future__ import annotations

import importlib

import click

#: Command name -> ("module:attribute" inside this package, one-line summary). A command's module is
#: imported only when the command runs, so that ``rnglab gen`` does not pay for matplotlib and scipy;
#: ``rnglab --help`` prints the summaries (each the first line of the command's own help, which
#: tests/cli/test_startup.py checks) and imports none of them.
COMMANDS = {
    "list": ("listing:list_command",
             "List the generator catalog (names usable as GEN in every command) and the named pipelines."),
    "gen": ("gen:gen_command", "Print the first outputs of generator GEN (after seeding it with --seed)."),
    "stream": ("stream:stream_command",
               "Write generator GEN's bit stream to standard output as raw little-endian words."),
    "period": ("period:period_command",
               "Exact period and tail of an LCG (GEN, or --a/--m/--c) from its seed, by number theory."),
    "spectral": ("spectral:spectral_command", ("Knuth's spectral test: 'rnglab spectral [GEN]' runs 'test'; "
                                               "'rnglab spectral search --m M' searches multipliers.")),
    "test": ("test:test_command",
             "Run a battery of statistical tests on generator GEN: statistic, p-value and verdict per test."),
    "reduce": ("reduce:reduce_command", "Exact bias of rand()-style range reduction against unbiased methods."),
    "seeds": ("seeds:seeds_command",
              "Seed-space size of seeding POLICY over a window, and the collision chance of simultaneous tables."),
    "shuffle": ("shuffle:shuffle_command",
                "Shuffle COUNT decks of N cards with generator GEN, one after another from one seeded stream."),
    "deal": ("deal:deal_command",
             "Shuffle with generator GEN and deal one game: hands one card at a time, then the board or kitty."),
    "fairness": ("fairness:fairness_command",
                 "Fairness of shuffle --algo on N cards: deal probabilities, TV distance, position matrix."),
    "reach": ("reach:reach_command", "Distinct deals of N cards reachable from a seed space of generator GEN."),
    "crack": ("crack:crack_command",
              "Find every seed of generator GEN whose shuffle shows the cards seen, and print each predicted deck."),
    "audit": ("audit:audit_command",
              "Audit a card game's RNG pipeline end to end: six questions graded pass, warn or fail, in a report."),
    "report": ("report:report_command",
               ("Write the rnglab report (report.md, a self-contained report.html, report.json, figures/) on "
                "built-in defaults.")),
}


class LazyGroup(click.Group):
    """A click group whose commands are imported on first use; its help lists them by summary."""

    def list_commands(self, ctx) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx, name: str):
        if name not in COMMANDS:
            return None
        from rnglab.cli.examples import teach

        module, attribute = COMMANDS[name][0].split(":")
        return teach(getattr(importlib.import_module(f"{__name__}.{module}"), attribute), name)

    def format_commands(self, ctx, formatter) -> None:
        """The "Commands:" section, as click writes it, from the summaries (no command imported)."""
        width = formatter.width - 6 - max(len(name) for name in COMMANDS)
        rows = [(name, click.Command(name, help=summary).get_short_help_str(width))
                for name, (_, summary) in COMMANDS.items()]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rnglab")
def rnglab() -> None:
    """Examine random number generators: periods, lattices, tests, range reduction, shuffles, seeds."""
    from rnglab.cli.progress import announce_compiles

    announce_compiles()


def main(argv: list[str] | None = None) -> int:
    """Run the command line and return its exit status.

    The status is the command's own (an ``int`` it returns, or the code of a
    ``click.exceptions.Exit`` it raises), 0 when it returns nothing, and 2 for
    bad input or a file the system refuses. Ctrl-C propagates as ``KeyboardInterrupt``; the console script
    (:mod:`rnglab.console`) turns it into status 130.
    """
    try:
        status = rnglab.main(args=argv, prog_name="rnglab", standalone_mode=False)
    except click.UsageError as error:
        click.echo(f"Error: {error.format_message()}", err=True)
        return 2
    except click.ClickException as error:
        click.echo(f"Error: {error.format_message()}", err=True)
        return error.exit_code
    except (ValueError, OverflowError) as error:
        click.echo(f"Error: {error}", err=True)
        return 2
    except OSError as error:  # a file the system refused, where no layer named the rule
        click.echo(f"Error: {error.strerror or error}{f': {error.filename}' if error.filename else ''}", err=True)
        return 2
    except click.Abort:
        raise KeyboardInterrupt from None
    return status if isinstance(status, int) else 0
