"""The gateway: offsets, uniforms at the real resolution, bit selection and packed words."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rnglab.generators import LCG, CallableSource, NumpySource, Output, make_source
from rnglab.streams.gateway import (
    BitReader,
    BitSelection,
    bit_fields,
    bits,
    field_chunks,
    formatted_chunks,
    genuine_bits,
    left_aligned_words,
    offsets,
    packed_chunks,
    packed_words,
    scaled_words,
    select,
    spanned_words,
    uniforms,
    words,
)


def listed(values, low, high):
    """A source that returns the given values, in order, then ``low`` for ever (what a read past them sees)."""
    data = iter(values)
    return CallableSource(lambda: next(data, low), low, high)


def test_offsets_subtract_low():
    assert offsets(listed([1, 2, 6], 1, 6), 3).tolist() == [0, 1, 5]


def test_minstd_uniforms_use_its_own_resolution():
    # MINSTD outputs lie in [1, m-1]: uniforms are (x - 1) / (m - 1), never a 32-bit word.
    m = 2**31 - 1
    u = uniforms(make_source("minstd", 1), 3)
    assert u.tolist() == [(16807 - 1) / (m - 1), (282475249 - 1) / (m - 1), (1622650073 - 1) / (m - 1)]


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**64 - 2).flatmap(lambda low: st.tuples(st.just(low), st.integers(low + 1, 2**64 - 1))),
       st.lists(st.integers(0, 2**64 - 1), min_size=1, max_size=8), st.booleans())
def test_uniforms_are_the_exact_quotients(bounds, fractions, power_of_two):
    """Every uniform is ``float((x - low) >> s) / float(ceil(R / 2^s))`` (s = the bits of R beyond 54) in IEEE
    double precision, as Python computes it, on a range of any size, a power of two or not."""
    low, high = bounds
    if power_of_two:  # R = 2^k, where the compiled pass multiplies by 2^-k instead of dividing
        high = low + 2 ** max((high - low + 1).bit_length() - 1, 1) - 1
    range_size = high - low + 1
    values = [low + f % range_size for f in fractions]
    shift = range_size.bit_length() - 54 if range_size > 2**53 else 0
    expected = [float((v - low) >> shift) / float(-(-range_size >> shift)) for v in values]
    assert uniforms(listed(values, low, high), len(values)).tolist() == expected


def test_uniforms_stay_below_one_for_64_bit_sources():
    u = uniforms(listed([2**64 - 1, 0], 0, 2**64 - 1), 2)
    assert u[0] < 1.0 and u[1] == 0.0


def test_words_of_a_power_of_two_source():
    source = listed([0b101100, 0b000011], 0, 63)
    values, width = words(select(source, BitSelection(drop=1, keep=3)), 2)
    # drop the top bit of 6, take the next 3: 0b101100 -> 0b011, 0b000011 -> 0b000
    assert (values.tolist(), width) == ([0b011, 0b000], 3)
    values, width = words(select(listed([0b101100, 0b000011], 0, 63), BitSelection(low=2)), 2)
    assert (values.tolist(), width) == ([0b00, 0b11], 2)


def test_words_of_a_non_power_of_two_source_skip_the_outputs_above_2_to_the_b():
    # R = 10 values give floor(log2 10) = 3 genuine bits: 8 and 9 give no word; the output after
    # the last word is handed back to the source.
    source = listed([0, 9, 4, 8, 7, 5], 0, 9)
    values, width = words(source, 3)
    assert (values.tolist(), width) == ([0, 4, 7], 3)
    assert source.random_raw(1).tolist() == [5]


def test_words_of_a_wide_non_power_of_two_range_divide_by_its_quotient():
    # R = 3 * 2^64: b = 64, q = 3; offsets below 3 * 2^64 all give floor(v / 3).
    values, width = words(listed([0, 5, 3 * 2**64 - 1], 0, 3 * 2**64 - 1), 3)
    assert (values.tolist(), width) == ([0, 1, 2**64 - 1], 64)


@pytest.mark.parametrize("range_size", [3 * 2**30, 2**31 - 1, 10**9])
def test_bits_of_an_ideal_source_of_any_range_are_unbiased(range_size):
    # Issue 13.2: floor(v 2^b / R) gave some b-bit words one preimage and others two: for
    # R = 3 * 2^30 the low bit was 1 with probability 1/3. Each bit position's frequency of ones
    # among 2^16 words of an ideal source is binomial(2^16, 1/2): |z| < 5.5 in every position
    # (a false alarm about once in 10^6 runs at 31 positions).
    rng = np.random.default_rng(2024)
    source = CallableSource(lambda size: rng.integers(0, range_size, size), 0, range_size - 1, vectorized=True)
    values, width = words(source, 2**16)
    ones = [int((values >> np.uint64(k) & np.uint64(1)).sum()) for k in range(width)]
    z = (np.asarray(ones) - 2**15) / np.sqrt(2**14)
    assert np.abs(z).max() < 5.5


def test_bits_are_most_significant_first():
    stream = bits(listed([0b110, 0b001], 0, 7), 6)
    assert stream.tolist() == [1, 1, 0, 0, 0, 1]


def test_packed_words_pass_32_bit_sources_through():
    java = make_source("java", 42)
    assert packed_words(java, 2).tolist() == [3124862261, 234785527]


def test_packed_words_concatenate_msvc_bits():
    # MSVC rand() has 15 genuine bits: 41 = 000000000101001, 18467 = 100100000100011, ...
    expected = make_source("msvc", 1).random_raw(5)
    stream = "".join(format(int(v), "015b") for v in expected)
    assert packed_words(make_source("msvc", 1), 2).tolist() == [int(stream[:32], 2), int(stream[32:64], 2)]


@given(st.integers(min_value=0, max_value=16), st.integers(min_value=1, max_value=16))
def test_selection_keeps_the_named_bits(drop, keep):
    source_bits = 32
    if drop + keep > source_bits:
        with pytest.raises(ValueError, match="cannot keep"):
            BitSelection(drop, keep).width(source_bits)
        return
    g = LCG(a=69069, c=1, m=2**32, seed=5)
    raw = LCG(a=69069, c=1, m=2**32, seed=5).random_raw(50)
    values, width = words(select(g, BitSelection(drop, keep)), 50)
    expected = (raw >> np.uint64(source_bits - drop - keep)) & np.uint64(2**keep - 1)
    assert width == keep and values.tolist() == expected.tolist()


def test_low_bits_of_a_power_of_two_lcg_alternate():
    # The lowest state bit of a full-period LCG mod 2^e alternates (Knuth 3.2.1.1).
    g = LCG(a=1103515245, c=12345, m=2**31, seed=1, output=Output.state())
    values, _ = words(select(g, BitSelection(low=1)), 8)
    assert values.tolist() in ([0, 1] * 4, [1, 0] * 4)


def test_selection_errors():
    with pytest.raises(ValueError, match="either low bits or drop/keep"):
        BitSelection(drop=1, low=2).span(32)
    with pytest.raises(ValueError, match=r"low bits must be in \[1, 15\]"):
        select(make_source("msvc"), BitSelection(low=16))


def test_word_size_is_checked():
    with pytest.raises(ValueError, match="word must be 32 or 64 bits"):
        packed_words(make_source("msvc"), 1, 16)


@st.composite
def bit_streams(draw):
    """A source of ``b`` genuine bits (``2^b <= R < 2^(b+1)``), values to read from it and a bit selection."""
    source_bits = draw(st.integers(1, 64))
    high = draw(st.integers(2**source_bits - 1, 2 ** (source_bits + 1) - 2))
    values = draw(st.lists(st.integers(0, high), min_size=1, max_size=40))
    kind = draw(st.sampled_from(["all", "drop-keep", "low"]))
    if kind == "low":
        selection = BitSelection(low=draw(st.integers(1, source_bits)))
    elif kind == "drop-keep":
        drop = draw(st.integers(0, source_bits - 1))
        selection = BitSelection(drop, draw(st.integers(1, source_bits - drop)))
    else:
        selection = BitSelection()
    return source_bits, high, values, selection


def reference_bits(source_bits, high, values, selection):
    """The bit stream built one bit at a time: each output below 2^b as b bits, then the selected ones."""
    dropped, width = selection.span(source_bits)
    genuine = [format(v, f"0{source_bits}b") for v in values if v < 2**source_bits]
    return "".join(bits[dropped:dropped + width] for bits in genuine), width


def counted(values, high):
    """A source handing out ``values`` in order, and the list of those handed out so far."""
    handed = []

    def draw():
        handed.append(values[len(handed)] if len(handed) < len(values) else 0)
        return handed[-1]

    return CallableSource(draw, 0, high), handed


def words_read(source, values, source_bits, count):
    """Check that the source was left just after the ``count``-th output below 2^b (its next value is the next one)."""
    accepted = [i for i, v in enumerate(values) if v < 2**source_bits]
    after = accepted[count - 1] + 1 if count else 0
    assert int(source.random_raw(1)[0]) == (values[after] if after < len(values) else 0)


@settings(max_examples=300, deadline=None)
@given(bit_streams(), st.integers(1, 64), st.data())
def test_bit_fields_equal_the_bit_stream_read_one_bit_at_a_time(stream, field_bits, data):
    source_bits, high, values, selection = stream
    expected, width = reference_bits(source_bits, high, values, selection)
    count = data.draw(st.integers(0, len(expected) // field_bits))
    source, _handed = counted(values, high)
    fields = bit_fields(select(source, selection), count, field_bits)
    assert fields.tolist() == [int(expected[i * field_bits:(i + 1) * field_bits], 2) for i in range(count)]
    words_read(source, values, source_bits, -(-count * field_bits // width))


@st.composite
def joined_fields(draw):
    """Fields of ``f = per w`` bits, ``w`` bits selected from each output (a source of ``b`` bits): the fields that
    :func:`~rnglab.streams.gateway._join` builds ``per`` words at a time, with outputs for 128 bits or more."""
    width = draw(st.sampled_from([1, 1, 1, 8]) | st.integers(1, 32))  # the low bit and byte most often
    per = draw(st.sampled_from([k for k in (2, 4, 8, 16, 32, 64) if k * width <= 64]) | st.integers(2, 64 // width))
    dropped = draw(st.integers(0, 64 - width))
    source_bits = draw(st.integers(dropped + width, 64))
    selection = draw(st.sampled_from([BitSelection(dropped, width)]
                                     + [BitSelection(low=width)] * (dropped + width == source_bits)))
    least = 2 * max(per, 64 // width)  # two groups of 64 bits (the low bit's are cut 4 or 2 fields at a time)
    values = draw(st.lists(st.integers(0, 2**source_bits - 1), min_size=least, max_size=least + 2 * per + 3))
    return source_bits, values, selection, per * width


@settings(max_examples=300, deadline=None)
@given(joined_fields(), st.data())
def test_fields_of_whole_words_equal_the_bit_stream_read_one_bit_at_a_time(stream, data):
    """Fields that a whole number of selected words fill (joined without a bit buffer, in loops unrolled for
    2 to 64 words a field), in one read and in pieces: the bit stream's fields, from the same outputs."""
    source_bits, values, selection, field_bits = stream
    expected, width = reference_bits(source_bits, 2**source_bits - 1, values, selection)
    count = data.draw(st.integers(1, len(expected) // field_bits))
    wanted = [int(expected[i * field_bits:(i + 1) * field_bits], 2) for i in range(count)]
    source, _ = counted(values, 2**source_bits - 1)
    assert bit_fields(select(source, selection), count, field_bits).tolist() == wanted
    words_read(source, values, source_bits, count * field_bits // width)
    first = data.draw(st.integers(0, count))
    reader, view = BitReader(), select(listed(values, 0, 2**source_bits - 1), selection)
    assert reader.fields(view, first, field_bits).tolist() + reader.fields(view, count - first, field_bits).tolist() \
        == wanted


@settings(max_examples=200, deadline=None)
@given(bit_streams(), st.data())
def test_bits_equal_the_bit_stream_read_one_bit_at_a_time(stream, data):
    source_bits, high, values, selection = stream
    expected, width = reference_bits(source_bits, high, values, selection)
    count = data.draw(st.integers(0, len(expected)))
    source, _handed = counted(values, high)
    assert "".join(map(str, bits(select(source, selection), count))) == expected[:count]
    words_read(source, values, source_bits, -(-count // width))


@settings(max_examples=200, deadline=None)
@given(bit_streams(), st.data())
def test_packed_bits_in_two_reads_are_the_bit_stream_zero_padded(stream, data):
    """:meth:`BitReader.packed`: ``a`` bits then ``b`` bits, each read packed 64 to a word, the first bit most
    significant and the last word's unused bits zero, are the stream's first ``a + b`` bits."""
    source_bits, high, values, selection = stream
    expected, _width = reference_bits(source_bits, high, values, selection)
    first = data.draw(st.integers(0, len(expected)))
    second = data.draw(st.integers(0, len(expected) - first))
    reader, view = BitReader(), select(listed(values, 0, high), selection)
    for start, count in ((0, first), (first, second)):
        padded = expected[start:start + count].ljust(-(-count // 64) * 64, "0")
        assert reader.packed(view, count).tolist() == [int(padded[i:i + 64], 2) for i in range(0, len(padded), 64)]


@settings(max_examples=100, deadline=None)
@given(bit_streams(), st.sampled_from([32, 64]), st.data())
def test_packed_words_equal_the_bit_stream_cut_into_words(stream, word_bits, data):
    source_bits, high, values, selection = stream
    expected, width = reference_bits(source_bits, high, values, selection)
    count = data.draw(st.integers(0, len(expected) // word_bits))
    packed = packed_words(select(listed(values, 0, high), selection), count, word_bits)
    if width in (8, 16, 32, 64):  # whole bytes: the outputs' little-endian bytes, read as little-endian words
        octets = b"".join(int(expected[i:i + width], 2).to_bytes(width // 8, "little")
                          for i in range(0, len(expected), width))
        size = word_bits // 8
        assert packed.tolist() == [int.from_bytes(octets[i * size:(i + 1) * size], "little") for i in range(count)]
    else:
        assert packed.tolist() == [int(expected[i * word_bits:(i + 1) * word_bits], 2) for i in range(count)]


def test_64_bit_outputs_as_32_bit_words_are_numpy_uint32_draws():
    # Issue 13.5: numpy's integers(dtype=uint32) on PCG64 (and PractRand's stdin32 reading the same
    # bytes) takes the low half of each 64-bit output first; rnglab wrote the high half first.
    expected = np.random.Generator(np.random.PCG64(7)).integers(0, 2**32, 1001, dtype=np.uint32)
    assert np.array_equal(packed_words(make_source("pcg64", 7), 1001, 32), expected)


def test_32_bit_outputs_as_64_bit_words_keep_the_byte_stream():
    # --word 64 on a 32-bit source: out0 is the low half, so the bytes are those of --word 32 and a
    # reader of 32-bit words sees out0, out1 (numpy's own MT19937 next_uint64 is out0 * 2^32 + out1).
    raw = np.random.MT19937(5).random_raw(1000).astype("<u4")
    wide = packed_words(NumpySource(np.random.MT19937(5)), 500, 64).astype("<u8")
    assert wide.tobytes() == raw.tobytes()


@pytest.mark.parametrize("name, word_bits", [("msvc", 32), ("minstd", 32), ("randu", 64), ("drand48", 32),
                                             ("drand48", 64), ("pcg64", 32)])
def test_chunks_concatenate_to_the_stream(name, word_bits):
    # Issue 13.1: each chunk of `rnglab stream` threw away the unused bits of its last output
    # (7 for msvc, 22 for minstd, ...), so the stream differed from packed_words after the first chunk.
    chunks = packed_chunks(make_source(name, 1), 100, word_bits)
    joined = np.concatenate([next(chunks) for _ in range(7)])
    assert np.array_equal(joined, packed_words(make_source(name, 1), len(joined), word_bits))


def test_stream_command_is_the_concatenation_past_the_first_chunk():
    from click.testing import CliRunner

    from rnglab.cli import rnglab

    data = CliRunner().invoke(rnglab, ["stream", "msvc", "--seed", "1", "--bytes", "1048584"]).stdout_bytes
    assert np.frombuffer(data[-8:], dtype="<u4").tolist() == [806696358, 3635270728]  # packed_words' words 262144-5


def test_scaled_words_are_testu01_floor_of_u_times_2_to_the_32():
    # MINSTD: u = (x - 1) / (2^31 - 2), floor(2^32 u) exactly; PCG64: the top 32 bits; MSVC: x * 2^17.
    raw = make_source("minstd", 1).random_raw(1000)
    expected = [(int(x) - 1) * 2**32 // (2**31 - 2) for x in raw]
    assert scaled_words(make_source("minstd", 1), 1000).tolist() == expected
    assert np.array_equal(scaled_words(make_source("pcg64", 2), 10), make_source("pcg64", 2).random_raw(10) >> 32)
    assert scaled_words(make_source("msvc", 1), 2).tolist() == [41 << 17, 18467 << 17]


def test_left_aligned_words_put_each_raw_output_at_the_top():
    # MINSTD's offsets need 31 bits: (x - 1) * 2; a 15-bit output: x * 2^17; a 64-bit one: its top 32 bits.
    assert left_aligned_words(make_source("minstd", 1), 2).tolist() == [16806 * 2, 282475248 * 2]
    assert left_aligned_words(make_source("msvc", 1), 2).tolist() == [41 << 17, 18467 << 17]
    assert np.array_equal(left_aligned_words(make_source("pcg64", 2), 10), make_source("pcg64", 2).random_raw(10) >> 32)


def test_stream_formats_write_one_word_per_output():
    from click.testing import CliRunner

    from rnglab.cli import rnglab

    data = CliRunner().invoke(rnglab, ["stream", "minstd", "--format", "scaled32", "--bytes", "4000"]).stdout_bytes
    assert np.array_equal(np.frombuffer(data, dtype="<u4"), scaled_words(make_source("minstd", 1), 1000))
    chunks = formatted_chunks(make_source("msvc", 1), "left32", 3)
    assert np.concatenate([next(chunks), next(chunks)]).tolist() == (make_source("msvc", 1).random_raw(6) << 17).tolist()
    with pytest.raises(ValueError, match="one 32-bit word per output"):
        next(formatted_chunks(make_source("msvc", 1), "scaled32", 3, 64))


@pytest.mark.parametrize("name, field_bits, multiple", [("msvc", 64, 64), ("minstd", 32, 5), ("pcg64", 7, 3),
                                                        ("randu", 1, 1)])
def test_field_chunks_concatenate_to_the_fields(name, field_bits, multiple):
    # chunks of whole lcm(w, f)-bit blocks and of whole matrices: the same fields from the same outputs
    chunked_source, whole_source = make_source(name, 3), make_source(name, 3)
    chunks = list(field_chunks(chunked_source, 5000, field_bits, chunk_fields=700, multiple=multiple))
    assert len(chunks) > 2 and all(len(chunk) % multiple == 0 for chunk in chunks[:-1])
    assert np.array_equal(np.concatenate(chunks), bit_fields(whole_source, 5000, field_bits))
    assert chunked_source.random_raw(3).tolist() == whole_source.random_raw(3).tolist()


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["pcg64", "mt19937", "minstd", "randu", "msvc"]), st.sampled_from([1, 2, 8, 16, 32, 64]),
       st.sampled_from([None, 1, 8, 10, 16, 32]), st.integers(1, 3000), st.integers(1, 500))
def test_field_word_chunks_hold_the_fields(name, field_bits, low, count, chunk_fields):
    """Cut from their words (k to a word, the first most significant), the chunks of field_word_chunks are the
    chunks of field_chunks, read from the same outputs, for fields that divide the selected width and others."""
    from rnglab.streams.gateway import field_word_chunks

    width = genuine_bits(make_source(name, 1))
    selection = BitSelection(low=low) if low is not None and low <= width else BitSelection()
    word_source, field_source = make_source(name, 5), make_source(name, 5)
    cut = [cut_fields([chunk], field_bits)
           for chunk in field_word_chunks(select(word_source, selection), count, field_bits, chunk_fields=chunk_fields)]
    expected = list(field_chunks(select(field_source, selection), count, field_bits, chunk_fields=chunk_fields))
    assert cut == [e.tolist() for e in expected]
    assert word_source.random_raw(3).tolist() == field_source.random_raw(3).tolist()


def cut_fields(chunks, field_bits):
    """The fields of chunks ``(words, k, fields)``, cut from their words (k to a word, the first most significant)."""
    cut = []
    for words_, per, fields in chunks:
        shifts = np.uint64(field_bits) * np.arange(per - 1, -1, -1, dtype=np.uint64)
        cut += ((words_[:, None] >> shifts[None, :]) & np.uint64(2**field_bits - 1)).ravel()[:fields].tolist()
    return cut


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["pcg64", "mt19937", "minstd", "randu"]), st.sampled_from([1, 5, 16, 30, 32, 64]),
       st.sampled_from([None, 1, 8, 10]), st.lists(st.integers(1, 700), min_size=1, max_size=6), st.integers(1, 300))
def test_word_chunks_read_in_pieces_give_the_fields_at_once(name, field_bits, low, pieces, chunk_fields):
    """Calls of a bit reader's word chunks that end inside an output (its unused bits kept) give the fields of one
    call, from the same outputs."""
    width = genuine_bits(make_source(name, 1))
    selection = BitSelection(low=low) if low is not None and low <= width else BitSelection()
    piece_source, whole_source = make_source(name, 5), make_source(name, 5)
    reader, view = BitReader(), select(piece_source, selection)
    cut = []
    for count in pieces:
        cut += cut_fields(reader.word_chunks(view, count, field_bits, chunk_fields=chunk_fields), field_bits)
    assert cut == bit_fields(select(whole_source, selection), sum(pieces), field_bits).tolist()
    assert piece_source.random_raw(3).tolist() == whole_source.random_raw(3).tolist()


def test_field_chunks_of_a_narrow_selection_read_about_chunk_fields_outputs():
    """One low bit an output, 32-bit fields: 1024 outputs a chunk (32 fields), not 1024 fields of 32 outputs."""
    from rnglab.streams.gateway import field_chunks

    chunks = list(field_chunks(select(make_source("pcg64", 1), BitSelection(low=1)), 1000, 32, chunk_fields=2**10))
    assert chunks[0].size == 32 and sum(c.size for c in chunks) == 1000
    whole = bit_fields(select(make_source("pcg64", 1), BitSelection(low=1)), 1000, 32)
    assert np.concatenate(chunks).tolist() == whole.tolist()


@settings(max_examples=300, deadline=None)
@given(bit_streams(), st.integers(1, 64), st.data())
def test_bit_reader_fields_read_in_pieces_equal_the_bit_stream(stream, field_bits, data):
    """Pieces of any sizes: the fields of the bit stream built one bit at a time, a field straddling two pieces,
    and the source left just after the last output any field took bits from."""
    from rnglab.streams.gateway import BitReader

    source_bits, high, values, selection = stream
    expected, width = reference_bits(source_bits, high, values, selection)
    pieces = data.draw(st.lists(st.integers(0, 5), max_size=12))
    count = min(sum(pieces), len(expected) // field_bits)
    source, _ = counted(values, high)
    reader, fields, view = BitReader(), [], select(source, selection)
    for piece in pieces:
        piece = min(piece, count - len(fields))
        fields += reader.fields(view, piece, field_bits).tolist()
        assert reader.held < width
    assert fields == [int(expected[i * field_bits:(i + 1) * field_bits], 2) for i in range(count)]
    words_read(source, values, source_bits, -(-count * field_bits // width))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["pcg64", "mt19937", "minstd", "msvc"]), st.sampled_from([1, 2, 7, 8, 16, 32, 64]),
       st.sampled_from([None, 1, 8, 10]), st.lists(st.integers(0, 700), min_size=1, max_size=5), st.integers(1, 300))
def test_bit_reader_word_chunks_in_pieces_hold_the_fields(name, field_bits, low, pieces, chunk_fields):
    """The fields cut from the word chunks of several pieces are the stream's fields, read from the same outputs."""
    from rnglab.streams.gateway import BitReader

    width = genuine_bits(make_source(name, 1))
    selection = BitSelection(low=low) if low is not None and low <= width else BitSelection()
    pieces_source, whole_source = make_source(name, 5), make_source(name, 5)
    reader, cut, view = BitReader(), [], select(pieces_source, selection)
    for piece in pieces:
        for words_, per, fields in reader.word_chunks(view, piece, field_bits, chunk_fields=chunk_fields):
            shifts = np.uint64(field_bits) * np.arange(per - 1, -1, -1, dtype=np.uint64)
            cut += ((words_[:, None] >> shifts[None, :]) & np.uint64(2**field_bits - 1)).ravel()[:fields].tolist()
    assert cut == bit_fields(select(whole_source, selection), sum(pieces), field_bits).tolist()
    assert pieces_source.random_raw(3).tolist() == whole_source.random_raw(3).tolist()


@settings(max_examples=300, deadline=None)
@given(bit_streams(), st.data())
def test_bit_reader_bits_and_fields_of_any_sizes_in_turn_equal_the_bit_stream(stream, data):
    """Bits, then fields of one size, then of another...: the bit stream's next bits each time."""
    from rnglab.streams.gateway import BitReader

    source_bits, high, values, selection = stream
    expected, width = reference_bits(source_bits, high, values, selection)
    source, _ = counted(values, high)
    reader, taken, view = BitReader(), "", select(source, selection)
    for _ in range(data.draw(st.integers(1, 6))):
        field_bits = data.draw(st.sampled_from([None, *range(1, 65)]))  # None: bits
        count = data.draw(st.integers(0, (len(expected) - len(taken)) // (field_bits or 1)))
        if field_bits is None:
            taken += "".join(map(str, reader.bits(view, count)))
        else:
            taken += "".join(format(v, f"0{field_bits}b") for v in reader.fields(view, count, field_bits).tolist())
    assert taken == expected[:len(taken)]
    words_read(source, values, source_bits, -(-len(taken) // width))


@pytest.mark.parametrize("selection", [BitSelection(low=8), BitSelection(low=1), BitSelection(drop=3, keep=10),
                                       BitSelection()])
def test_spanned_words_are_the_selected_words_before_the_cut(selection):
    """A reader that cuts the selected bits in its own pass gets the words under the selection and the span:
    ``(g >> below) mod 2^width`` are the words the selection reads."""
    values, below, width = spanned_words(select(make_source("pcg64", 4), selection), 1000)
    selected = select(make_source("pcg64", 4), selection)
    expected = words(selected, 1000)[0]
    assert np.array_equal((values >> np.uint64(below)) & np.uint64(2**width - 1), expected)
    assert width == genuine_bits(selected)
