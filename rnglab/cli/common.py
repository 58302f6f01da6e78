"""Shared pieces of the command line: option types, generator selection, output.

Commands stay thin: they parse options with these helpers, call the library
and print the result as a table or, with ``--json``, as JSON in which
integers of any size stay JSON integers.
"""

from __future__ import annotations

import functools
import importlib
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import click

from rnglab.cli.choices import REDUCER_NAMES
from rnglab.cli.outputs import check_plot_path
from rnglab.cli.progress import progress  # noqa: F401 - commands import it from here too
from rnglab.core.params import parse_int

if TYPE_CHECKING:  # the library is imported when an option is converted, not for --help
    from rnglab.generators import GeneratorSpec
    from rnglab.reduction.reducers import Reducer
    from rnglab.shuffles.pipelines import Pipeline
    from rnglab.streams.gateway import BitSelection


class IntExpr(click.ParamType):
    """An integer option written as an expression: ``2^31-1``, ``0x5DEECE66D``, ``1<<48``.

    Parameters
    ----------
    minimum : int, optional
        Smallest accepted value (e.g. 0 for counts).
    """

    name = "integer"

    def __init__(self, minimum: int | None = None):
        self.minimum = minimum

    def convert(self, value: Any, param, ctx) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            try:
                number = parse_int(str(value))
            except ValueError as error:
                self.fail(str(error), param, ctx)
        if self.minimum is not None and number < self.minimum:
            self.fail(f"must be >= {self.minimum}; got {number}", param, ctx)
        return number


INT = IntExpr()
COUNT = IntExpr(minimum=0)


class ByteSize(click.ParamType):
    """A number of bytes: an integer expression with an optional unit, ``1TiB``, ``512MiB``, ``2^30``."""

    name = "size"

    def convert(self, value: Any, param, ctx) -> int:
        from rnglab.core.params import parse_size

        try:
            size = parse_size(value)
        except ValueError as error:
            self.fail(str(error), param, ctx)
        if size < 1:
            self.fail(f"must be at least 1 byte; got {size}", param, ctx)
        return size


class Duration(click.ParamType):
    """A duration with its unit: ``30s``, ``10m``, ``1h``, ``2d`` (in milliseconds)."""

    name = "duration"

    def convert(self, value: Any, param, ctx) -> int:
        from rnglab.seeds.policies import parse_duration

        if isinstance(value, int):
            return value
        try:
            return parse_duration(str(value))
        except ValueError as error:
            self.fail(str(error), param, ctx)


#: Where a pipeline named as GEN is kept for the options it fills (``ctx.meta``, set while the options are parsed).
PIPELINE_KEY = "rnglab.pipeline"


def named_pipeline() -> Pipeline | None:
    """The pipeline GEN named in this command (``None`` for a generator): it fills the reducer, shuffle, seed space
    and deck of the options left out (:mod:`rnglab.cli.shuffle`)."""
    return click.get_current_context().meta.get(PIPELINE_KEY)


class GeneratorType(click.ParamType):
    """GEN: a catalog name (``rnglab list``) or ``lcg:a=16807,m=2^31-1[,c=..][,seed=..][,output=bits(16,15)]``,
    resolved once into a :class:`~rnglab.generators.GeneratorSpec`; or a pipeline's name, resolved into its
    generator, the :class:`~rnglab.shuffles.pipelines.Pipeline` kept for the options it fills
    (:func:`named_pipeline`)."""

    name = "generator"

    def convert(self, value: Any, param, ctx) -> GeneratorSpec | InputName:
        from rnglab.generators import as_generator

        if not isinstance(value, str):
            return value
        try:
            return as_generator(value)
        except ValueError as error:
            from rnglab.shuffles.pipelines import pipelines

            if value in pipelines():
                ctx.meta[PIPELINE_KEY] = pipelines()[value]
                return pipelines()[value].generator
            if value == "-" or os.path.exists(value):
                return InputName(value)
            self.fail(f"{error}, or a pipeline's name", param, ctx)


class InputName(str):
    """GEN naming a stream to read, ``-`` (standard input) or an existing file, instead of a generator."""


class ReducerType(click.Choice):
    """A reducer name, resolved to its :class:`~rnglab.reduction.reducers.Reducer`."""

    def __init__(self):
        super().__init__(list(REDUCER_NAMES))

    def convert(self, value: Any, param, ctx) -> Reducer:
        from rnglab.reduction.reducers import REDUCERS, Reducer

        return value if isinstance(value, Reducer) else REDUCERS[super().convert(value, param, ctx)]


GENERATOR = GeneratorType()
REDUCER = ReducerType()


