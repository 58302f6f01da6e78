"""Grades: pass, warn or fail, each from one number against the rules of one table (:data:`RULES`).

The audit grades six questions. Each is decided by one number, compared with
two thresholds: at or beyond ``pass_at`` it passes, at or beyond ``warn_at`` it
warns, otherwise it fails (for a number where larger is better; ``lower_is_better``
reverses the comparisons). Keeping the thresholds in one table makes them easy
to read, cite and change.

Where the rule's number is out of reach (a shuffle law known only from samples),
the caller states the grade and gives the number that did decide it, named
(:func:`finding`'s ``stated``): the finding never carries a threshold in place
of a measurement.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rnglab.core.results import Result
from rnglab.pages import GRADES


@dataclass(frozen=True)
class Rule:
    """How one question is graded: the deciding number, its unit, and the two thresholds."""

    question: str
    title: str
    number: str
    pass_at: float
    """``nan`` where it depends on the deck (log2 n!, given to :meth:`grade`)."""
    warn_at: float
    lower_is_better: bool
    text: str

    def grade(self, value: float, pass_at: float | None = None) -> str:
        """``pass``, ``warn`` or ``fail`` for ``value`` (``pass_at`` where the threshold depends on the deck)."""
        better = (lambda a, b: a <= b) if self.lower_is_better else (lambda a, b: a >= b)
        threshold = self.pass_at if pass_at is None else pass_at
        return "pass" if better(value, threshold) else "warn" if better(value, self.warn_at) else "fail"


#: The rules, one per question, in report order. Numbers are log2 where marked "bits".
RULES = {rule.question: rule for rule in (
    Rule("reachability", "Reachability", "log2 of the deals the seeds and states can reach (bits)",
         float("nan"), 128.0, False,
         "pass when every deal can be reached (reachable >= n!); warn when fewer can but the seeding gives at "
         "least 128 bits (2^128 reachable deals: which ones is unknowable without searching 2^128 seeds); "
         "fail below 2^128"),
    Rule("scaling", "Scaling (range reduction)", "log2 of the fewest draws that detect the reducer's bias (bits)",
         float("inf"), 40.0, False,
         "pass when every bound the shuffle draws is exactly uniform; warn when the bias needs at least 2^40 draws "
         "to detect (beyond any test sample); fail when fewer suffice"),
    Rule("shuffle", "Shuffle law", "log2 of the fewest shuffles that detect a position bias (bits)",
         float("inf"), 40.0, False,
         "pass when the position matrix is exactly uniform; warn when its bias needs at least 2^40 shuffles "
         "to detect; fail when fewer suffice"),
    Rule("unpredictability", "Unpredictability", "log2 of the seconds one core needs to try every seed (bits)",
         42.0, 25.0, False,
         "pass when a brute-force search of the seeds takes one core at least 2^42 s (139,000 years) and the "
         "source is cryptographic (the OS's: any other generator warns at best); warn from 2^25 s (about a "
         "year) of brute force or of a published attack (PCG64's); fail below, or when the state is recoverable "
         "from outputs (an LCG with m <= 2^128: lattice methods; a generator linear over GF(2): elimination)"),
    Rule("repeatability", "Non-repeatability", "chance that two of the tables started in the window share a seed",
         1e-9, 1e-3, True,
         "pass at or below 10^-9; warn at or below 10^-3; fail above (or when a day's draws exceed the period)"),
    Rule("raw", "Raw output", "smallest tail distance min(p, 1-p) over the battery and the scaled chi-square",
         1e-7, 1e-10, False,
         "pass when no p-value is beyond 10^-7 from either end (PractRand's 'very suspicious'); warn down to "
         "10^-10; fail beyond (rnglab's FAIL)"),
)}


@dataclass(frozen=True)
class Finding(Result):
    """The answer to one question.

    Attributes
    ----------
    question : str
        The key of its rule in :data:`RULES` (and the anchor of its section).
    grade : str
        ``pass``, ``warn`` or ``fail``.
    value : float
        The number that decides it: the rule's, or the one named by ``number``.
    number : str
        What ``value`` is: the rule's number, or where the grade was stated (the rule's number out of reach)
        the number that decided it instead.
    headline : str
        That number in words.
    rule : str
    facts : list of [label, value]
        The evidence, in report order (values already formatted): the same on every run of the same audit.
    measured : list of [label, value]
        Measurements of this machine (seconds), which differ from run to run; shown apart from the facts.
    notes : list of str
    table : dict or None
        ``{"headers": [...], "rows": [[...]]}``: a detail table, when the section has one.
    figure : str or None
        A PNG, base64-encoded, when the section has one.
    caption : str
    """

    question: str
    title: str
    grade: str
    value: float
    number: str
    headline: str
    rule: str
    facts: list
    notes: list
    measured: list = field(default_factory=list)
    table: dict | None = None
    figure: str | None = None
    caption: str = ""

    @property
    def symbol(self) -> str:
        """The grade's symbol (readable without colour)."""
        return GRADES[self.grade]


def finding(question: str, value: float, headline: str, facts: list, notes: list | None = None, *,
            pass_at: float | None = None, fails: bool = False, stated: tuple[str, str] | None = None,
            measured: list | None = None, table: tuple | None = None, figure: str | None = None,
            caption: str = "") -> Finding:
    """A :class:`Finding` graded by its rule.

    ``fails``: the rule's exception applies, the grade is ``fail``. ``stated``: ``(grade, number)`` where the
    rule's number is out of reach: the grade the caller decided, and what ``value`` is (the number that decided it).
    """
    rule = RULES[question]
    grade, number = stated or ("fail" if fails else rule.grade(value, pass_at), rule.number)
    return Finding(question, rule.title, grade, value, number, headline, rule.text, facts, notes or [],
                   measured or [], {"headers": table[0], "rows": table[1]} if table else None, figure, caption)


def overall(findings) -> str:
    """The worst grade of ``findings``."""
    order = list(GRADES)
    return max((f.grade for f in findings), key=order.index, default="pass")
