"""Where a generator meets a reducer: bounded draws from a source, and what they cost and bias.

:mod:`~rnglab.draws.bounded` draws integers in ``[0, n)`` from any source through a
:class:`~rnglab.reduction.reducers.Reducer`, one rejection engine for every redrawing method;
:mod:`~rnglab.draws.words` chooses the words a draw reads (whole outputs or numpy's 32-bit halves);
:mod:`~rnglab.draws.compact` and :mod:`~rnglab.draws.direct` are the compiled paths (a chunk of
raw outputs, a numpy BitGenerator), and :mod:`~rnglab.draws.lcg` one bounded draw of an LCG in compiled
code (the deals' and the seed search's, on CPU and GPU), all through the reducer's one-draw map; :mod:`~rnglab.draws.bias` gives each method's exact bias on a
generator's outputs and how many draws detect it.
"""
