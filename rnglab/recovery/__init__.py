"""Seed and state recovery: from the cards or outputs an observer saw back to the generator's state.

By search over a seed space (:mod:`~rnglab.recovery.crack`, its compiled kernel
:mod:`~rnglab.recovery.search_kernels`, here, on a dask cluster or a GPU:
:mod:`~rnglab.recovery.distributed`, :mod:`~rnglab.recovery.gpu`); by lattice reduction for LCGs
(:mod:`~rnglab.recovery.clues` turns what was seen into linear constraints,
:mod:`~rnglab.recovery.lattice` solves them, :mod:`~rnglab.recovery.dealt` reads a deal's cards as
bounded draws, :mod:`~rnglab.recovery.seen_outputs` takes outputs seen directly); and by linear
algebra over GF(2) for the xorshift family, MT19937 and V8's ``Math.random``
(:mod:`~rnglab.recovery.linear`).
"""
