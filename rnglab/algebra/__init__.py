"""The LCG's algebra: exact periods from number theory, the period walk that confirms them, exact
lattice reduction, Knuth's spectral test and the multiplier search built on it.

Modules: :mod:`~rnglab.algebra.numtheory` (factoring, orders, primality),
:mod:`~rnglab.algebra.period` (periods and tails of every seed),
:mod:`~rnglab.algebra.walk` (stepping around a cycle),
:mod:`~rnglab.algebra.lattice` (integral LLL, enumeration of short vectors),
:mod:`~rnglab.algebra.spectral` (nu_t, S_t, hyperplanes),
:mod:`~rnglab.algebra.multipliers` (the search for good multipliers).
"""
