"""The foundation every layer stands on, importing nothing from rnglab.

:mod:`~rnglab.core.params` parses integer expressions (``2^31-1``) safely,
:mod:`~rnglab.core.compiled` compiles numba kernels on first call,
:mod:`~rnglab.core.results` holds the frozen result objects and their JSON, and
:mod:`~rnglab.core.fileio` writes files atomically, never over an existing one,
:mod:`~rnglab.core.registry` turns a name into its entry (one lookup, one error for an unknown name), and
:mod:`~rnglab.core.rates` holds the work rates measured for the refusals of work beyond a budget.
"""
