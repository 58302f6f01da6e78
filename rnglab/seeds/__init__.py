"""Seeds: how programs pick them (:mod:`~rnglab.seeds.policies`) and the one seed-space type every
command takes (:mod:`~rnglab.seeds.space`). Recovering a seed from what was seen is :mod:`rnglab.recovery`.
"""
