"""The ``rnglab`` command line: one click group, one module per command.

Library ``ValueError``s and click's usage errors become one line,
``Error: ...``, on standard error with exit status 2; Ctrl-C leaves a clean
message and status 130. Nothing shows a traceback for bad input.
"""

from __future__ import annotations

import sys

import click

from . import gen, listing, period, report, spectral, stream

COMMANDS = [
    listing.list_command,
    gen.gen_command,
    stream.stream_command,
    report.report_command,
    period.period_command,
    spectral.spectral_command,
]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rnglab")
def rnglab() -> None:
    """Examine random number generators: periods, lattices, tests, range reduction, shuffles, seeds."""


for _command in COMMANDS:
    rnglab.add_command(_command)


def main(argv: list[str] | None = None) -> int:
    """Run the command line and return its exit status (the console-script entry point)."""
    try:
        rnglab.main(args=argv, prog_name="rnglab", standalone_mode=False)
    except click.exceptions.Exit as done:
        return done.exit_code
    except click.UsageError as error:
        click.echo(f"Error: {error.format_message()}", err=True)
        return 2
    except click.ClickException as error:
        click.echo(f"Error: {error.format_message()}", err=True)
        return error.exit_code
    except (ValueError, OverflowError) as error:
        click.echo(f"Error: {error}", err=True)
        return 2
    except (KeyboardInterrupt, click.Abort):
        click.echo("Interrupted.", err=True)
        return 130
    return 0


def run() -> None:
    """Entry point for ``python -m rnglab``."""
    sys.exit(main())
