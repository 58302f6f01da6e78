"""Checks on output paths, made while the options are parsed: before any computation."""

from __future__ import annotations

import click


def check_plot_path(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Callback of ``--plot``: refuse a path that could not be written, before the command runs.

    ``--force`` is an eager option, so its value is known here. The refusal is the
    library's ``ValueError``, which the command line prints as ``Error: ...`` (status 2).
    """
    if value is None:
        return None
    from ..plot import check_figure_path

    check_figure_path(value, ctx.params.get("force", False))
    return value
