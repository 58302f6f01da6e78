"""Streams: what tests and external batteries read of a source (:mod:`~rnglab.streams.gateway`).

Offsets, uniforms on [0, 1), digits, bits, fields and packed words, each read from a
:class:`~rnglab.generators.base.Source` with a chosen selection of its bits, as TestU01's
``unif01`` gateway and PractRand's transforms present a generator to their tests.
"""
