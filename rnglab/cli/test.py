"""``rnglab test``: run a battery of empirical tests on a generator and grade the p-values."""

from __future__ import annotations

import dataclasses
import os
import sys

import click

from rnglab.cli.choices import INPUT_FORMATS, TEST_NAMES
from rnglab.cli.cluster import scale_options
from rnglab.cli.common import (
    COUNT,
    ByteSize,
    Duration,
    IntExpr,
    bit_selection,
    emit_json,
    force_option,
    format_table,
    generator_options,
    json_option,
    lazy,
    plot_option,
    progress,
    selected_make,
)
from rnglab.cli.outputs import save_plot
from rnglab.cli.shuffle import seed_space_options
from rnglab.core.params import describe_int
from rnglab.core.rates import BATTERY_VALUES_PER_SECOND as VALUES_PER_SECOND
from rnglab.empirical.verdicts import DEFAULT_WINDOW, GRADES, format_pvalue, grade, is_suspect

get_battery, result_labels, run_battery, select_entries = lazy("empirical.battery", "get_battery", "result_labels", "run_battery", "select_entries")
genuine_bits = lazy("streams.gateway", "genuine_bits")

#: Values a run may draw without --allow-slow: about two minutes at the rate measured for
#: the standard battery (8.3e8 values in about 41 s on a loaded two-core machine).
FAST_VALUES = 2 * 10**9

#: The data a plain ``rnglab test GEN`` examines, running the core battery until it fails: PractRand 0.95 FAILs the
#: five streams that the smoke battery passed (issue #30: xorshift64's and xorshift128+'s low words, a 48-bit LCG's
#: bits 16..47, an additive lagged Fibonacci (24, 55), a 32-bit LCG's top 16 bits two to a word) within 16 MiB, and
#: this run fails them within 1 MiB (bench/c/defective_streams.c, tests/cli/test_test.py); 64 MiB gives a good
#: stream four times PractRand's 16 MiB, in seconds.
PLAIN_BUDGET = 2**26
#: The data ``--until-fail`` examines at most unless --max-bytes says otherwise.
UNTIL_FAIL_BUDGET = 2**40

#: --fail-on choices -> the grade from which a verdict fails the run (None: never).
FAIL_ON = {"suspicious": "suspicious", "fail": "FAIL", "never": None}

#: Memory each value of one test's sample takes at the least (one 64-bit output word).
BYTES_PER_VALUE = 8


def check_battery_work(entries, allow_slow: bool, runs: int = 1) -> None:
    """Refuse, before starting, a sample that cannot fit in memory, or ``runs`` runs of more than minutes."""
    largest = max(entry.size for entry in entries)
    needed, available = largest * BYTES_PER_VALUE, _physical_memory()
    if needed > available:
        raise ValueError(f"n = {describe_int(largest)} needs at least {_gib(needed)} of memory "
                         f"({BYTES_PER_VALUE} bytes a value); this machine has {_gib(available)}")
    total = sum(entry.size * entry.repeat for entry in entries) * runs
    if total > FAST_VALUES and not allow_slow:
        raise ValueError(f"this run draws {total:.3g} values, about {_duration(total / VALUES_PER_SECOND)} "
                         f"at {VALUES_PER_SECOND:,} values a second; above {FAST_VALUES:,} pass --allow-slow")


def _physical_memory() -> int:
    return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")


def _gib(size: int) -> str:
    return f"{size / 2**30:.3g} GiB"


