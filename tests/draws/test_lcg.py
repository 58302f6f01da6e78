"""One bounded draw of an LCG in compiled code: the generator's fields, the bounds' table, one step against the
source's outputs, a draw against the one-at-a-time bounded draw, and a stuck source."""

import numpy as np
import pytest
from shuffles.test_algorithms import CATALOG_LCGS

from rnglab.draws.bounded import draw_bounded
from rnglab.draws.lcg import GENERATOR_FIELDS, as_fields, bound_table, draw_value, kernel_fields, serves
from rnglab.generators import LCG, make_source
from rnglab.reduction.reducers import REDUCERS


def test_compiled_path_serves_the_common_lcgs():
    lemire = {name: serves(make_source(name).batch([1]), REDUCERS["lemire"]) for name in CATALOG_LCGS}
    assert lemire["mmix"] and not lemire["drand48"]  # R = 2^48: step by step
    assert all(served for name, served in lemire.items() if name != "drand48")
    assert not serves(make_source("mmix").batch([1]), REDUCERS["modulo"])


def test_kernel_fields_by_hand():
    # msvc: m = 2^32 kept by a mask, output bits 16..30 (R = 2^15); minstd: the prime modulus itself, outputs
    # 1..m-1 (low 1, R = m - 1, not a power of two); mmix: whole 64-bit words (R = 2^64: 0 and 64 bits)
    fields = {name: dict(zip(GENERATOR_FIELDS, kernel_fields(make_source(name)).tolist()))
              for name in ("msvc", "minstd", "mmix")}
    assert fields["msvc"] == {"a": 214013, "c": 2531011, "modulus": 0, "state_mask": 2**32 - 1, "shift": 16,
                              "output_mask": 2**15 - 1, "low": 0, "range_size": 2**15, "range_bits": 15}
    assert fields["minstd"] == {"a": 16807, "c": 0, "modulus": 2**31 - 1, "state_mask": 0, "shift": 0,
                                "output_mask": 2**64 - 1, "low": 1, "range_size": 2**31 - 2, "range_bits": 0}
    assert (fields["mmix"]["range_size"], fields["mmix"]["range_bits"], fields["mmix"]["state_mask"]) == \
        (0, 64, 2**64 - 1)


def test_bound_table_holds_each_bound_and_its_constant():
    # Lemire's constant is R mod n: 2^15 mod 52 = 8, 2^15 mod 7 = 1
    assert bound_table(np.array([52, 7]), REDUCERS["lemire"], 2**15).tolist() == [[52, 8], [7, 1]]
    table = bound_table(np.array([52, 51]), REDUCERS["modulo"], 2**15)
    assert table.dtype == np.uint64 and table[:, 0].tolist() == [52, 51]
    assert table[:, 1].tolist() == [REDUCERS["modulo"].scalar.parameter(b, 2**15) for b in (52, 51)]


@pytest.mark.parametrize("name, reducer", [("msvc", "modulo"), ("msvc", "lemire"), ("minstd", "modulo"),
                                           ("minstd", "threshold"), ("randu", "multiply-shift"), ("mmix", "lemire"),
                                           ("mmix", "bitmask"), ("java", "bitmask")])
def test_draws_equal_the_one_at_a_time_bounded_draws(name, reducer):
    source, reference = make_source(name, 20261128), make_source(name, 20261128)
    assert serves(source, REDUCERS[reducer])
    fields, x = as_fields(kernel_fields(source)), np.uint64(source.state["x"])
    table = bound_table(np.array([52, 51, 7, 3, 1, 30_000]), REDUCERS[reducer], source.range_size)
    for bound, parameter in table:
        value, x, drawn = draw_value(REDUCERS[reducer].scalar.reduce, x, bound, parameter, fields, 1000)
        expected = draw_bounded(reference, int(bound), 1, REDUCERS[reducer])
        assert (int(value), drawn) == (int(expected.values[0]), expected.draws)
    # the state goes on where the source's does (its next output: the reference may have read ahead, and holds it)
    following = int(draw_value(REDUCERS["bitmask"].scalar.reduce, x, np.uint64(2), np.uint64(1), fields, 1)[1])
    assert (following >> int(fields.shift)) & int(fields.output_mask) == int(reference.random_raw(1)[0])


def test_a_source_stuck_on_a_rejected_output_draws_nothing():
    # x -> 3 x + 2 mod 2^32 holds x = 2^32 - 1 (3 (2^32 - 1) + 2 = 2^32 + 2^32 - 1); threshold on n = 3 keeps the
    # outputs below 3 floor(2^32 / 3) = 2^32 - 1, so every draw is rejected and none made within the limit of 50
    source = LCG(a=3, c=2, m=2**32, seed=1)
    fields, reducer = as_fields(kernel_fields(source)), REDUCERS["threshold"]
    assert source.range_size == 2**32
    value, x, drawn = draw_value(reducer.scalar.reduce, np.uint64(2**32 - 1), np.uint64(3),
                                 np.uint64(reducer.scalar.parameter(3, 2**32)), fields, 50)
    assert (int(value), int(x), drawn) == (0, 2**32 - 1, 0)


@pytest.mark.parametrize("reducer", list(REDUCERS))
@pytest.mark.parametrize("name", CATALOG_LCGS)
def test_the_compiled_path_serves_only_what_draw_bounded_accepts(name, reducer):
    # minstd's R = 2^31 - 2 is neither 2^32 (java-nextint's next(32)) nor a power of two (python-randbelow's top
    # bits): serves() once said yes and draw_bounded refused; both now read the reducer's domain
    source = make_source(name, 20261128)
    if serves(source, REDUCERS[reducer]):
        for bound in (2, 52):
            assert len(draw_bounded(source, bound, 4, REDUCERS[reducer]).values) == 4
    else:
        assert name == "drand48" or not REDUCERS[reducer].serves_range(source.range_size) or \
            (name == "mmix" and reducer in ("modulo", "float-multiply", "multiply-shift", "threshold",
                                           "threshold-openbsd", "python-randbelow", "java-nextint"))


def test_minstd_is_not_served_through_java_or_python_bounded_calls():
    for reducer in ("java-nextint", "python-randbelow"):
        assert not serves(make_source("minstd"), REDUCERS[reducer])
        with pytest.raises(ValueError, match=reducer):
            draw_bounded(make_source("minstd"), 52, 1, REDUCERS[reducer])
