"""``rnglab test --until-fail``: the battery at doubling sizes on one stream, a line per stage, until a FAIL."""

from __future__ import annotations

import time

import click

from rnglab.cli.common import emit_json, selected_make
from rnglab.cli.outputs import save_plot
from rnglab.core.params import human_bytes
from rnglab.empirical.verdicts import GRADES


def run_until_fail(generator, battery, selection, *, max_bytes: int, max_seconds: float | None,
                   failing_grade: str | None, as_json: bool, plot_path, force: bool) -> int:
    """Run the stages, print one line each (not with ``--json``), and on Ctrl-C report what was done.

    An input is tested to ``max_bytes`` or, a file, to its end. An input that
    holds less than :data:`~rnglab.empirical.until_fail.LEAST_INPUT_BYTES`
    (or ``max_bytes``, when smaller) is refused, and so is a stream that ends
    before ``max_bytes`` (its producer stopped): after its stages, one line
    and status 2, not a pass.

    Returns the exit status: 130 after an interruption, else 1 when a stage's
    worst verdict reached ``failing_grade``, else 0.
    """
    from rnglab.empirical.until_fail import stages, summarise
    from rnglab.generators.external import InputExhausted
    from rnglab.parallel.cpus import threads_on_one_cpu
    from rnglab.streams.gateway import unselected

    source = selected_make(generator, selection)(generator.default_seed)
    stream = unselected(source)  # the input under a selection of its bits
    allowance, is_file = _allowance(stream, max_bytes), getattr(stream, "length", None) is not None
    done, ended, started = [], "limit", time.perf_counter()
    try:
        with threads_on_one_cpu():  # the tests' threads contend for Python's lock: on one CPU they spend less
            for stage in stages(source, battery, max_bytes=allowance, max_seconds=max_seconds):
                if not done and not as_json:
                    click.echo(f"{source.name}, battery {battery.name} until it fails, on up to "
                               f"{human_bytes(allowance)}: data read, worst verdict, the tests that raised it")
                done.append(stage)
                if not as_json:
                    click.echo(_stage_line(stage, time.perf_counter() - started))
    except KeyboardInterrupt:
        ended = "interrupted"
    except InputExhausted:
        ended = "input ended"
    result = summarise(source, battery, done, ended)
    if ended == "input ended":
        _check_enough(source, result, max_bytes)
    if plot_path and done:
        from rnglab.plot.pvalues import until_fail_figure

        save_plot(until_fail_figure(result), plot_path, force)
    if as_json:
        emit_json(_as_json(result))
    else:
        click.echo(_conclusion(result, is_file and allowance < max_bytes))
    if ended == "input ended" and not is_file:
        raise ValueError(f"{source.name} ended after {source.bytes_read:,} bytes, before the {human_bytes(max_bytes)} "
                         f"of --max-bytes: its producer stopped, so the run is not a pass (to test a finite stream, "
                         f"give it as a FILE or give --max-bytes)")
    if ended == "interrupted":
        return 130
    worst = max((s.worst for s in done), key=GRADES.index, default="normal")
    return int(failing_grade is not None and GRADES.index(worst) >= GRADES.index(failing_grade))


def _allowance(source, max_bytes: int) -> int:
    """The data to test: ``max_bytes``, or all of a shorter file; a file too short to test is refused."""
    from rnglab.empirical.until_fail import LEAST_INPUT_BYTES

    length = getattr(source, "length", None)
    if length is None or length >= max_bytes:
        return max_bytes
    needed, whole = min(max_bytes, LEAST_INPUT_BYTES), length - length % (source.word_bits // 8)
    if whole < needed:
        raise ValueError(_too_little(source.name, length, needed))
    return whole


def _check_enough(source, result, max_bytes: int) -> None:
    """Refuse a stream that ended before the least data to test (nothing of the battery was tested)."""
    from rnglab.empirical.until_fail import LEAST_INPUT_BYTES

    needed = min(max_bytes, LEAST_INPUT_BYTES)
    if source.bytes_read < needed:
        raise ValueError(_too_little(source.name, source.bytes_read, needed))


def _too_little(name: str, read: int, needed: int) -> str:
    return (f"{name} holds {read:,} bytes; --until-fail needs at least {needed:,} ({human_bytes(needed)}): below "
            f"1 MiB most tests of a battery are refused by their validity rules, and a stream that ends "
            f"early (a generator that crashed) is not a pass")


def _stage_line(stage, elapsed: float) -> str:
    rate = stage.bytes / elapsed if elapsed > 0 else 0.0
    tests = ", ".join(stage.worst_tests[:3]) + (f" and {len(stage.worst_tests) - 3} more"
                                                if len(stage.worst_tests) > 3 else "")
    return (f"  {human_bytes(stage.bytes):>10}  {stage.worst:<15} {tests:<50} {elapsed:8.1f} s  "
            f"{human_bytes(int(rate))}/s")


def _conclusion(result, whole_input: bool = False) -> str:
    if result.bytes_to_fail is not None:
        return f"data needed to fail: {human_bytes(result.bytes_to_fail)} ({', '.join(result.stages[-1].worst_tests)})"
    why = {"interrupted": "interrupted", "input ended": "the input ended",
           "limit": "the whole input" if whole_input else "a limit was reached"}
    if not result.stages:
        return f"no anomaly up to 0 bytes ({why[result.stopped]})"
    last = result.stages[-1]
    read = ("every test below its cap read it" if last.bytes_every >= 0.97 * last.bytes else
            f"every test below its cap read at least {human_bytes(last.bytes_every)} ({last.least_reader})")
    return f"no anomaly up to {human_bytes(last.bytes)} ({why[result.stopped]}); {read}"


def _as_json(result) -> dict:
    return {"generator": result.generator, "seed": result.seed, "battery": result.battery, "stopped": result.stopped,
            "bytes_to_fail": result.bytes_to_fail,
            "stages": [{"bytes": s.bytes, "bytes_every": s.bytes_every, "least_reader": s.least_reader,
                        "seconds": s.seconds, "worst": s.worst, "tests": list(s.worst_tests),
                        "worst_bytes": s.worst_bytes,
                        "skipped": [{"test": test, "reason": reason} for test, reason in s.skipped],
                        "results": [{"label": label, "statistic": r.statistic, "pvalue": r.pvalue}
                                    for label, r in zip(s.labels, s.results)]}
                       for s in result.stages]}
