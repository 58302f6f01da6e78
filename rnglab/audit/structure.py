"""The questions answered exactly, from the pipeline's structure: reachability, scaling, shuffle law.

Every number comes from the library: :func:`rnglab.shuffles.reach.reach_bound`
and :func:`~rnglab.shuffles.reach.reachable_deals` (deals the seeds reach),
:func:`rnglab.draws.bias.bias` (the reducer's exact law at each bound),
:func:`rnglab.shuffles.fairness.exact_fairness` and
:func:`rnglab.shuffles.userfunc.function_fairness` (the shuffle's exact law).
"""

from __future__ import annotations

import math
from dataclasses import replace

from rnglab.audit.facts import OS_SEED_BITS
from rnglab.audit.figures import png
from rnglab.audit.grades import RULES, Finding, finding
from rnglab.audit.target import AUDIT_SEED, Target
from rnglab.draws.bias import bias
from rnglab.pages.numbers import power, probability
from rnglab.plot.shuffle import position_heatmap
from rnglab.seeds.space import SeedSpace, policy_space, seed_range_space
from rnglab.shuffles.algorithms import FISHER_YATES
from rnglab.shuffles.fairness import IDEAL_ONLY, exact_fairness, position_chi_square
from rnglab.shuffles.paths import BeyondEnumeration
from rnglab.shuffles.reach import (
    batched,
    bits_for_every_deal,
    largest_period,
    reach_bound,
    reachable_deals,
    state_count,
)
from rnglab.shuffles.runtime import deitel_grid
from rnglab.shuffles.userfunc import function_fairness, function_position_counts

#: Most seeds enumerated to count the distinct deals exactly (beyond: the bound min(seeds, states, n!)): seeds dealt in
#: compiled batches (an LCG, glibc's rand(), an MRG: :func:`~rnglab.shuffles.reach.batched`), and seeds dealt by one
#: generator object each (numpy's, CPython's: about 2,000 seeds a second on the 2-core machine, so 2^14 take
#: seconds and a day of time(0) seeds, 86,400, about 40 s). Counted in seeds, not timed: the same decision on any
#: machine.
ENUMERATED_SEEDS, ENUMERATED_SOURCE_SEEDS = 2**20, 2**14
#: Largest deck for which a user's function is enumerated exactly.
FUNCTION_N = 5
#: Calls of a user's function for its position chi-square when its law cannot be enumerated, and the p-value
#: below which a bias is reported.
EMPIRICAL_SHUFFLES, EMPIRICAL_ALPHA = 20_000, 0.001


def os_seed_count(target: Target) -> int:
    """Seeds of a policy that is not enumerable (``os``): 2^bits for a library that draws that many bits of OS
    entropy to seed this generator (:data:`~rnglab.audit.facts.OS_SEED_BITS`: numpy's SeedSequence, 128 bits),
    else the policy's own count."""
    if target.seeding.name == "os" and target.generator.name in OS_SEED_BITS:
        return 2 ** OS_SEED_BITS[target.generator.name][0]
    return target.seeding.count(target.window)


def seed_space(target: Target) -> SeedSpace:
    """The seeds the target's policy gives over its window (``os``: :func:`os_seed_count`, not enumerable)."""
    if target.seeding.enumerable:
        return policy_space(target.seeding, target.window)
    count = os_seed_count(target)
    return seed_range_space([(0, count)], f"{target.seeding.name}: {power(count)} seeds")


def state_bits(target: Target) -> float:
    """Bits of the generator's state: log2 of :func:`~rnglab.shuffles.reach.state_count` (nan when unknown)."""
    states = state_count(target.generator)
    return math.log2(states) if states else math.nan


def period_of(target: Target) -> int | None:
    """The generator's period (:func:`~rnglab.shuffles.reach.largest_period`): number theory for an LCG or an MRG,
    the catalog's published figure otherwise."""
    return largest_period(target.generator)


