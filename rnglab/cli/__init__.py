"""The ``rnglab`` command line: one click group, one module per command.

Library ``ValueError``s and click's usage errors become one line,
``Error: ...``, on standard error with exit status 2; a command's own exit
status is passed on. Nothing shows a traceback for bad input; Ctrl-C is
handled by the console script, :mod:`rnglab.console` (status 130).
"""

from __future__ import annotations

import importlib

import click

#: Command name -> "module:attribute" inside this package, imported only when the command runs,
#: so that ``rnglab gen`` does not pay for matplotlib and scipy.
COMMANDS = {
    "list": "listing:list_command",
    "gen": "gen:gen_command",
    "stream": "stream:stream_command",
    "period": "period:period_command",
    "spectral": "spectral:spectral_command",
    "test": "test:test_command",
    "reduce": "reduce:reduce_command",
    "seeds": "seeds:seeds_command",
    "shuffle": "shuffle:shuffle_command",
    "deal": "deal:deal_command",
    "fairness": "fairness:fairness_command",
    "reach": "reach:reach_command",
    "crack": "crack:crack_command",
    "report": "report:report_command",
}


class LazyGroup(click.Group):
    """A click group whose commands are imported on first use."""

    def list_commands(self, ctx) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx, name: str):
        if name not in COMMANDS:
            return None
        module, attribute = COMMANDS[name].split(":")
        return getattr(importlib.import_module(f"{__name__}.{module}"), attribute)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rnglab")
def rnglab() -> None:
    """Examine random number generators: periods, lattices, tests, range reduction, shuffles, seeds."""


def main(argv: list[str] | None = None) -> int:
    """Run the command line and return its exit status.

    The status is the command's own (an ``int`` it returns, or the code of a
    ``click.exceptions.Exit`` it raises), 0 when it returns nothing, and 2 for
    bad input. Ctrl-C propagates as ``KeyboardInterrupt``; the console script
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
    except click.Abort:
        raise KeyboardInterrupt from None
    return status if isinstance(status, int) else 0
