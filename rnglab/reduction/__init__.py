"""Range reduction: the reducer registry (:mod:`~rnglab.reduction.reducers`: one entry per method,
with its map, its domain and its compiled form), bounded draws from a source
(:mod:`~rnglab.reduction.draw`) and the exact bias of each method (:mod:`~rnglab.reduction.bias`).

The registry reads integers only, never a source, so it sits under the generators: a
generator's own bounded call is one of its entries.
"""