def distinct_states(target: Target, seeds: int) -> int:
    """The distinct starting states ``seeds`` seeds can give: at most the seeds, and at most the generator's
    states (:func:`~rnglab.shuffles.reach.state_count`; the seeds when unknown).

    Seeding is a function from seeds to states, so no more streams, and no more deals, can follow from the seeds
    than there are states: CPython's ``random.seed()`` accepts 2^19968 seeds (624 words from the OS), which
    MT19937 maps into its 2^19937 - 1 states.
    """
    states = state_count(target.generator)
    return seeds if states is None else min(seeds, states)


def reachability(target: Target) -> Finding:
    """Deals the seed space can reach against ``n!`` (counted exactly for up to :func:`enumerated_seeds`)."""
    space, shuffle = seed_space(target), target.shuffle or FISHER_YATES
    if target.seeding.enumerable and target.shuffle is not None and space.size <= enumerated_seeds(target):
        result = reachable_deals(target.generator, space, target.n, shuffle, target.reducer)
    else:
        result = reach_bound(target.generator, space, target.n, shuffle, target.reducer)
    states = distinct_states(target, result.seeds)
    reached = result.distinct if result.exact else min(result.bound, states)  # not the period: see state_count
    facts = [["seed space", space.label], ["seeds accepted", power(result.seeds)],
             ["distinct starting states (at most the generator's states)", power(states)],
             ["generator period", power(period_of(target)) if period_of(target) else "unknown"],
             ["state bits", f"{state_bits(target):g}"],
             ["distinct deals reached" if result.exact else "deals reachable (bound min(states, n!))",
              power(reached)],
             [f"{target.n}!", power(result.n_factorial)],
             ["fraction reachable", probability(reached / result.n_factorial if reached else 0.0)],
             ["state bits needed to reach every deal", str(bits_for_every_deal(target.n))]]
    notes = [] if target.shuffle is not None else [("with a user function the bound min(seeds, states, n!) is given: "
                                                    "it does not depend on the shuffle")]
    value = math.log2(reached) if reached else 0.0
    notes += _reachability_notes(target, value, math.log2(result.n_factorial))
    return finding("reachability", value, f"{power(reached)} of {power(result.n_factorial)} deals reachable",
                   facts, notes, pass_at=math.log2(result.n_factorial))


def _reachability_notes(target: Target, bits: float, deal_bits: float) -> list[str]:
    """Why the grade: not every deal reachable, by how much, and what 128 bits of seeding mean."""
    notes = []
    if target.seeding.name == "os" and target.generator.name in OS_SEED_BITS:
        notes.append(f"seeds from the OS: {OS_SEED_BITS[target.generator.name][1]}")
    if bits < deal_bits:
        notes.append(f"not every deal is reachable: at most a fraction 2^{bits - deal_bits:.2f} of the "
                     f"{target.n}! deals can ever be dealt")
    if deal_bits > bits >= RULES["reachability"].warn_at:
        notes.append("128 bits is the security strength NIST SP 800-57 Part 1 Rev. 5 (Table 4) asks of anything "
                     "protected beyond 2030 (the DRBGs of NIST SP 800-90A Rev. 1 provide up to 256): no one can "
                     "search 2^128 seeds to learn which deals are missing")
    return notes


def enumerated_seeds(target: Target) -> int:
    """The most seeds :func:`reachability` deals one by one to count the distinct deals exactly."""
    return ENUMERATED_SEEDS if batched(target.generator) else ENUMERATED_SOURCE_SEEDS


def drawn_bounds(target: Target) -> list[int]:
    """The bounds the shuffle draws below (its program's steps; Deitel's rows and columns; 2..n for a function)."""
    n, shuffle = target.n, target.shuffle
    if shuffle is not None and shuffle.name == "deitel":
        return sorted(set(deitel_grid(n)) - {1})
    if shuffle is not None and shuffle.name == "draw-unused":
        return [n]
    program = shuffle.program(n) if shuffle is not None else None
    if program is None:
        return list(range(2, n + 1))
    return sorted({bound for step in program for bound in step.bounds(n)} - {1})


