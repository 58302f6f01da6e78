"""The gateway from any source to what tests and external batteries read.

Every empirical test reads a generator only through these functions, so that
it tests the generator and not a formatting of it:

* :func:`offsets` -- raw outputs shifted to ``[0, R)``, ``R = high - low + 1``;
* :func:`uniforms` -- floats ``(x - low) / R`` in ``[0, 1)`` at the source's
  real resolution (MINSTD gives multiples of ``1/(m - 1)``; it is never
  passed off as a 32-bit word with a constant top bit);
* :func:`uniform_digits` -- digits ``floor(d u)`` of those uniforms;
* :func:`words` -- ``w``-bit integers: the ``b = floor(log2 R)`` genuine bits
  of each output (:func:`genuine_words`: the offset itself when ``R`` is a
  power of two; otherwise only outputs below ``2^b`` give words, so that the
  bits stay unbiased);
* :func:`bits` -- the concatenation of those words, most significant bit first;
* :func:`bit_fields` -- that bit stream cut into fields of 1 to 64 bits (the
  rows of the matrix-rank test, the blocks of the Hamming-weight test), or
  :func:`field_chunks`, the same a bounded chunk at a time, or
  :func:`field_word_chunks`, the same still in their words when a field
  divides a word (for a compiled test that cuts them as it reads them);
  :class:`BitReader` reads the same in pieces, a field straddling two;
* :func:`packed_words` -- the same cut into 32- or 64-bit words, for
  ``rnglab stream`` and external batteries (dieharder, PractRand, TestU01);
  outputs of 8, 16, 32 or 64 bits keep their little-endian byte order
  instead (numpy's and PractRand's convention);
* :func:`scaled_words`, :func:`left_aligned_words` -- one 32-bit word per
  output instead: TestU01's ``floor(2^32 u)``, or the raw output left-aligned.

The bit stream is never expanded to one byte per bit on the way: a compiled
kernel joins the words into fields with word-level shifts, one pass (without
a bit buffer when a field is a whole number of words, as the low bit's or
the low byte's 16- and 32-bit fields are).

A selection of bits is a view of the stream, not an option of these
functions: :func:`select` wraps a source in :class:`SelectedBits`, the source
of the selected bits of each output (after dropping the top ``r`` bits, the
next ``s``, TestU01's ``r`` and ``s``; or the low ``k`` bits, PractRand's
``Transforms::lowbits``), and every function above reads it as any source of
``w``-bit words. The packing kernel still takes the selected bits of the
wrapped source's words in its one pass.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from rnglab.core.compiled import njit
from rnglab.generators.base import Source, check_count
from rnglab.streams.tape import Tape


@dataclass(frozen=True)
class BitSelection:
    """Which bits of each output to read, as TestU01's ``r`` and ``s`` parameters.

    Parameters
    ----------
    drop : int
        Number of most significant bits to discard (TestU01's ``r``).
    keep : int or None
        Number of bits to take just below the dropped ones (TestU01's ``s``;
        ``None``: all that remain).
    low : int or None
        Alternatively, take only the ``low`` least significant bits (the weak
        bits of a power-of-two LCG); excludes ``drop`` and ``keep``.
    """

    drop: int = 0
    keep: int | None = None
    low: int | None = None

    def span(self, source_bits: int) -> tuple[int, int]:
        """Return ``(dropped, width)`` for a source with ``source_bits`` genuine bits."""
        if self.low is not None:
            if self.drop or self.keep is not None:
                raise ValueError("choose either low bits or drop/keep, not both")
            if not 1 <= self.low <= source_bits:
                raise ValueError(f"low bits must be in [1, {source_bits}] for this source; got {self.low}")
            return source_bits - self.low, self.low
        if self.drop < 0:
            raise ValueError(f"drop must be >= 0; got {self.drop}")
        available = source_bits - self.drop
        width = available if self.keep is None else self.keep
        if not 1 <= width <= available:
            raise ValueError(f"cannot keep {width} bits of a {source_bits}-bit source after dropping "
                             f"{self.drop}: need 1 <= keep <= {available}")
        return self.drop, width

    def width(self, source_bits: int) -> int:
        """Bits per word after the selection."""
        return self.span(source_bits)[1]


class SelectedBits(Source):
    """The selected bits of each output of ``inner``: a source of ``w``-bit words, a view of ``inner``'s stream.

    Output ``i`` is ``(g_i >> below) mod 2^w`` for the ``i``-th word ``g_i`` of
    ``inner``'s :func:`genuine_words` (``b`` bits), with ``(b - below - w, w)``
    the selection's :meth:`~BitSelection.span`: its range is ``[0, 2^w)``, so
    every reader of this module (words, bits, uniforms ``v / 2^w``, digits
    ``floor(d v / 2^w)``) reads it as any source of ``w``-bit words, the way
    TestU01's ``r`` and ``s`` present ``s`` bits of each output and PractRand's
    ``Transforms::lowbits`` the low bits. Reading it reads ``inner``: the
    stream goes on there, and another view of ``inner`` (or ``inner`` itself)
    reads what follows.

    Words handed back (:meth:`unread`, a test that read past its sample's
    end) go back to ``inner`` as the outputs behind them, so that the
    stream goes on right after the last word used whoever reads it next;
    they must be the last words of the last read.

    Parameters
    ----------
    inner : Source
    selection : BitSelection
        Checked against ``inner``'s genuine bits (``ValueError`` naming the rule).

    Attributes
    ----------
    inner : Source
    selection : BitSelection
    below, width : int
        The bits below the selection in each word of ``inner``, and the selected bits.
    """

    def __init__(self, inner: Source, selection: BitSelection) -> None:
        source_bits = genuine_bits(inner)
        dropped, width = selection.span(source_bits)
        self.inner, self.selection, self.below, self.width = inner, selection, source_bits - dropped - width, width
        self.name, self.seed, self.low, self.high = inner.name, inner.seed, 0, (1 << width) - 1
        self.replayable = inner.replayable
        super().__init__()
        self._last: tuple[np.ndarray, np.ndarray] | None = None  # the words of the last read, and the outputs behind

    def spanned_words(self, size: int) -> tuple[np.ndarray, int, int]:
        """``(values, below, width)``: ``size`` words ``g`` of ``inner``, the selected words being
        ``(g >> below) mod 2^width`` (for a reader that takes the bits in its own pass)."""
        self._last = None
        return genuine_words(self.inner, size), self.below, self.width

    def _generate(self, size: int) -> np.ndarray:
        tape = Tape(self.inner)
        tape.mark()
        values = self._selected(genuine_words(tape, size))
        self._last = values, tape.kept()
        tape.close()  # the outputs read past the last word go back to inner at once
        return values

    def _selected(self, values: np.ndarray) -> np.ndarray:
        """``(g >> below) mod 2^width`` of the words ``g`` (``values`` itself when that is every bit)."""
        if self.below:
            values = values >> np.uint64(self.below)
        if self.below + self.width < genuine_bits(self.inner):  # bits dropped above the selection
            values = values & np.uint64((1 << self.width) - 1)
        return values

    def unread(self, values: np.ndarray) -> None:
        """Hand back the last ``k = len(values)`` words read: ``inner`` serves the outputs behind them next.

        The outputs behind the words kept are read again, from those the last
        read took, for those words only (as :class:`~rnglab.streams.tape.Tape`
        does); what that leaves goes back to ``inner``.

        Raises
        ------
        ValueError
            When ``values`` are not the last words of the last read.
        """
        values = np.asarray(values, dtype=np.uint64)
        if not values.size:
            return
        last, behind = self._last if self._last is not None else (values[:0], None)
        if values.size > last.size or not np.array_equal(values, last[last.size - values.size:]):
            raise ValueError("a selection of bits takes back only the last words of its last read")
        again = Tape(self.inner)
        again.unread(behind)
        genuine_words(again, last.size - values.size)
        again.close()
        self._last = None

    @property
    def state(self) -> dict:
        return self.inner.state


def select(source: Source, selection: BitSelection) -> Source:
    """The bits ``selection`` chooses of each output of ``source``: a :class:`SelectedBits` view of it, or
    ``source`` itself for every bit (``BitSelection()``)."""
    return source if selection == BitSelection() else SelectedBits(source, selection)


def selection_of(source: Source) -> BitSelection:
    """The bits of its stream that ``source`` reads: a :class:`SelectedBits`'s selection, else every bit."""
    return source.selection if isinstance(source, SelectedBits) else BitSelection()


def unselected(source: Source) -> Source:
    """The stream under a selection of bits: a :class:`SelectedBits`'s wrapped source, else ``source`` itself."""
    return source.inner if isinstance(source, SelectedBits) else source


def selected_source(factory: Callable[[int | None], Source], selection: BitSelection, seed: int | None) -> Source:
    """``select(factory(seed), selection)``; ``functools.partial(selected_source, factory, selection)`` is a
    factory of views, picklable (for a worker) when ``factory`` is."""
    return select(factory(seed), selection)


def offsets(source: Source, size: int) -> np.ndarray:
    """Return ``size`` outputs shifted to ``[0, R)`` (uint64, or object above 2^64)."""
    return _shifted(source, source.random_raw(check_count(size)))


def _shifted(source: Source, values: np.ndarray) -> np.ndarray:
    """Raw outputs minus the source's ``low`` (the array itself when ``low = 0``)."""
    if not source.low:
        return values
    return values - (source.low if values.dtype == object else np.uint64(source.low))


def uniforms(source: Source, size: int) -> np.ndarray:
    """Return ``size`` uniforms ``(x - low) / R`` in ``[0, 1)`` as float64.

    For ``R > 2^53`` only the top 53 genuine bits are kept, so the result is
    still strictly below 1.
    """
    range_size, shift = source.range_size, 0
    if range_size > 2**53:
        shift = range_size.bit_length() - 54
        range_size = -(-range_size >> shift)
    if source.high < 2**64:  # one compiled pass, without the temporaries of the offset, the shift and the cast
        raw = source.random_raw(check_count(size))
        scale = 1.0 / range_size if range_size & (range_size - 1) == 0 else 0.0  # exact for a power of two
        return _fractions(raw, np.uint64(source.low), np.uint64(shift), float(range_size), scale,
                          np.empty(raw.size, dtype=np.float64))
    values = offsets(source, size)
    result = (values // (1 << shift)).astype(np.float64)
    result /= float(range_size)  # in place: one temporary less per call
    return result


def uniform_digits(source: Source, count: int, d: int) -> np.ndarray:
    """Return ``floor(d u)`` of ``count`` successive :func:`uniforms` ``u``, in ``[0, d)``, as uint64.

    TestU01's digits ``floor(d U)`` at the source's full resolution, in one
    compiled pass (``u`` rounded to float64 as :func:`uniforms` rounds it; the
    digit is at most ``d - 1`` whatever the rounding).
    """
    if source.range_size > 2**53 or source.high >= 2**64:
        u = uniforms(source, count)
        u *= d
        return np.minimum(np.floor(u, out=u), d - 1).astype(np.uint64)
    raw = source.random_raw(check_count(count))
    return _digits(raw, np.uint64(source.low), float(source.range_size), float(d), np.uint64(d - 1),
                   np.empty(raw.size, dtype=np.uint64))


def genuine_bits(source: Source) -> int:
    """Number of genuine bits per output: ``floor(log2 R)``, capped at 64."""
    return min(source.output_bits, 64)


def words(source: Source, size: int) -> tuple[np.ndarray, int]:
    """Return ``size`` words of :func:`genuine_words` and their width in bits.

    Returns
    -------
    values : numpy.ndarray of uint64
        For a power-of-two source, the source's own output array (not
        copied): treat it as read-only.
    width : int
    """
    return genuine_words(source, size), genuine_bits(source)


def spanned_words(source: Source, size: int) -> tuple[np.ndarray, int, int]:
    """``(values, below, width)``: ``size`` words ``g`` of which ``(g >> below) mod 2^width`` are the source's
    :func:`genuine_words`.

    A :class:`SelectedBits` gives its wrapped source's words and its span, so
    that the packing kernel takes the selected bits in its own pass rather
    than in one of their own; another source gives its words (``below = 0``).
    """
    if isinstance(source, SelectedBits):
        return source.spanned_words(size)
    return genuine_words(source, size), 0, genuine_bits(source)


def genuine_words(source: Source, size: int) -> np.ndarray:
    """Return ``size`` uniform ``b``-bit words, ``b = floor(log2 R)`` capped at 64, from successive outputs.

    With ``q = floor(R / 2^b)`` (1 unless ``R > 2^64``), an offset ``v = x - low``
    gives the word ``floor(v / q)`` when ``v < q 2^b``, the largest multiple of
    ``2^b`` in the range, and nothing otherwise: every word then has exactly
    ``q`` preimages, so an ideal source gives unbiased bits whatever ``R``.
    When ``R`` is a power of two nothing is skipped (the word is the offset, or
    its top 64 bits). Otherwise the fraction ``1 - q 2^b / R`` of the outputs
    is skipped (below 1/2; about 1/2 for MINSTD, ``R = 2^31 - 2``, and 1/3
    for ``R = 3 2^30``), and the outputs read are the words' outputs plus the
    skipped ones before them: the outputs after the last word are handed
    back to the source (:meth:`~rnglab.generators.Source.unread`).
    """
    size, source_bits, range_size = check_count(size), genuine_bits(source), source.range_size
    quotient = range_size >> source_bits
    if range_size == quotient << source_bits:
        return _quotients(offsets(source, size), quotient)
    limit, out, filled = quotient << source_bits, np.empty(size, dtype=np.uint64), 0
    while filled < size:
        wanted = size - filled
        raw = source.random_raw(wanted * range_size // limit + 4 * math.isqrt(wanted) + 16)
        if raw.dtype == object:
            values = _shifted(source, raw)
            kept = np.flatnonzero(values < limit)[:wanted]
            out[filled:filled + len(kept)] = _quotients(values[kept], quotient)
            taken, used = len(kept), kept[-1] + 1 if len(kept) else len(raw)
        else:  # one compiled pass; quotient = 1 below 2^64
            taken, used = _below(raw, np.uint64(source.low), np.uint64(limit), out[filled:])
        if taken == wanted:
            source.unread(raw[used:])
        filled += taken
    return out


def _quotients(values: np.ndarray, quotient: int) -> np.ndarray:
    """``floor(v / q)`` as uint64 (``values`` itself when ``q = 1`` and it is uint64)."""
    if values.dtype != object:
        return values if quotient == 1 else values // np.uint64(quotient)
    return np.asarray([int(v) // quotient for v in values], dtype=np.uint64)


def bit_fields(source: Source, count: int, field_bits: int) -> np.ndarray:
    """Return the first ``count`` fields of ``field_bits`` (1 to 64) bits cut from the source's bit stream.

    The fields are the bits of :func:`bits` read ``field_bits`` at a time, the
    first bit most significant; exactly ``ceil(count f / w)`` words are read
    (:func:`genuine_words`) for ``w`` bits per output and ``f`` per field.
    """
    return BitReader().fields(source, count, field_bits)


class BitReader:
    """The source's bit stream read in pieces along one stream: a field may straddle two pieces.

    The bits of the last word read that no piece has taken yet wait here for
    the next (a test's tally, :class:`rnglab.empirical.stattests.base.Tally`,
    reads the stream in pieces), so that reading ``a`` bits then ``b`` gives
    the first ``a + b`` bits of the stream, read from the same outputs as
    :func:`bits` of ``a + b`` at once; the same for fields (:func:`bit_fields`),
    of any sizes.

    Attributes
    ----------
    rest, held : int
        The ``held`` bits not yet read (fewer than ``w``, for ``w`` bits per
        output), the next one most significant in ``rest``.
    """

    def __init__(self) -> None:
        self.rest, self.held = 0, 0

    def fields(self, source: Source, count: int, field_bits: int) -> np.ndarray:
        """The next ``count`` fields of ``f = field_bits`` (1 to 64) bits: the bits held first, then
        ``ceil((count f - held) / w)`` words.

        Only the fields up to the first that ends with a word are cut from
        the bits held (:func:`_pack_after`); the rest starts from an empty
        buffer (:func:`_pack`, whose loop is faster when it knows that), or,
        when ``w`` divides ``f`` (the low bit, or the low 8, cut into 16- or
        32-bit fields), is joined ``f / w`` words to a field (:func:`_join`).
        """
        if not 1 <= field_bits <= 64:
            raise ValueError(f"field_bits must be in [1, 64]; got {field_bits}")
        width, f = genuine_bits(source), field_bits
        size = max(0, -(-(check_count(count, "count") * f - self.held) // width))
        if width == f and not self.held:
            return words(source, size)[0]
        values, below, width = spanned_words(source, size)  # selected in the pass that packs them
        fields, first, buffer, held = np.empty(count, dtype=np.uint64), 0, np.uint64(self.rest), self.held
        while held >= f and first < count:  # whole fields in the bits held (fields narrower than a word)
            held -= f
            fields[first], first = (int(buffer) >> held) & ((1 << f) - 1), first + 1
        if held:
            aligned = next((j for j in range(1, f + 1) if (held + j * width) % f == 0), size)
            head = min(count, first + (held + min(aligned, size) * width) // f)
            buffer, held = _pack_after(values[:aligned], below, width, f, np.uint64(int(buffer) & ((1 << held) - 1)),
                                       np.uint64(held), fields[first:head])
            values, first = values[aligned:], head
        if first < count and f % width == 0:  # from a word's start, whole words to a field: no bits left over
            _join(values, below, width, f // width, fields[first:])
            buffer, held = np.uint64(0), np.uint64(0)
        elif first < count:
            buffer, held = _pack(values, below, width, f, fields[first:])
        self.rest, self.held = int(buffer) & ((1 << int(held)) - 1), int(held)
        return fields

    def packed(self, source: Source, count: int) -> np.ndarray:
        """The next ``count`` bits packed in ``ceil(count / 64)`` uint64 words, the first bit the first word's
        most significant, the last word's unused low bits zero."""
        whole, part = divmod(check_count(count, "count"), 64)
        packed = self.fields(source, whole, 64)
        if part:
            packed = np.append(packed, self.fields(source, 1, part) << np.uint64(64 - part))
        return packed

    def bits(self, source: Source, count: int) -> np.ndarray:
        """The next ``count`` bits as a uint8 array of 0/1 (:func:`bits`)."""
        return np.unpackbits(self.packed(source, count).astype(">u8").view(np.uint8), count=count)

    def chunks(self, source: Source, count: int, field_bits: int, *, chunk_fields: int = 2**20, multiple: int = 1):
        """Yield the next ``count`` fields a chunk at a time, as :func:`field_chunks` cuts them."""
        for size in _chunk_sizes(source, count, field_bits, chunk_fields, multiple):
            yield self.fields(source, size, field_bits)

    def word_chunks(self, source: Source, count: int, field_bits: int, *, chunk_fields: int = 2**20,
                    multiple: int = 1):
        """Yield the next ``count`` fields a chunk at a time as :func:`field_word_chunks` gives them,
        ``(words, k, fields)``; when the bits held are whole fields, those come first, one to a word."""
        f, width = field_bits, genuine_bits(source)
        if width % f or self.held % f:
            for fields in self.chunks(source, count, f, chunk_fields=chunk_fields, multiple=multiple):
                yield fields, 1, fields.size
            return
        carried = min(self.held // f, check_count(count, "count"))
        if carried:
            yield self.fields(source, carried, f), 1, carried
        if count == carried:
            return
        for size in _chunk_sizes(source, count - carried, f, chunk_fields, multiple):
            values, per = field_words(source, size, f)
            self.held = (values.size * per - size) * f  # the fields of the last word past the chunk's
            self.rest = int(values[-1]) & ((1 << self.held) - 1)
            yield values, per, size


def field_words(source: Source, count: int, field_bits: int) -> tuple[np.ndarray, int]:
    """Return the first ``count`` fields of :func:`bit_fields` still in their words, and the fields per word ``k``.

    When ``f = field_bits`` divides the width ``w``, the words
    themselves (:func:`words`): ``k = w / f`` fields each, the first in the
    most significant bits, the last word holding ``k`` fields past ``count``
    at most; a compiled test then cuts them where it reads them instead of
    writing them out and reading them again (which costs as much as
    generating the outputs). Otherwise the fields of :func:`bit_fields`,
    ``k = 1``. Either way the outputs read are those :func:`bit_fields` reads.
    """
    width = genuine_bits(source)
    if width % field_bits:
        return bit_fields(source, count, field_bits), 1
    values, width = words(source, -(-check_count(count, "count") * field_bits // width))
    return values, width // field_bits


def field_chunks(source: Source, count: int, field_bits: int, *, chunk_fields: int = 2**20, multiple: int = 1):
    """Yield the ``count`` fields of :func:`bit_fields` a chunk at a time (memory bounded whatever ``count``).

    Every chunk but the last holds a whole number of ``lcm(w, f)``-bit blocks
    (``w`` bits per output, ``f = field_bits``) and of ``multiple``
    fields (the rows of a matrix), about ``chunk_fields`` fields, or fewer
    when a field spans several outputs (``f > w``: about ``chunk_fields``
    outputs a chunk, so that one low bit an output does not make a chunk of
    32 million outputs): no output's bits straddle two chunks, so the
    concatenation is :func:`bit_fields` of ``count`` fields, read from the same outputs.
    """
    yield from BitReader().chunks(source, count, field_bits, chunk_fields=chunk_fields, multiple=multiple)


def field_word_chunks(source: Source, count: int, field_bits: int, *, chunk_fields: int = 2**20, multiple: int = 1):
    """Yield the chunks of :func:`field_chunks` as :func:`field_words` gives them: ``(words, k, fields)``, the
    chunk's ``fields`` fields held ``k`` to a word."""
    yield from BitReader().word_chunks(source, count, field_bits, chunk_fields=chunk_fields, multiple=multiple)


def _chunk_sizes(source: Source, count: int, field_bits: int, chunk_fields: int, multiple: int):
    """The numbers of fields of the chunks of :func:`field_chunks`."""
    count = check_count(count, "count")
    width = genuine_bits(source)
    block = math.lcm(math.lcm(width, field_bits) // field_bits, multiple)
    size = max(1, min(chunk_fields, chunk_fields * width // field_bits) // block) * block
    for start in range(0, count, size):
        yield min(size, count - start)


def bits(source: Source, count: int) -> np.ndarray:
    """Return the first ``count`` bits of the source's bit stream as a uint8 array of 0/1.

    The stream concatenates the ``w`` genuine bits of successive outputs
    (:func:`genuine_words`), most significant bit first; ``ceil(count / w)``
    words are read.
    """
    return BitReader().bits(source, count)


def packed_words(source: Source, count: int, word_bits: int = 32) -> np.ndarray:
    """Return ``count`` words of ``word_bits`` (32 or 64) cut from the source's bit stream.

    When the width ``w`` of the outputs is 8, 16, 32 or 64 bits, the words are the
    outputs' little-endian bytes in order, read as little-endian words, so the
    byte stream does not depend on the word size: a 64-bit output cut into
    32-bit words gives its low half first (numpy's ``integers(dtype=uint32)``
    on PCG64, PractRand's ``stdin32``), and two 32-bit outputs make a 64-bit
    word ``out0 + 2^32 out1`` (what PractRand's ``stdin64`` reads of
    ``out0, out1``). Any other width is packed by :func:`bit_fields`, the first
    bit of the stream becoming the first word's most significant bit.
    """
    if word_bits not in (32, 64):
        raise ValueError(f"word must be 32 or 64 bits; got {word_bits}")
    width = genuine_bits(source)
    if width not in (8, 16, 32, 64):
        return bit_fields(source, count, word_bits)
    values, _ = words(source, -(-check_count(count, "count") * word_bits // width))
    if width == word_bits:
        return values
    data = values.astype(f"<u{width // 8}").view(np.uint8)
    return data[:count * word_bits // 8].view(f"<u{word_bits // 8}").astype(np.uint64)


def packed_chunks(source: Source, chunk_words: int, word_bits: int = 32):
    """Yield the words of :func:`packed_words` chunk after chunk, without end: their concatenation is the stream.

    Each chunk reads a whole number of ``lcm(w, f)``-bit blocks (``w`` bits per
    output, ``f = word_bits``), so no output's bits straddle two chunks
    and none are lost at a boundary; chunks hold about ``chunk_words`` words.
    """
    if word_bits not in (32, 64):
        raise ValueError(f"word must be 32 or 64 bits; got {word_bits}")
    block = math.lcm(genuine_bits(source), word_bits) // word_bits  # words per whole block
    count = max(1, chunk_words // block) * block
    while True:
        yield packed_words(source, count, word_bits)


def scaled_words(source: Source, count: int) -> np.ndarray:
    """Return ``floor(2^32 u)`` of ``count`` successive outputs, ``u = (x - low) / R``: one 32-bit word each.

    TestU01's view of a generator given as uniforms (``unif01``'s 32-bit
    ``GetBits``), computed exactly: ``floor(2^32 v / R)`` for ``v = x - low``.
    For ``R = 2^b`` that is the offset's bits left-aligned (``b <= 32``) or its
    top 32 bits; for other ``R`` every output still gives one word, whose low
    bits mix the output's (MINSTD: ``floor(2^32 v / (2^31 - 2))``).
    """
    values, range_size = offsets(source, count), source.range_size
    if range_size & (range_size - 1) == 0:
        return _left_aligned(values, range_size.bit_length() - 1)
    if range_size < 2**32:
        return (values << np.uint64(32)) // np.uint64(range_size)
    return np.asarray([(int(v) << 32) // range_size for v in values], dtype=np.uint64)


def left_aligned_words(source: Source, count: int) -> np.ndarray:
    """Return each of ``count`` successive outputs' offset ``v = x - low`` left-aligned in a 32-bit word.

    The offset's ``c = bit_length(R - 1)`` bits, the width that holds every
    output, become the word's top bits (``v 2^(32 - c)``; the top 32 of them
    when ``c > 32``): the output as a program stores it, its constant or weak
    bits where a word-aligned test (GCD, binary rank) looks for them.
    """
    return _left_aligned(offsets(source, count), (source.range_size - 1).bit_length())


def _left_aligned(values: np.ndarray, width: int) -> np.ndarray:
    """``width``-bit values as the top bits of 32-bit words (their top 32 bits when wider)."""
    if values.dtype == object:
        return np.asarray([int(v) >> (width - 32) for v in values], dtype=np.uint64)
    return values << np.uint64(32 - width) if width <= 32 else values >> np.uint64(width - 32)


#: ``rnglab stream --format``: how outputs become words. ``packed``: the genuine bits of successive
#: outputs cut into words (:func:`packed_words`); the others: one 32-bit word per output.
STREAM_FORMATS = {"packed": packed_words, "scaled32": scaled_words, "left32": left_aligned_words}


def formatted_chunks(source: Source, stream_format: str, chunk_words: int, word_bits: int = 32):
    """Yield the words of ``stream_format`` chunk after chunk, without end (see :data:`STREAM_FORMATS`).

    ``scaled32`` and ``left32`` write one 32-bit word per output: they take
    neither another word size nor a selection of bits (:class:`SelectedBits`).
    """
    if stream_format not in STREAM_FORMATS:
        raise ValueError(f"stream format must be one of {', '.join(STREAM_FORMATS)}; got {stream_format!r}")
    if stream_format == "packed":
        yield from packed_chunks(source, chunk_words, word_bits)
    if word_bits != 32 or isinstance(source, SelectedBits):
        raise ValueError(f"the {stream_format} format writes one 32-bit word per output: "
                         f"it takes no --word 64, --drop-bits or --low-bits")
    while True:
        yield STREAM_FORMATS[stream_format](source, chunk_words)


@njit(cache=True, nogil=True)
def _fractions(raw, low, shift, range_size, scale, out):  # pragma: no cover - compiled
    """``float((x - low) >> shift) / range_size`` of every ``x`` in ``raw``, into ``out`` (numpy's cast and division:
    the same roundings), or ``float(...) * scale`` when ``scale = 1 / range_size`` is exact (a power of two: then
    the product is the quotient, bit for bit, and costs a fraction of a division)."""
    if scale:
        for i in range(raw.size):
            out[i] = np.float64((raw[i] - low) >> shift) * scale
    else:
        for i in range(raw.size):
            out[i] = np.float64((raw[i] - low) >> shift) / range_size
    return out


@njit(cache=True, nogil=True)
def _digits(raw, low, range_size, d, largest, out):  # pragma: no cover - compiled
    """``min(floor(d ((x - low) / R)), d - 1)`` of every ``x`` in ``raw``, into ``out``."""
    for i in range(raw.size):
        digit = np.uint64(d * (np.float64(raw[i] - low) / range_size))
        out[i] = min(digit, largest)
    return out


@njit(cache=True, nogil=True)
def _below(raw, low, limit, out):  # pragma: no cover - compiled
    """Copy the offsets ``x - low`` below ``limit`` of ``raw`` into ``out`` until it is full.

    Returns the number copied and the number of ``raw`` values read to copy them.
    """
    filled = 0
    for i in range(raw.size):
        value = raw[i] - low
        if value < limit:
            out[filled] = value
            filled += 1
            if filled == out.size:
                return filled, i + 1
    return filled, raw.size


@njit(cache=True, nogil=True, inline="always")
def _cut(values, below, width, field_bits, buffer, held, out):  # pragma: no cover - compiled
    """Cut the ``held < f`` bits of ``buffer`` followed by the concatenation of the ``width``-bit words
    ``(v >> below) mod 2^width`` of ``values`` (the selected bits of :func:`genuine_words`, taken here rather than
    in a pass of their own) into fields of ``f = field_bits`` bits, filling ``out``; return the bits left.

    One pass with a bit buffer: ``buffer`` holds the ``held < f`` bits not
    yet emitted; each value either joins it or completes a field (then any
    whole fields left in the value are emitted, and its remaining low bits
    become the buffer). The values must hold the bits of every field. Every
    shift stays below 64 (shifting a uint64 by 64 is undefined), hence the
    split ``<< (f - held - 1) << 1``. ``out`` comes from numpy, whose large
    allocations use huge pages: an array allocated here would cost a page
    fault every 4 KiB, several times the packing itself. Inlined in
    :func:`_pack` and :func:`_pack_after`.

    Returns
    -------
    buffer, held : numpy.uint64
        The bits left when ``out`` is full (:class:`BitReader` keeps them for its next read).
    """
    count = out.size
    w, f, one, shift = np.uint64(width), np.uint64(field_bits), np.uint64(1), np.uint64(below)
    field_mask, word_mask = ~np.uint64(0) >> (np.uint64(64) - f), ~np.uint64(0) >> (np.uint64(64) - w)
    emitted = 0
    for i in range(values.size):
        if emitted == count:
            break
        value = (values[i] >> shift) & word_mask
        if held + w < f:
            buffer, held = (buffer << w) | value, held + w
            continue
        rest = held + w - f
        out[emitted] = (buffer << (f - held - one) << one) | (value >> rest)
        emitted += 1
        while rest >= f and emitted < count:
            rest -= f
            out[emitted] = (value >> rest) & field_mask
            emitted += 1
        buffer, held = value & ((one << rest) - one), rest
    return buffer, held


@njit(cache=True, nogil=True)
def _pack(values, below, width, field_bits, out):  # pragma: no cover - compiled
    """:func:`_cut` from an empty buffer: the constant start lets the compiler simplify the loop (about 10 %
    faster than :func:`_pack_after`)."""
    return _cut(values, below, width, field_bits, np.uint64(0), np.uint64(0), out)


@njit(cache=True, nogil=True)
def _pack_after(values, below, width, field_bits, buffer, held, out):  # pragma: no cover - compiled
    """:func:`_cut` after the ``held`` bits of ``buffer``."""
    return _cut(values, below, width, field_bits, buffer, held, out)


@njit(cache=True, nogil=True, inline="always")
def _join_words(values, shift, mask, width, per, fields, out):  # pragma: no cover - compiled
    """The fields of :func:`_join`, ``fields`` at a time: ``fields per`` words or-ed into one value, each at its
    own place (``v_j`` at ``w (fields per - 1 - j)``), then cut into ``fields`` fields of ``f = per w`` bits.

    No bit buffer is carried from word to word, so the words of a group
    depend on no earlier one: with ``per`` and ``fields`` constants (:func:`_join`
    inlines this for the usual ones) the compiler unrolls the inner loops and
    runs them in vector registers. Fills ``out`` but its last ``size mod fields``
    fields.
    """
    f = np.uint64(per * width)
    field_mask = ~np.uint64(0) >> (np.uint64(64) - f)
    span = fields * per
    for i in range(out.size // fields):
        joined, first = np.uint64(0), i * span
        for j in range(span):
            joined |= ((values[first + j] >> shift) & mask) << np.uint64((span - 1 - j) * width)
        for k in range(fields):
            out[i * fields + k] = (joined >> (np.uint64(fields - 1 - k) * f)) & field_mask


@njit(cache=True, nogil=True)
def _join(values, below, width, per, out):  # pragma: no cover - compiled
    """Fields of ``f = per w`` bits, each the concatenation of ``per`` successive ``w``-bit words
    ``(v >> below) mod 2^w`` of ``values`` (the first most significant), filling ``out``.

    :func:`_cut` from an empty buffer when ``w`` divides ``f``: the same
    fields, without its branch on the bits held per word. Fields of 1 to 64
    bits from words of 1 to 64 take ``per`` in 1 to 64; the powers of two
    (the low bit or byte in 16-, 32- or 64-bit fields) get a loop of their
    own, and the low bit's 16- and 32-bit fields are cut from 64 bits joined
    at once: 3 to 8 times faster than :func:`_cut` (0.15 to 0.4 ns a word
    against 1 to 2.3, the words in cache); the other ``per`` take the same
    loop with ``per`` unknown (about as fast as :func:`_cut` for wide words,
    twice as fast for the low bit).
    """
    shift, mask = np.uint64(below), ~np.uint64(0) >> np.uint64(64 - width)
    if width == 1 and (per == 16 or per == 32):  # the low bit: 64 words joined at once, cut into 4 or 2 fields
        if per == 16:
            _join_words(values, shift, mask, 1, 16, 4, out)
        else:
            _join_words(values, shift, mask, 1, 32, 2, out)
        whole = out.size - out.size % (64 // per)
        values, out = values[whole * per:], out[whole:]  # the last fields, fewer than a group: one at a time
    if per == 2:
        _join_words(values, shift, mask, width, 2, 1, out)
    elif per == 4:
        _join_words(values, shift, mask, width, 4, 1, out)
    elif per == 8:
        _join_words(values, shift, mask, width, 8, 1, out)
    elif per == 16:
        _join_words(values, shift, mask, width, 16, 1, out)
    elif per == 32:
        _join_words(values, shift, mask, width, 32, 1, out)
    elif per == 64:
        _join_words(values, shift, mask, width, 64, 1, out)
    else:
        _join_words(values, shift, mask, width, per, 1, out)
