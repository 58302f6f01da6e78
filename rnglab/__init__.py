"""rnglab: a laboratory for random number generator quality and seeding.

The packages are the layers of the data flow, bottom to top (no module imports from a package
above its own; ``tests/test_architecture.py`` checks it):

=========================  ==================================================================
:mod:`rnglab.core`         parameters (``2^31-1``), compiled kernels, result objects, atomic files
:mod:`rnglab.data`         the catalog, the batteries and the named pipelines, as TOML
:mod:`rnglab.parallel`     work cut into chunks: here or on a dask cluster, journaled, resumable
:mod:`rnglab.reduction`    range reduction as arithmetic: the reducer registry, maps, exact counts
:mod:`rnglab.generators`   sources, LCGs, MRGs, the GF(2)-linear family, the catalog, :class:`GeneratorSpec`
:mod:`rnglab.streams`      what tests read of a source: offsets, uniforms, bits, packed words
:mod:`rnglab.algebra`      exact periods, lattices, the spectral test, GF(2) algebra
:mod:`rnglab.empirical`    statistical tests, batteries, run-until-fail, second level, verdicts
:mod:`rnglab.draws`        a generator meets a reducer: bounded draws, their words, their exact bias
:mod:`rnglab.seeds`        seed policies and seed spaces
:mod:`rnglab.shuffles`     shuffle algorithms, their kernels, exact and empirical laws, reach, decks
:mod:`rnglab.recovery`     seed and state recovery: search (here, cluster, GPU), lattices, GF(2)
:mod:`rnglab.plot`         figures
:mod:`rnglab.pages`        Markdown and self-contained HTML pages from Jinja2 templates
:mod:`rnglab.report`       the catalog report
:mod:`rnglab.audit`        one pipeline examined end to end and graded
:mod:`rnglab.cli`          the ``rnglab`` command (thin: parse, resolve, call, format)
=========================  ==================================================================

The names below are re-exported here and imported on first use, so that
``import rnglab`` (and every command of the CLI) pays only for what it touches.
"""

from __future__ import annotations

import importlib
import os
import sys

__version__ = "0.1.0"


def _user_cache_folder() -> str:
    """The user's cache folder: ``$XDG_CACHE_HOME``, ``%LOCALAPPDATA%`` on Windows, else ``~/.cache``."""
    if os.environ.get("XDG_CACHE_HOME"):
        return os.environ["XDG_CACHE_HOME"]
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        return os.environ["LOCALAPPDATA"]
    return os.path.join(os.path.expanduser("~"), ".cache")


def _writable_folder(path: str) -> bool:
    try:
        os.makedirs(path, exist_ok=True)
    except OSError:
        return False
    return os.access(path, os.W_OK | os.X_OK)


def _numba_cache_folder() -> str | None:
    """Where numba should cache rnglab's compiled kernels, or None to leave numba's choice alone.

    numba writes its cache beside the source (``__pycache__``); an installed package
    may be read-only, and numba's own fallback (``~/.cache/numba``) may be too, and
    then every ``cache=True`` kernel raises at import. So when the package folder is
    not writable and ``NUMBA_CACHE_DIR`` is unset, the cache goes to
    ``<user cache>/rnglab/numba``, or, where even that cannot be written, to a fresh
    private temporary folder (compiled code then lasts one run).
    """
    if os.environ.get("NUMBA_CACHE_DIR"):
        return None
    package = os.path.dirname(os.path.abspath(__file__))
    pycache = os.path.join(package, "__pycache__")
    if os.access(package, os.W_OK) and (not os.path.isdir(pycache) or os.access(pycache, os.W_OK)):
        return None
    folder = os.path.join(_user_cache_folder(), "rnglab", "numba")
    if _writable_folder(folder):
        return folder
    import atexit
    import shutil
    import tempfile

    try:
        folder = tempfile.mkdtemp(prefix="rnglab-numba-")
    except OSError:
        return None
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


def _set_numba_cache_folder() -> None:
    """Point numba's cache at :func:`_numba_cache_folder` (before numba is imported, or in its live config)."""
    folder = _numba_cache_folder()
    if folder is None:
        return
    os.environ["NUMBA_CACHE_DIR"] = folder
    config = sys.modules.get("numba.core.config")
    if config is not None and not config.CACHE_DIR:
        config.CACHE_DIR = folder


_set_numba_cache_folder()

#: Public name -> module that defines it.
_EXPORTS = {
    # generators
    "GeneratorSpec": "rnglab.generators", "as_generator": "rnglab.generators", "catalog": "rnglab.generators",
    "make_source": "rnglab.generators", "LCG": "rnglab.generators", "LCGBatch": "rnglab.generators",
    "Output": "rnglab.generators", "Source": "rnglab.generators",
    # reduction and draws
    "REDUCERS": "rnglab.reduction.reducers", "Reducer": "rnglab.reduction.reducers",
    "as_reducer": "rnglab.reduction.reducers", "draw_bounded": "rnglab.draws.bounded",
    "bias": "rnglab.draws.bias", "exact_counts": "rnglab.draws.bias",
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
    "load_function": "rnglab.shuffles.userfunc", "function_fairness": "rnglab.shuffles.userfunc",
    "enumerate_deals": "rnglab.shuffles.paths",
    # seeds and recovery
    "SeedSpace": "rnglab.seeds.space", "parse_seed_space": "rnglab.seeds.space",
    "policy": "rnglab.seeds.policies", "crack": "rnglab.recovery.crack", "observe": "rnglab.recovery.crack",
    "recover_state": "rnglab.recovery.seen_outputs",
}

__all__ = sorted(_EXPORTS)  # noqa: PLE0605 - a list, built from the table above


def __getattr__(name: str):
    """Import a re-exported name from its module on first use (PEP 562)."""
    if name not in _EXPORTS:
        raise AttributeError(f"module 'rnglab' has no attribute {name!r}")
    value = getattr(importlib.import_module(_EXPORTS[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