def scaling(target: Target, range_size: int) -> Finding:
    """The reducer's exact bias at every bound the shuffle draws, on the generator's ``R`` output values."""
    results = [bias(target.reducer, bound, range_size) for bound in drawn_bounds(target)]
    biased = [r for r in results if r.ratio != 1]
    worst = max(biased, key=lambda r: r.ratio or math.inf, default=None)
    detect = min((r.draws_to_detect for r in biased if r.draws_to_detect), default=None)
    value = math.inf if not biased else math.log2(detect) if detect else 0.0
    rows = [[str(r.n), "unreachable outputs" if r.ratio is None else f"{float(r.ratio):.9f}",
             f"{float(r.tv_distance):.3e}", power(r.draws_to_detect) if r.draws_to_detect else "unbiased"]
            for r in results]
    facts = [["reducer", target.reducer.name], ["source values R", power(range_size)],
             ["bounds drawn", _bound_list(drawn_bounds(target))],
             ["worst ratio max p / min p", "1 (exact)" if worst is None else
              (f"{float(worst.ratio):.9f} at bound {worst.n}" if worst.ratio else f"outputs unreachable at {worst.n}")],
             ["largest total variation", f"{max(float(r.tv_distance) for r in results):.3e}"],
             ["fewest draws to detect (chi-square, 1%, power 0.9)", power(detect) if detect else "never (unbiased)"]]
    headline = "every bound exactly uniform" if not biased else f"bias detectable after {power(detect)} draws" \
        if detect else "outputs unreachable"
    return finding("scaling", value, headline, facts, table=(["bound", "max p / min p", "TV distance",
                                                                "draws to detect"], rows))


def empirical_shuffle_law(target: Target, why: str) -> Finding:
    """The shuffle law of a user's function that cannot be enumerated (``why``), from :data:`EMPIRICAL_SHUFFLES` of
    its calls on the whole deck (the generator's stream, seed :data:`AUDIT_SEED`): the position chi-square.

    The rule's number (the fewest shuffles that detect the bias) is out of reach, so the grade is stated, with the
    p-value of the chi-square as the number that decided it: a bias seen (p below :data:`EMPIRICAL_ALPHA`) fails;
    none seen warns, because only a bias large enough to be seen in that many shuffles is excluded.
    """
    counts = function_position_counts(target.function, target.n, target.generator.make(AUDIT_SEED), target.reducer,
                                      EMPIRICAL_SHUFFLES, label=target.function_name)
    result = position_chi_square(counts, target.function_name, f"{target.generator.name} seed {AUDIT_SEED}")
    seen = result.pvalue < EMPIRICAL_ALPHA
    number = (f"p-value of the position chi-square over {EMPIRICAL_SHUFFLES:,} calls on {target.n} cards "
              f"(not exact: a bias is reported when p < {EMPIRICAL_ALPHA})")
    headline = (f"position bias seen in {power(EMPIRICAL_SHUFFLES)} shuffles (p = {result.pvalue:.3g})" if seen else
                f"no position bias seen in {power(EMPIRICAL_SHUFFLES)} shuffles (exact law out of reach)")
    facts = [["deck examined", f"{target.n} cards, {EMPIRICAL_SHUFFLES:,} calls of the function (empirical)"],
             ["why not exact", why], ["source", result.source],
             ["position chi-square", f"{result.statistic:.6g} on {result.df} df: p = {result.pvalue:.4g}"],
             ["largest position deviation |P - 1/n|", f"{result.position_max_deviation:.3e}"],
             ["confidence", (f"a bias is reported when p < {EMPIRICAL_ALPHA}; a bias too small to be seen in "
                             f"{EMPIRICAL_SHUFFLES:,} shuffles is not excluded")]]
    return finding("shuffle", result.pvalue, headline, facts, stated=("fail" if seen else "warn", number),
                   figure=png(position_heatmap, counts / EMPIRICAL_SHUFFLES, f"position frequencies, {target.n} cards"),
                   caption=f"n f(card i at position j) over {EMPIRICAL_SHUFFLES:,} calls of the function: "
                           "about 1 everywhere for a uniform shuffle")


