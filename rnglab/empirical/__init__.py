"""Empirical testing: one family of tests per module (:mod:`~rnglab.empirical.stattests`), batteries
written as data (:mod:`~rnglab.empirical.battery`), second-level tests
(:mod:`~rnglab.empirical.secondlevel`) and graded verdicts (:mod:`~rnglab.empirical.verdicts`).
Every test reads its generator through the gateway :mod:`rnglab.streams.gateway`.
"""
