"""Output files of the command line: paths checked while the options are parsed (before any computation),
and pictures saved with a word to the user."""

from __future__ import annotations

import click


class OutputFolder(click.Path):
    """``--out FOLDER``: a folder path, never empty (``''`` would name the current folder and write into it)."""

    def __init__(self) -> None:
        super().__init__(file_okay=False)

    def convert(self, value, param, ctx):
        if isinstance(value, str) and not value.strip():
            self.fail("an output folder must be named: an empty path would write into the current folder",
                      param, ctx)
        return super().convert(value, param, ctx)


def check_plot_path(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Callback of ``--plot``: refuse a path that could not be written, before the command runs.

    ``--force`` is an eager option, so its value is known here. The refusal is the
    library's ``ValueError``, which the command line prints as ``Error: ...`` (status 2).
    """
    if value is None:
        return None
    from rnglab.plot import check_figure_path

    check_figure_path(value, ctx.params.get("force", False))
    return value


def save_plot(figure, path: str, force: bool) -> str:
    """Save ``figure`` to ``path`` (atomically, never overwriting without ``force``) and say so on standard error.

    Standard error keeps ``--json`` output on standard output clean. Returns the path written.
    """
    from rnglab.plot import save_figure

    written = save_figure(figure, path, force)
    click.echo(f"plot written to {written}", err=True)
    return written