def _bound_list(bounds: list[int]) -> str:
    return ", ".join(map(str, bounds)) if len(bounds) <= 6 else f"{bounds[0]}, {bounds[1]}, ..., {bounds[-1]}"


def shuffle_law(target: Target, range_size: int) -> Finding:
    """The shuffle's exact law through the reducer on ``R`` ideal values (any ``R``: the reducer's exact counts).

    Where that law is out of exact reach (the work budget of the position matrix, a reducer's domain), the law
    under an ideal source is given instead, and the finding says so: it does not include the reducer's bias.
    """
    ideal_only = None
    if target.shuffle is None:
        n = min(target.n, FUNCTION_N)
        try:
            result = function_fairness(target.function, n, label=target.function_name)
        except BeyondEnumeration as beyond:
            return empirical_shuffle_law(target, str(beyond))
    else:
        n = target.n
        try:
            result = exact_fairness(target.shuffle, n, reducer=target.reducer, range_size=range_size)
        except ValueError as beyond:  # the reducer's weights are out of exact reach for this shuffle
            result = exact_fairness(target.shuffle, n)
            if target.reducer.unbiased:  # every draw exactly uniform: the ideal law is the law through the reducer
                result = replace(result, source=f"ideal source ({target.reducer.name} draws are exactly uniform: "
                                                "the same law)")
            else:
                ideal_only = str(beyond)
    return _shuffle_law_finding(target, n, result, ideal_only)


def _shuffle_law_finding(target: Target, n: int, result, ideal_only: str | None) -> Finding:
    """The finding of an exact law; ``ideal_only`` says why the law is that of an ideal source (no reducer).

    A law uniform only under the ideal source warns (at the rule's warn threshold), as a law out of reach does
    (:func:`empirical_shuffle_law`): the reducer's bias is not excluded.
    """
    detect = result.shuffles_to_detect
    deviation = result.position_max_deviation
    value = math.inf if not deviation else math.log2(detect) if detect else 0.0
    if ideal_only is not None and not deviation:  # uniform only without the reducer: not shown uniform through it
        value = RULES["shuffle"].warn_at
    source = result.source if ideal_only is None else IDEAL_ONLY
    facts = [["deck examined", f"{n} cards" + ("" if n == target.n else f" (the function is enumerated up to "
                                                                         f"{FUNCTION_N})")],
             ["source", source]] + ([["why not through the reducer", ideal_only]] if ideal_only else []) + [
             ["deals reached by the law", power(result.reachable) if result.reachable is not None else "not computed"],
             ["total variation to uniform", f"{float(result.tv_distance):.3e}" if result.tv_distance is not None
              else "not computed (n too large)"],
             ["largest position deviation |P - 1/n|", f"{float(deviation):.3e}" if deviation is not None else "-"],
             ["shuffles to detect (position chi-square)", power(detect) if detect else
              "never (uniform)" if ideal_only is None else "never under an ideal source"]]
    if ideal_only is not None:
        headline = (f"position bias detectable after {power(detect)} shuffles" if deviation else
                    "no position bias") + f" {IDEAL_ONLY}"
    else:
        headline = f"position bias detectable after {power(detect)} shuffles" if deviation else \
            "position matrix exactly uniform"
    matrix = result.position_matrix
    figure = None if matrix is None else png(position_heatmap, matrix, f"position matrix, {n} cards")
    return finding("shuffle", value, headline, facts, figure=figure,
                   caption=f"n P(card i at position j) for {n} cards, exact ({source}): "
                           "1 everywhere (one flat colour) for a uniform shuffle")