def _duration(seconds: float) -> str:
    for unit, length in (("years", 365 * 86400), ("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds >= 2 * length:
            return f"{seconds / length:.3g} {unit}"
    return f"{seconds:.0f} seconds"


def _run_with_progress(generator, battery_name, entries, selection, **options):
    """Run the battery on the bits ``selection`` chooses with a progress bar weighted by values drawn, naming the
    test running.

    An input that ends too soon is refused with the test it ended in.
    """
    from rnglab.generators.external import InputExhausted

    weights, finished = [entry.size * entry.repeat for entry in entries], []
    with progress(sum(weights), f"{battery_name} battery", item_show_func=lambda name: name) as bar:
        bar.update(0, entries[0].test)

        def advance(done, total, name):
            finished.append(name)
            bar.update(weights[done - 1], entries[done].test if done < total else "")

        try:
            return run_battery(selected_make(generator, selection), get_battery(battery_name), generator.default_seed,
                               on_progress=advance, **options)
        except InputExhausted as error:
            raise InputExhausted(f"{error} (battery {battery_name} stopped in {entries[len(finished)].test}, "
                                 f"test {len(finished) + 1} of {len(entries)})") from None


def _input_generator(generator, input_format: str | None, rewind: bool):
    """The spec of the input GEN names (``-`` or FILE), read in ``input_format``; a generator stays as it is."""
    from rnglab.cli.common import InputName

    if not isinstance(generator, InputName):
        if input_format or rewind:
            raise click.UsageError("--format and --rewind read an input: give GEN as - (standard input) or FILE")
        return generator
    if input_format is None:
        raise click.UsageError(f"reading {generator} needs its word size: --format {'|'.join(INPUT_FORMATS)}")
    from rnglab.generators.external import input_spec

    return input_spec(str(generator), input_format, rewind, getattr(sys.stdin, "buffer", None),
                      on_wait=lambda: click.echo(f"waiting for a writer on FIFO {generator} (Ctrl-C to stop)", err=True))


@click.command("test")
@generator_options(inputs=True)
@click.option("--battery", "battery_name", metavar="NAME",
              help="Battery (rnglab/data/batteries.toml), run once at its sizes: smoke (a second; the default with "
                   "--tests, --n or --repeat), core (PractRand's core tests' counterparts and its low-bit folds, with "
                   "birthday spacings and collision; the default with --until-fail, and of a plain 'rnglab test "
                   "GEN'), small (core and SmallCrush's other tests at its scale), standard (minutes, "
                   "second-level), validation.")
@click.option("--tests", "test_names", metavar="NAMES",
              help=f"Comma-separated test names: run only these. Names: {', '.join(TEST_NAMES)}.")
@click.option("--n", "sample_size", type=IntExpr(minimum=1),
              help="Sample size for every test instead of the battery's.")
@click.option("--repeat", type=IntExpr(minimum=1),
              help="Repeat each test N times and test its p-values (second level).")
@click.option("--drop-bits", type=COUNT, default=0, help="Drop the top r bits of every output.")
@click.option("--low-bits", type=IntExpr(minimum=1), default=None, help="Keep only the low k bits of every output.")
@click.option("--format", "input_format", type=click.Choice(INPUT_FORMATS),
              help="Read GEN = - (standard input) or FILE instead of a generator, as little-endian words of "
                   "8, 16, 32 or 64 bits (u8, u16, u32, u64), or bits: a raw bit stream, 32 bits an output, "
                   "first bit = top bit of the first byte.")
@click.option("--rewind", is_flag=True,
              help="Start FILE again when it ends (reported), as dieharder does; without it a FILE shorter "
                   "than the battery needs is refused.")
@click.option("--until-fail", is_flag=True,
              help="Run the battery at doubling sizes on one stream (its first 1 KiB, 2 KiB, 4 KiB, ...), a line per "
                   "stage, until a test FAILs or a limit is reached: the data needed to fail (PractRand's way).")
@click.option("--max-bytes", type=ByteSize(), default=None,
              help="The data a run until it fails examines at most, its last stage (KiB, MiB, GiB, TiB): "
                   "1 TiB with --until-fail, 64 MiB for a plain 'rnglab test GEN'.")
@click.option("--max-time", type=Duration(), default=None,
              help="With --until-fail: stop before a stage that would end later than this (30s, 10m, 1h).")
@click.option("--allow-slow", is_flag=True,
              help=f"Allow runs that draw more than {FAST_VALUES:,} values (minutes to days).")
@click.option("--fail-on", type=click.Choice(list(FAIL_ON)), default="fail", show_default=True,
              help="Exit with status 1 when any verdict reaches this grade: fail (FAIL), suspicious "
                   "(suspicious, very suspicious or FAIL), never (always 0 once the tests ran).")
@seed_space_options
@scale_options(chunk="SEEDS")
@json_option
@plot_option
@force_option
def test_command(generator, battery_name, test_names, sample_size, repeat, drop_bits, low_bits, input_format,
                 rewind, until_fail, max_bytes, max_time, allow_slow, fail_on, seeds, scale, as_json, plot_path,
                 force) -> int:
    """Run a battery of statistical tests on generator GEN: statistic, p-value and verdict per test.

    GEN may also be a stream to read, - (standard input) or FILE, with its word
    size: mygame --dump-rng | rnglab test - --format u32.

    Without --battery, --tests, --n, --repeat or --seeds, the core battery
    runs until it fails (as with --until-fail) on up to 64 MiB (--max-bytes),
    PractRand's default way: it says how much data it examined.

    Verdicts grade min(p, 1 - p): normal, unusual (< 1e-3, outside TestU01's
    window [0.001, 0.999]), suspicious (< 1e-5), very suspicious (< 1e-7),
    FAIL (< 1e-10). The summary lists only the suspect results. A run that draws more
    than 2,000,000,000 values (about two minutes) needs --allow-slow.

    With --until-fail the battery (core unless --battery says otherwise) runs
    at doubling sizes, each stage on the first 1 KiB, 2 KiB, 4 KiB, ... of the
    stream (on the next data of an input read once), every test reading all of
    it as PractRand's do, until a FAIL, the last stage on all of --max-bytes (or
    of a shorter FILE): one line per stage, then the data needed to fail (or "no
    anomaly up to X"); Ctrl-C stops it with what it has. An input that holds
    less than 1 MiB (or --max-bytes), or a stream that ends before --max-bytes,
    is not a pass: status 2.

    With --seeds A..B the battery runs once per seed (each seed as --seed would
    run it), one line per test: its p-values across the seeds and their
    uniformity (Anderson-Darling), which decides the exit status; with
    --until-fail, a run until failure (to --max-bytes) per seed, a line each. --workers N or
    --cluster ADDRESS spread the seeds over dask workers (same p-values);
    --journal FILE records each finished chunk, and the same command resumes.

    Exit status, for scripts and CI: 0 when no verdict reaches the --fail-on grade
    (default: FAIL), 1 when one does, 2 on bad input, 130 when interrupted.
    """
    tests = None if test_names is None else [name.strip() for name in test_names.split(",") if name.strip()]
    if tests == []:
        raise ValueError("--tests names no test; give comma-separated names "
                         "(see the battery in rnglab/data/batteries.toml)")
    plain = battery_name is None and test_names is None and sample_size is None and repeat is None and seeds is None
    max_bytes = max_bytes or (PLAIN_BUDGET if plain and not until_fail else UNTIL_FAIL_BUDGET)
    if max_time is not None and not until_fail:
        raise click.UsageError("--max-time applies to --until-fail")
    until_fail = until_fail or plain
    battery_name = battery_name or ("core" if until_fail else "smoke")
    entries = select_entries(get_battery(battery_name), tests, sample_size, repeat)
    if until_fail and sample_size is not None:
        raise click.UsageError("--until-fail scales every sample size per stage: leave out --n")
    _check_seeds_options(generator, seeds, scale, max_time is not None, plot_path)
    generator = _input_generator(generator, input_format, rewind)
    selection = bit_selection(drop_bits, low_bits)
    selection.width(genuine_bits(generator.make()))
    if seeds is not None:
        from rnglab.cli.over_seeds import run_over_seeds, run_until_fail_over_seeds

        battery = dataclasses.replace(get_battery(battery_name), entries=entries)
        if until_fail:
            return run_until_fail_over_seeds(generator, battery, selection, seeds, scale, max_bytes,
                                             FAIL_ON[fail_on], as_json)
        check_battery_work(entries, allow_slow, seeds.size)
        return run_over_seeds(generator, battery, selection, seeds, scale, FAIL_ON[fail_on], as_json)
    if until_fail:
        from rnglab.cli.until_fail import run_until_fail

        battery = dataclasses.replace(get_battery(battery_name), entries=entries)
        return run_until_fail(generator, battery, selection, max_bytes=max_bytes,
                              max_seconds=None if max_time is None else max_time / 1000,
                              failing_grade=FAIL_ON[fail_on], as_json=as_json, plot_path=plot_path, force=force)
    check_battery_work(entries, allow_slow)
    result = _run_with_progress(generator, battery_name, entries, selection, tests=tests, n=sample_size,
                                repeat=repeat)
    labels = result_labels(result.results)
    if plot_path:
        from rnglab.plot.pvalues import battery_figure

        save_plot(battery_figure(result, labels), plot_path, force)
    subject = generator.make().describe()
    if as_json:
        emit_json(_as_json(subject, result))
    else:
        click.echo(_report(subject, generator.description, result, labels))
    return _exit_status(result, FAIL_ON[fail_on], explain=not as_json)


def _check_seeds_options(generator, seeds, scale, timed: bool, plot_path) -> None:
    """--seeds runs the battery once per seed of a generator (or until it fails); the scale options need it."""
    from rnglab.cli.common import InputName

    if seeds is None:
        if scale.engaged:
            raise click.UsageError("--cluster, --workers, --journal and --chunk spread the seeds of --seeds A..B")
        return
    if isinstance(generator, InputName):
        raise click.UsageError("--seeds seeds a generator: an input (- or FILE) is one stream")
    if timed or plot_path:
        raise click.UsageError("--seeds runs the battery once per seed: --plot and --max-time (a limit that would make "
                               "a seed's result depend on the machine) apply to one run")


def _exit_status(result, failing_grade: str | None, explain: bool) -> int:
    """1 when some verdict reaches ``failing_grade`` (said on standard error if ``explain``), else 0."""
    if failing_grade is None:
        return 0
    level = GRADES.index(failing_grade)
    failing = [r for r in result.results if GRADES.index(grade(r.pvalue)) >= level]
    if not failing:
        return 0
    if explain:
        click.echo(f"{len(failing)} of {len(result.results)} verdicts reached {failing_grade} "
                   f"(--fail-on {failing_grade.lower()}): exit status 1", err=True)
    return 1


def _as_json(subject: dict, result) -> dict:
    rows = []
    for r in result.results:
        row = {"test": r.test, "statistic": r.statistic, "pvalue": r.pvalue, "verdict": grade(r.pvalue),
               "params": r.params}
        if getattr(r, "pvalues", ()):
            row["pvalues"] = list(r.pvalues)
        rows.append(row)
    data = {"generator": subject["generator"], "battery": result.battery, "seed": result.seed,
            "selection": result.selection, "seconds": result.seconds, "results": rows,
            "skipped": [{"test": test, "rule": rule} for test, rule in result.skipped]}
    if "format" in subject:
        data["input"] = {key: subject[key] for key in ("format", "word_bits", "bytes_read", "rewinds")}
    return data


def _report(subject: dict, description: str, result, labels: list[str]) -> str:
    rows = [[name, r.params.get("n"), r.params.get("replications", 1), r.statistic, format_pvalue(r.pvalue),
             grade(r.pvalue)] for name, r in zip(labels, result.results)]
    header = f"{_subject(subject, description, result)}, {_bits(result.selection)}, {result.seconds:.1f} s\n\n"
    table = format_table(["test", "n", "N", "statistic", "p-value", "verdict"], rows)
    skipped = "".join(f"\nskipped {test}: {rule}" for test, rule in result.skipped)
    return header + table + "\n\n" + _summary(result, labels) + skipped


def _subject(subject: dict, description: str, result) -> str:
    """The generator, battery and seed; for an input, its format, the bytes read and the rewinds (as dieharder)."""
    if "format" not in subject:
        return f"generator {subject['generator']}, battery {result.battery}, seed {result.seed}"
    rewound = f", rewound {subject['rewinds']} times" if subject["rewinds"] else ""
    return f"input {description}, battery {result.battery}, {subject['bytes_read']:,} bytes read{rewound}"


def _bits(selection: dict) -> str:
    if selection["low"] is not None:
        return f"low {selection['low']} bits"
    return f"top {selection['drop']} bits dropped" if selection["drop"] else "all bits"


def _summary(result, labels: list[str]) -> str:
    """TestU01's summary: only the results outside the window, or that all passed."""
    low, high = DEFAULT_WINDOW
    suspects = [(name, r) for name, r in zip(labels, result.results) if is_suspect(r.pvalue)]
    if not suspects:
        return f"All {len(labels)} tests passed: every p-value lies in [{low}, {high}]."
    lines = [f"{len(suspects)} of {len(labels)} tests gave p-values outside [{low}, {high}]:"]
    width = max(len(name) for name, _ in suspects)
    lines += [f"  {name.ljust(width)}  {format_pvalue(r.pvalue):>12}  {grade(r.pvalue)}" for name, r in suspects]
    return "\n".join(lines)
