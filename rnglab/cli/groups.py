"""Click groups with a default command, for commands whose modes are subcommands."""

from __future__ import annotations

import click


class DefaultCommandGroup(click.Group):
    """A group that runs its ``default`` command when the first argument names no other command.

    ``rnglab spectral randu`` is then ``rnglab spectral test randu``, while
    ``rnglab spectral search ...`` reaches the ``search`` command; ``--help``
    on the group lists both.

    Parameters
    ----------
    default : str
        Name of the command to run when no command is named.
    """

    def __init__(self, *args, default: str, **kwargs):
        super().__init__(*args, invoke_without_command=False, no_args_is_help=False, **kwargs)
        self.default = default

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        names_a_command = bool(args) and args[0] in self.commands
        asks_for_help = bool(args) and args[0] in ctx.help_option_names
        if not names_a_command and not asks_for_help:
            args = [self.default, *args]
        return super().parse_args(ctx, args)
