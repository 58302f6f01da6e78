"""Range reduction as pure arithmetic: the ways programs turn an integer in ``[0, R)`` into one in ``[0, n)``.

The reducer registry (:mod:`~rnglab.reduction.reducers`) has one entry per method, carrying its map
(:mod:`~rnglab.reduction.maps`), its domain rule and its exact counts (:mod:`~rnglab.reduction.counts`).
They read integers only, never a source, so they sit under the generators: a generator's own bounded
call is one of the registry's entries. Drawing from a source through a reducer is :mod:`rnglab.draws`.
"""
