"""Published facts the audit needs: the entropy a library draws when it seeds a generator from the OS (the states
and periods of the generators are the catalog's: :attr:`rnglab.generators.spec.GeneratorSpec.states`)."""

from __future__ import annotations

from dataclasses import dataclass

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


@dataclass(frozen=True)
class PublishedAttack:
    """A state recovery published for a generator that rnglab does not run: what it needs, its cost, its source."""

    needs: str
    cpu_hours: float
    """The published cost, worst case, in CPU hours."""
    source: str


#: The PCG64 state (and increment) from 512 bytes of consecutive outputs by a guess-and-determine attack that solves
#: about 2^52 closest-vector problems on a small lattice, at most 20,000 CPU hours (Bouillaguet, Martinez and
#: Sauvage, IACR ToSC 2020(3), 175-196). numpy's 32-bit outputs are the two halves of the 64-bit ones.
PCG64_ATTACK = PublishedAttack(
    "512 bytes of consecutive raw outputs", 20_000,
    "C. Bouillaguet, F. Martinez and J. Sauvage, Practical seed-recovery for the PCG pseudo-random number "
    "generator, IACR Transactions on Symmetric Cryptology 2020(3), 175-196")
#: name -> the published attack on that generator's state that rnglab does not run.
PUBLISHED_ATTACKS = {"pcg64": PCG64_ATTACK, "pcg64_uint32": PCG64_ATTACK}
