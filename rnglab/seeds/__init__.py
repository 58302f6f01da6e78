"""Seeds: how programs pick them (:mod:`~rnglab.seeds.policies`), the one seed-space type every
command takes (:mod:`~rnglab.seeds.space`), and seed recovery: by searching a seed space for the
deal an observer saw (:mod:`~rnglab.seeds.crack`) and from outputs seen directly
(:mod:`~rnglab.seeds.recover`).
"""
