"""Range reduction: the reducer registry (:mod:`~rnglab.reduction.reducers`: one entry per method,
carrying its map from :mod:`~rnglab.reduction.maps`, its domain rule and its exact counts from
:mod:`~rnglab.reduction.counts`), bounded draws from a source (:mod:`~rnglab.reduction.draw`) and the
bias of each method with its detectability (:mod:`~rnglab.reduction.bias`).

The maps, counts and registry read integers only, never a source, so they sit under the
generators: a generator's own bounded call is one of the registry's entries.
"""
