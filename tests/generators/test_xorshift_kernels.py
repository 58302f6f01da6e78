"""The compiled fill loops of the GF(2)-linear generators (rnglab.generators.xorshift_kernels), called directly
on the reference program's initial states, against its outputs.

tests/data/xorshift/reference.txt was written by tests/data/xorshift/make_reference.sh (reference.c, built with
gcc from the published algorithms): per generator, the SHA-256 of its first 100,000 outputs as little-endian
64-bit words and its first 10 outputs. Marsaglia's generators start from his paper's initialisers (xor32's first
output 723471715, xor128's 3701687786, as "Xorshift RNGs", J. Stat. Soft. 8(14), 2003, prints); Vigna's from
SplitMix64(0), WELL512a from the low 32 bits of SplitMix64(0)'s first 16 outputs, its index 0.
"""

import hashlib
from pathlib import Path

import numpy as np
import pytest

from rnglab.generators.xorshift_kernels import (
    fill_well512a,
    fill_xoroshiro128,
    fill_xorshift32,
    fill_xorshift64,
    fill_xorshift128,
    fill_xoshiro256,
    rotate_left,
)

REFERENCE = Path(__file__).parents[1] / "data" / "xorshift" / "reference.txt"
COUNT = 100_000


def splitmix64(count: int) -> list[int]:
    """Vigna's SplitMix64 from 0 (the reference program's seeding)."""
    x, out, mask = 0, [], 2**64 - 1
    for _ in range(count):
        x = (x + 0x9E3779B97F4A7C15) & mask
        z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        out.append(z ^ (z >> 31))
    return out


#: name -> (initial state, fill(state, out)).
KERNELS = {
    "xorshift32": ([2463534242], fill_xorshift32),
    "xorshift64": ([88172645463325252], fill_xorshift64),
    "xorshift128": ([123456789, 362436069, 521288629, 88675123], fill_xorshift128),
    "xoroshiro128+": (splitmix64(2), lambda s, o: fill_xoroshiro128(s, o, 0)),
    "xoroshiro128++": (splitmix64(2), lambda s, o: fill_xoroshiro128(s, o, 1)),
    "xoroshiro128**": (splitmix64(2), lambda s, o: fill_xoroshiro128(s, o, 2)),
    "xoshiro256+": (splitmix64(4), lambda s, o: fill_xoshiro256(s, o, 0)),
    "xoshiro256**": (splitmix64(4), lambda s, o: fill_xoshiro256(s, o, 2)),
    "well512a": ([v & 0xFFFFFFFF for v in splitmix64(16)] + [0], fill_well512a),
}


def reference() -> dict[str, tuple[str, list[int]]]:
    rows = (line.split() for line in REFERENCE.read_text().splitlines() if line.strip())
    return {name: (digest, [int(v) for v in first]) for name, digest, *first in rows}


@pytest.mark.parametrize("name", list(KERNELS))
def test_outputs_equal_the_reference_program(name):
    digest, first = reference()[name]
    initial, fill = KERNELS[name]
    state, out = np.array(initial, dtype=np.uint64), np.empty(COUNT, dtype=np.uint64)
    fill(state, out[:10])
    fill(state, out[10:])  # the state carries over between calls
    assert out[:10].tolist() == first
    assert hashlib.sha256(out.astype("<u8").tobytes()).hexdigest() == digest


def test_every_reference_generator_is_checked():
    assert set(reference()) == set(KERNELS)


def test_rotate_left():
    assert int(rotate_left(np.uint64(0x8000000000000001), 1)) == 3
    assert int(rotate_left(np.uint64(1), 63)) == 2**63
