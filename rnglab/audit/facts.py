"""Published facts the audit needs: state sizes and periods of the generators that are not LCGs (an LCG's come
from number theory), and the entropy a library draws when it seeds a generator from the OS."""

from __future__ import annotations

#: name -> (state bits, states, period, source). ``states``: the distinct states the generator can start from
#: (the 2^bits values of its state, less those no seeding reaches); the period is of the underlying state.
#: MT19937's state is 19,937 bits (624 words, of the first only its top bit counts); the all-zero state is a fixed
#: point that seeding never produces (init_genrand and init_by_array set the top bit of the first word), and every
#: other state lies on the one cycle of length 2^19937 - 1.
KNOWN_STATES = {
    "glibc": (31 * 32, 2**(31 * 32), 16 * (2**31 - 1), "glibc random(3): TYPE_3 additive feedback, 31 words; "
                                                        "'period approximately 16 * ((2^31) - 1)'"),
    "pcg64": (128, 2**128, 2**128, "O'Neill, PCG, HMC-CS-2014-0905 (128-bit LCG state, period 2^128)"),
    "pcg64_uint32": (128, 2**128, 2**128, "O'Neill, PCG, HMC-CS-2014-0905 (128-bit LCG state, period 2^128)"),
    "mt19937": (19937, 2**19937 - 1, 2**19937 - 1, "Matsumoto and Nishimura, ACM TOMACS 8(1), 1998"),
    "python": (19937, 2**19937 - 1, 2**19937 - 1,
               "CPython's random module is MT19937 (Matsumoto and Nishimura 1998)"),
    "python_random53": (19937, 2**19937 - 1, 2**19937 - 1,
                        "CPython's random module is MT19937 (Matsumoto and Nishimura 1998)"),
}

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
