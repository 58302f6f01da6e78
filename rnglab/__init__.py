"""rnglab: a laboratory for random number generator quality and seeding.

The packages follow the data flow, left to right (no module imports from one to its right):

=======================  ==================================================================
:mod:`rnglab.params`      safe parsing of integer expressions (``2^31-1``)
:mod:`rnglab.reduction`   the reducer registry (pure maps), bounded draws, exact bias
:mod:`rnglab.generators`  sources, LCGs, adapters, the catalog and :class:`GeneratorSpec`
:mod:`rnglab.stream`      the gateway: offsets, uniforms, bits, packed words
:mod:`rnglab.algebra`     exact periods, the walk, lattice reduction, the spectral test
:mod:`rnglab.empirical`   statistical tests, batteries, second level, verdicts
:mod:`rnglab.shuffles`    draws, steps, the shuffle registry, kernels, fairness, reach, deals
:mod:`rnglab.seeds`       seed policies, seed spaces, seed and state recovery
:mod:`rnglab.report`      the catalog report; :mod:`rnglab.plot` figures
:mod:`rnglab.cli`         the ``rnglab`` command (thin: parse, call, format)
=======================  ==================================================================

The names below are re-exported here and imported on first use, so that
``import rnglab`` (and every command of the CLI) pays only for what it touches.
"""

from __future__ import annotations

import importlib

__version__ = "0.1.0"

#: Public name -> module that defines it.
_EXPORTS = {
    # generators
    "GeneratorSpec": "rnglab.generators", "as_generator": "rnglab.generators", "catalog": "rnglab.generators",
    "make_source": "rnglab.generators", "LCG": "rnglab.generators", "LCGBatch": "rnglab.generators",
    "Output": "rnglab.generators", "Source": "rnglab.generators",
    # reduction
    "REDUCERS": "rnglab.reduction.reducers", "Reducer": "rnglab.reduction.reducers",
    "as_reducer": "rnglab.reduction.reducers", "draw_bounded": "rnglab.reduction.draw",
    "bias": "rnglab.reduction.bias", "exact_counts": "rnglab.reduction.bias",
    # algebra
    "lcg_period": "rnglab.algebra.period", "spectral_test": "rnglab.algebra.spectral",
    "search_multipliers": "rnglab.algebra.multipliers",
    # empirical
    "run_battery": "rnglab.empirical.battery",
    # shuffles
    "SHUFFLES": "rnglab.shuffles.algorithms", "Shuffle": "rnglab.shuffles.algorithms",
    "make_shuffle": "rnglab.shuffles.algorithms", "shuffle": "rnglab.shuffles.algorithms",
    "shuffle_in_turn": "rnglab.shuffles.algorithms", "shuffle_seeds": "rnglab.shuffles.algorithms",
    "exact_fairness": "rnglab.shuffles.fairness", "empirical_fairness": "rnglab.shuffles.fairness",
    "reachable_deals": "rnglab.shuffles.reach", "game_cycle": "rnglab.shuffles.reach",
    # seeds
    "SeedSpace": "rnglab.seeds.space", "parse_seed_space": "rnglab.seeds.space",
    "policy": "rnglab.seeds.policies", "crack": "rnglab.seeds.crack", "observe": "rnglab.seeds.crack",
    "recover_state": "rnglab.seeds.recover",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    """Import a re-exported name from its module on first use (PEP 562)."""
    if name not in _EXPORTS:
        raise AttributeError(f"module 'rnglab' has no attribute {name!r}")
    value = getattr(importlib.import_module(_EXPORTS[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
