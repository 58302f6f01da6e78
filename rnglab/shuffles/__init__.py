"""Shuffles and what they do to deals.

:mod:`~rnglab.shuffles.draws` serves bounded values from a generator (numpy's
Generator-over-BitGenerator layer, one rejection engine); :mod:`~rnglab.shuffles.steps`
holds the steps shuffle programs are made of; :mod:`~rnglab.shuffles.algorithms` is the
shuffle registry (a swap shuffle is one entry with its program); :mod:`~rnglab.shuffles.kernels`
deals swap programs compiled on LCG lanes (one kernel per reducer); :mod:`~rnglab.shuffles.fairness` gives exact and
empirical laws; :mod:`~rnglab.shuffles.reach` counts the deals a seed space reaches;
:mod:`~rnglab.shuffles.deal` and :mod:`~rnglab.shuffles.cards` deal and name cards;
:mod:`~rnglab.shuffles.paths` enumerates every path of random answers of a shuffle given as
code, which :mod:`~rnglab.shuffles.comparator` (JavaScript's comparator sort) and
:mod:`~rnglab.shuffles.userfunc` (the user's own Python function) use.
"""
