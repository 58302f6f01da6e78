"""LCGs, batches and adapters: the array paths against the one-step reference.

The checks every source kind shares (declared ranges, state round trips, foreign states,
copies) are in test_base.py; this file keeps the LCG-specific and known-answer ones.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rnglab.generators import LCG, CallableSource, LCGBatch, NumpySource, Output, affine_power, validate_lcg
from rnglab.generators.affine import arithmetic_kind
from rnglab.generators.conventions import CONVENTIONS
from rnglab.generators.kernels import LANES

# Moduli covering every array arithmetic: pow2 (2^16, 2^32, 2^48, 2^64), small (<= 2^32),
# longdouble (<= 2^62) and object (larger), plus awkward composite moduli.
MODULI = [2**16, 2**31 - 1, 2**31, 2**32, 2**48, 2**64, 10**10, 2**61 - 1, 3**38, 2**89 - 1, 2**128, 1000]


@st.composite
def lcgs(draw, moduli=MODULI):
    m = draw(st.sampled_from(moduli) | st.integers(min_value=2, max_value=10**6))
    a = draw(st.integers(min_value=1, max_value=m - 1)) if m > 2 else 1
    c = draw(st.integers(min_value=0, max_value=m - 1))
    seed = draw(st.integers(min_value=0 if c else 1, max_value=m - 1))
    bits = (m - 1).bit_length()
    output = draw(st.sampled_from([Output.state()] + ([Output.bits(bits // 3, bits - bits // 3)] if bits > 2 else [])))
    return dict(a=a, c=c, m=m, seed=seed, output=output)


def reference(params, count):
    g = LCG(**params)
    return [g.step() for _ in range(count)], g.x


@settings(max_examples=150, deadline=None)
@given(lcgs(), st.integers(min_value=0, max_value=3000), st.integers(min_value=0, max_value=300))
def test_random_raw_equals_one_step_reference(params, size, more):
    expected, _ = reference(params, size + more)
    g = LCG(**params)
    values = list(g.random_raw(size)) + list(g.random_raw(more))
    assert [int(v) for v in values] == expected
    assert g.x == reference(params, size + more)[1]


@settings(max_examples=100, deadline=None)
@given(lcgs(), st.integers(min_value=1, max_value=700), st.integers(min_value=1, max_value=4),
       st.integers(min_value=0, max_value=5))
def test_filling_a_reused_buffer_equals_fresh_arrays(params, size, chunks, unread):
    expected = LCG(**params).random_raw(size * chunks + unread)
    g = LCG(**params)
    g.unread(g.random_raw(unread))
    buffer = np.empty(size, dtype=expected.dtype)
    filled = [g.random_raw(out=buffer).copy() for _ in range(chunks)] + [g.random_raw(unread)]
    assert np.concatenate(filled).tolist() == expected.tolist()


@st.composite
def wide_lcgs(draw):
    """LCGs for the Shoup kernel: m in (2^32, 2^63], not a power of two, edges included."""
    m = draw(st.integers(min_value=2**32 + 1, max_value=2**63) | st.sampled_from([2**63 - 25, 2**63 - 1, 2**62 - 57,
                                                                                    2**40 - 87, 2**32 + 1]))
    m = m - 1 if m & (m - 1) == 0 else m  # 2^63 - 1, not 2^63 + 1: the kernel takes m <= 2^63
    edge = st.sampled_from([1, 2, m - 2, m - 1])
    a, c = draw(st.integers(1, m - 1) | edge), draw(st.integers(0, m - 1) | edge)
    seed = draw(st.integers(1, m - 1) | edge)
    return a, c, m, seed


@st.composite
def small_lcgs(draw):
    """LCGs for the 32-bit Shoup kernel: m < 2^32, not a power of two, edges included."""
    m = draw(st.integers(min_value=3, max_value=2**32 - 1) | st.sampled_from([3, 2**31 - 1, 2**32 - 1, 2**32 - 5]))
    m = m + 1 if m & (m - 1) == 0 else m
    edge = st.sampled_from([0, 1, m - 2, m - 1])
    a, c = draw(st.integers(1, m - 1) | edge.filter(bool)), draw(st.integers(0, m - 1) | edge)
    seed = draw(st.integers(0, m - 1) | edge)
    return a, c, m, seed or int(c == 0)  # 0 is a fixed point when c = 0


@st.composite
def power_of_two_lcgs(draw):
    """LCGs for the power-of-two step: m = 2^e, 1 < e <= 64 (states kept modulo 2^64), the whole state or some bits."""
    e = draw(st.integers(min_value=2, max_value=64) | st.sampled_from([32, 48, 64]))
    m = 2**e
    edge = st.sampled_from([1, 2, m - 2, m - 1])
    a, c, seed = draw(st.integers(1, m - 1) | edge), draw(st.integers(0, m - 1) | edge), draw(st.integers(1, m - 1))
    shift = draw(st.integers(0, e - 1))
    output = draw(st.sampled_from([Output.state(), Output.bits(shift, draw(st.integers(1, e - shift)))]))
    return a, c, m, seed, output


def compiled_equals_one_step_reference(kind: str, params, size: int) -> bool:
    """The compiled loop ``kind`` (a first row of single steps, then rows of lanes advanced by the jump) fills
    ``size`` values as the one-step reference does, and leaves the generator in the same state."""
    a, c, m, seed, *output = params
    settings = dict(a=a, c=c, m=m, seed=seed, output=output[0] if output else None)
    reference, compiled = LCG(**settings), LCG(**settings)
    out = np.empty(size, dtype=np.uint64)
    compiled._fill_compiled(kind, out)
    return out.tolist() == [reference.step() for _ in range(size)] and compiled.x == reference.x


@settings(max_examples=300, deadline=None)
@given(wide_lcgs(), st.integers(min_value=1, max_value=3 * LANES + 5))
def test_wide_kernel_equals_one_step_reference(params, size):
    assert compiled_equals_one_step_reference("wide", params, size)


@settings(max_examples=300, deadline=None)
@given(small_lcgs(), st.integers(min_value=1, max_value=3 * LANES + 5))
def test_small_kernel_equals_one_step_reference(params, size):
    assert compiled_equals_one_step_reference("small", params, size)


@settings(max_examples=300, deadline=None)
@given(power_of_two_lcgs(), st.integers(min_value=1, max_value=3 * LANES + 5))
def test_power_of_two_kernel_equals_one_step_reference(params, size):
    assert compiled_equals_one_step_reference("pow2", params, size)


@pytest.mark.parametrize("m", [2**40 - 87, 2**62 - 57, 2**63 - 25])
def test_wide_random_raw_past_the_first_row(m):
    params = dict(a=6364136223846793005 % m, c=1442695040888963407 % m, m=m, seed=12345, output=Output.bits(7, 30))
    values = LCG(**params).random_raw(40000)
    assert values[-100:].tolist() == reference(params, 40000)[0][-100:]


def test_out_must_match_dtype_shape_and_size():
    g = LCG(a=16807, m=2**31 - 1)
    for bad in (np.empty(3, dtype=np.int64), np.empty((2, 2), dtype=np.uint64)):
        with pytest.raises(ValueError, match="out must be a one-dimensional uint64 array"):
            g.random_raw(out=bad)
    with pytest.raises(ValueError, match="of length size"):
        g.random_raw(4, out=np.empty(3, dtype=np.uint64))


@settings(max_examples=150, deadline=None)
@given(lcgs(), st.integers(min_value=0, max_value=5000))
def test_jump_equals_stepping(params, k):
    g = LCG(**params)
    g.jump(k)
    assert g.x == reference(params, k)[1]


@given(st.integers(min_value=0, max_value=200))
def test_jump_when_a_minus_1_is_not_invertible(k):
    # a - 1 = 4 shares the factor 2 with m = 2^10, and a = 6 is not even invertible (a tail).
    for a in (5, 6):
        params = dict(a=a, c=3, m=2**10, seed=7)
        g = LCG(**params)
        g.jump(k)
        assert g.x == reference(params, k)[1]


def test_affine_power_composes():
    a, c, m = 6364136223846793005, 1442695040888963407, 2**64
    A1, C1 = affine_power(a, c, m, 1000)
    A2, C2 = affine_power(a, c, m, 234)
    A3, C3 = affine_power(a, c, m, 1234)
    assert (A2 * A1 % m, (A2 * C1 + C2) % m) == (A3, C3)


@pytest.mark.parametrize("m, kind", [(2**32, "pow2"), (2**64, "pow2"), (2**31 - 1, "small"), (10**10, "longdouble"),
                                     (2**62, "pow2"), (2**62 + 1, "object"), (2**128, "object")])
def test_arithmetic_kind(m, kind):
    assert arithmetic_kind(m) == kind


@settings(max_examples=60, deadline=None)
@given(lcgs(), st.lists(st.integers(min_value=1, max_value=10**6), min_size=1, max_size=20), st.integers(0, 40))
def test_batch_lanes_equal_independent_generators(params, seeds, steps):
    seeds = [s % params["m"] or 1 for s in seeds]
    batch = LCG(**params).batch(seeds)
    outputs = batch.random_raw(steps)
    for lane, seed in enumerate(seeds):
        expected, state = reference({**params, "seed": seed}, steps)
        assert [int(v) for v in outputs[lane]] == expected
        assert int(batch.current_states()[lane]) == state


def test_batch_steps_only_masked_lanes():
    batch = LCGBatch(a=214013, c=2531011, m=2**32, states=[1, 1, 1], output=Output.bits(16, 15))
    batch.next_raw()
    values = batch.next_raw(np.array([True, False, True]))
    # Lanes 0 and 2 took two steps (41, 18467 from seed 1); lane 1 stays at its first output, 41.
    assert values.tolist() == [18467, 41, 18467]


def test_batch_seeds_stay_exact_where_numpy_would_round_them():
    # numpy turns [2^63 + 1, -1] into float64; the batch must keep both seeds exact (or refuse floats)
    java = LCG(a=0x5DEECE66D, c=11, m=2**48, seeding=CONVENTIONS["java"], output=Output.bits(16, 32))
    seeds = [2**63 + 1, -1]
    lanes = java.batch(seeds)
    assert lanes.current_states().tolist() == [LCG(a=0x5DEECE66D, c=11, m=2**48, seeding=CONVENTIONS["java"], seed=s).x
                                                for s in seeds]
    with pytest.raises(TypeError, match="seeds must be integers; got an array of float64"):
        java.batch([1.5, 2.0])


def test_seeding_conventions_in_batches():
    java = LCG(a=0x5DEECE66D, c=11, m=2**48, seed=42, seeding=CONVENTIONS["java"], output=Output.bits(16, 32))
    batch = java.batch([42, 0])
    assert batch.next_raw()[0] == java.step() == 3124862261   # new Random(42).nextInt() as unsigned


def test_unread_values_come_back_first():
    g = LCG(a=16807, m=2**31 - 1, seed=1)
    values = g.random_raw(5)
    g.unread(values[3:])
    assert g.random_raw(3).tolist() == values[3:].tolist() + [LCG(a=16807, m=2**31 - 1, seed=int(values[-1])).step()]


@pytest.mark.parametrize("kwargs, message", [
    (dict(a=5, m=1), "m must be >= 2; got 1"),
    (dict(a=0, m=7), r"a must be in \(0, m\) = \(0, 7\); got 0"),
    (dict(a=7, m=7), r"a must be in \(0, m\)"),
    (dict(a=3, c=7, m=7), r"c must be in \[0, m\) = \[0, 7\); got 7"),
    (dict(a=3, m=7, seed=7), r"seed must be in \[0, m\) = \[0, 7\); got 7"),
    (dict(a=3, m=7, seed=0), "seed must be non-zero when c = 0"),
])
def test_validation_names_the_rule(kwargs, message):
    with pytest.raises(ValueError, match=message):
        LCG(**kwargs)


def test_validation_types():
    with pytest.raises(TypeError, match="a must be an integer"):
        validate_lcg(1.5, 0, 7)


def test_output_bits_must_fit_the_state():
    with pytest.raises(ValueError, match="needs a state of 33 bits"):
        LCG(a=5, m=2**32, c=1, output=Output.bits(17, 16))


def test_large_modulus_outputs_are_python_integers():
    g = LCG(a=3, c=1, m=2**128, seed=2**127)
    values = g.random_raw(3)
    assert values.dtype == object and int(values[0]) == (3 * 2**127 + 1) % 2**128


def test_numpy_adapter_refuses_unknown_bit_generators():
    with pytest.raises(ValueError, match="unknown BitGenerator 'Xorshift'; choose from PCG64, PCG64DXSM"):
        NumpySource.from_seed("Xorshift", 1)


def test_callable_source():
    counter = iter(range(100))
    source = CallableSource(lambda: next(counter), 0, 99, name="counter")
    assert source.random_raw(3).tolist() == [0, 1, 2] and source.next_raw() == 3
    bad = CallableSource(lambda: 200, 0, 99)
    with pytest.raises(ValueError, match=r"outside its declared range \[0, 99\]"):
        bad.random_raw(1)
    with pytest.raises(ValueError, match="low < high"):
        CallableSource(lambda: 1, 5, 5)


def test_negative_size_is_refused():
    with pytest.raises(ValueError, match="size must be >= 0; got -1"):
        LCG(a=5, c=1, m=16).random_raw(-1)