def generator_options(required: bool = True, default: str | None = None, inputs: bool = False) -> Callable:
    """Add ``GEN`` and ``--a/--c/--m/--seed``; pass one ``generator`` (:class:`~rnglab.generators.GeneratorSpec`).

    ``GEN`` is a catalog name (``rnglab list``) or ``lcg:a=16807,m=2^31-1[,c=..][,seed=..]``;
    ``--a`` and ``--m`` (with optional ``--c``) give an LCG instead. ``--seed`` becomes
    the spec's default seed (checked against the generator's seeding convention). With
    ``required=False`` and nothing given, ``generator`` is ``None`` (or ``default``).
    With ``inputs``, ``GEN`` may also be ``-`` or a file that names no generator: the
    command then receives that :class:`InputName` to read.

    ``GEN`` may name a pipeline: the command receives its generator, and the shuffle
    options read the rest of it (:func:`named_pipeline`).
    """

    def decorate(command: Callable) -> Callable:
        @functools.wraps(command)
        def wrapper(*args, gen=None, a=None, c=None, m=None, seed=None, **kwargs):
            if isinstance(gen, InputName):
                _check_input(gen, inputs, a is not None or m is not None or c is not None, seed)
                return command(*args, generator=gen, **kwargs)
            return command(*args, generator=_choose_generator(gen, a, c, m, seed, required, default, inputs),
                           **kwargs)

        for option in reversed([
            click.argument("gen", required=False, metavar="[GEN]", type=GENERATOR),
            click.option("--a", type=INT, help="LCG multiplier (an expression such as 16807)."),
            click.option("--c", type=INT, help="LCG increment (default 0)."),
            click.option("--m", type=INT, help="LCG modulus (an expression such as 2^31-1)."),
            click.option("--seed", type=INT, help="Seed, in the generator's own seeding convention "
                                                  "(default: the generator's default seed)."),
        ]):
            wrapper = option(wrapper)
        return wrapper

    return decorate


def _check_input(name: InputName, inputs: bool, lcg_options: bool, seed: int | None) -> None:
    """An input is read only by commands that take one, and has no LCG parameters or seed."""
    if not inputs:
        raise click.UsageError(f"{name!r} names no generator (see 'rnglab list'); only 'rnglab test' reads a "
                               f"stream ('-' or FILE with --format)")
    if lcg_options or seed is not None:
        raise click.UsageError(f"{name!r} is an input to read: --a, --c, --m and --seed apply to generators")


def _choose_generator(gen, a, c, m, seed, required, default, inputs=False) -> GeneratorSpec | None:
    from rnglab.generators import as_generator, lcg_spec

    if gen is not None and (a is not None or m is not None or c is not None):
        raise click.UsageError("name a generator either as GEN or with --a/--m, not both")
    if gen is None and (a is not None or m is not None):
        if a is None or m is None:
            raise click.UsageError("an LCG given by options needs both --a and --m")
        gen = lcg_spec(a, m, c or 0)
    elif gen is None and c is not None:
        raise click.UsageError("--c needs --a and --m")
    gen = gen or (as_generator(default) if default else None)
    if gen is None:
        if required:
            raise click.UsageError("name a generator (GEN, see 'rnglab list') or give --a and --m"
                                   + ("; to read standard input, give - as GEN" if inputs else ""))
        if seed is not None:
            raise click.UsageError("--seed needs a generator")
        return None
    if seed is None:
        return gen
    return replace(gen, default_seed=gen.check_seed(seed))


json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
plot_option = click.option("--plot", "plot_path", type=click.Path(dir_okay=False), callback=check_plot_path,
                           help="Save a picture to this file (.png, .svg or .pdf); checked before any work.")
force_option = click.option("--force", is_flag=True, is_eager=True,  # eager: known when --plot is checked
                            help="Overwrite output files that already exist.")


def bit_selection(drop_bits: int, low_bits: int | None) -> BitSelection:
    """The bits ``--drop-bits r`` or ``--low-bits k`` select (they exclude each other)."""
    from rnglab.streams.gateway import BitSelection

    if low_bits is not None and drop_bits:
        raise click.UsageError("--drop-bits and --low-bits exclude each other: drop the top bits or keep the low ones")
    return BitSelection(drop=drop_bits) if low_bits is None else BitSelection(low=low_bits)


def selected_make(generator, selection: BitSelection):
    """``generator.make``, its sources read through ``selection`` (:func:`rnglab.streams.gateway.select`): the
    bits every test reads, chosen once here; picklable, for the workers of ``--seeds``."""
    from rnglab.streams.gateway import selected_source

    return functools.partial(selected_source, generator.make, selection)


def emit_json(data: Any) -> None:
    """Print ``data`` as JSON; integers stay exact (beyond 4300 digits as hexadecimal text, see ``to_plain``)."""
    from rnglab.core.results import json_text, to_plain

    click.echo(json_text(to_plain(data), indent=2))


def format_table(headers: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """Format rows as an aligned plain-text table (numbers right-aligned)."""
    text_rows = [[_cell(value) for value in row] for row in rows]
    widths = [max([len(h)] + [len(r[i]) for r in text_rows]) for i, h in enumerate(headers)]
    numeric = [all(_is_number(r[i]) for r in text_rows) and text_rows for i in range(len(headers))]
    def line(cells):
        return "  ".join(c.rjust(w) if n else c.ljust(w) for c, w, n in zip(cells, widths, numeric)).rstrip()
    return "\n".join([line(headers), line(["-" * w for w in widths])] + [line(r) for r in text_rows])


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.6g}"
    return "" if value is None else str(value)


def _is_number(text: str) -> bool:
    try:
        float(text)
        return True
    except ValueError:
        return text == ""


def lazy(module: str, *names: str) -> Any:
    """Stand-ins for the library functions ``rnglab.<module>.<name>``, each importing its module on first call.

    Commands bind library functions at module level through these, so that ``rnglab CMD --help``
    imports neither the library nor numpy, numba, scipy or matplotlib. One name gives one
    function, several give a tuple.
    """

    def stand_in(name: str) -> Callable:
        def call(*args, **kwargs):
            return getattr(importlib.import_module(f"rnglab.{module}"), name)(*args, **kwargs)

        call.__name__ = call.__qualname__ = name
        call.__doc__ = f"rnglab.{module}.{name}, imported on first call."
        return call

    functions = tuple(stand_in(name) for name in names)
    return functions[0] if len(functions) == 1 else functions
