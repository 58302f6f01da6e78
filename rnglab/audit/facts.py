"""Published facts the audit needs: the entropy a library draws when it seeds a generator from the OS (the states
and periods of the generators are the catalog's: :attr:`rnglab.generators.spec.GeneratorSpec.states`)."""

from __future__ import annotations

#: Where numpy's and CPython's OS seeding is defined.
SEED_SEQUENCE = ("numpy: an OS-seeded bit generator (default_rng(), PCG64(), MT19937()) takes SeedSequence(), which "
                 "draws 128 bits of OS entropy (secrets.randbits(pool_size * 32), pool_size 4; "
                 "numpy/random/bit_generator.pyx)")
CPYTHON_SEED = ("CPython random.seed(None) reads 624 32-bit words from os.urandom (random_seed_urandom, "
                "Modules/_randommodule.c) and passes them to init_by_array")
#: name -> (bits, source): the OS entropy a library reads when the program asks for an OS-seeded generator.
#: Any generator not listed is taken to receive a 64-bit seed from the OS (the ``os`` policy's count).
OS_SEED_BITS = {"pcg64": (128, SEED_SEQUENCE), "pcg64_uint32": (128, SEED_SEQUENCE), "mt19937": (128, SEED_SEQUENCE),
                "python": (19968, CPYTHON_SEED), "python_random53": (19968, CPYTHON_SEED)}
