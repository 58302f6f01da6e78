"""Run every analysis that applies to a pipeline, section after section, and collect the graded findings."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from rnglab.audit.attack import demo_seed, demonstration, repeatability, unpredictability
from rnglab.audit.empirical import AUDIT_BATTERY, UNTIL_FAIL_BYTES, raw_output
from rnglab.audit.grades import RULES, Finding, overall
from rnglab.audit.structure import reachability, scaling, shuffle_law
from rnglab.audit.target import AUDIT_SEED, Target
from rnglab.core.results import Result
from rnglab.empirical.battery import Battery, batteries

#: The fields of an audit's JSON that are measurements of the machine, not findings: they differ from run to run,
#: everything else (every grade and the number that decides it) is the same for the same pipeline (and window).
MEASURED_FIELDS = ("seconds", "findings[*].measured")
#: What a passing audit does not establish.
NOT_ESTABLISHED = (
    "It is not a certification: no test lab (GLI, iTech Labs, BMM) or regulator has reviewed this report.",
    ("It examines the pipeline as described (generator, seeding, reducer, shuffle, deck), not the deployed code: "
    "a program that differs from its description is not covered."),
    ("Statistical tests can show a defect, never its absence: passing them bounds the bias they can see at these "
    "sample sizes, no more."),
    ("The brute-force time is the states to try at one cost per seed, the fastest seed search per core measured "
    "(bench/results/seed_search.md), projected to clusters on paper (at the efficiency a local dask cluster "
    "reached); GPUs and better attacks are faster."),
    ("Lattice recovery is named where it applies, not run; GF(2) recovery is run on one hidden state, from raw "
    "outputs (or the cards of a V8 deal), not from the cards of every shuffle; operational secrets (server "
    "access, logs, side channels) are out of scope."),
)


@dataclass(frozen=True)
class Audit(Result):
    """A pipeline's audit.

    Attributes
    ----------
    pipeline : dict
        The parts audited, by name (:meth:`Target.describe`).
    verdict : str
        The worst grade of the findings.
    findings : list of Finding
        In :data:`~rnglab.audit.grades.RULES` order.
    seconds : dict
        Seconds each section took (a measurement).
    seed : int
        The seed of every stream read.
    not_established : list of str
    demonstration : dict or None
        A real deal and the ``rnglab crack`` command that finds its seed
        (:func:`~rnglab.audit.attack.demonstration`; ``None`` for a user's function).
    """

    pipeline: dict
    verdict: str
    findings: list
    seconds: dict
    seed: int
    not_established: list
    demonstration: dict | None = None


def sections(target: Target, battery: Battery,
             until_fail_bytes: int = UNTIL_FAIL_BYTES) -> dict[str, Callable[[], Finding]]:
    """The analyses by question, each a call that returns its :class:`Finding`."""
    range_size = target.generator.make(AUDIT_SEED).range_size
    return {"reachability": lambda: reachability(target),
            "scaling": lambda: scaling(target, range_size),
            "shuffle": lambda: shuffle_law(target, range_size),
            "unpredictability": lambda: unpredictability(target),
            "repeatability": lambda: repeatability(target),
            "raw": lambda: raw_output(target, battery, until_fail_bytes)}


def audit(target: Target, *, battery: Battery | None = None, until_fail_bytes: int = UNTIL_FAIL_BYTES,
          progress: Callable[[str, int, int], None] | None = None) -> Audit:
    """Examine ``target`` end to end: six questions, each graded with the number that decides it.

    The raw output is tested with ``battery`` (default: :data:`AUDIT_BATTERY`).

    Every section is fixed work (run-until-fail reads at most ``until_fail_bytes``; 0: not run), so the
    findings are the same on every run but for the :data:`MEASURED_FIELDS`.
    ``progress(title, done, total)`` is called before each section (``done``
    sections finished of ``total``) and once at the end.
    """
    findings: list[Finding] = []
    seconds = {}
    work = sections(target, battery or batteries()[AUDIT_BATTERY], until_fail_bytes)
    for done, (question, run) in enumerate(work.items()):
        if progress:
            progress(RULES[question].title, done, len(work))
        start = time.perf_counter()
        findings.append(run())
        seconds[question] = round(time.perf_counter() - start, 3)
    if progress:
        progress("done", len(work), len(work))
    return Audit(target.describe(), overall(findings), findings, seconds, AUDIT_SEED, list(NOT_ESTABLISHED),
                 demonstration(target, demo_seed(target)))
