"""``rnglab stream``: raw little-endian words on standard output, for external batteries.

Example: ``rnglab stream randu | dieharder -g 200 -a`` or
``rnglab stream msvc | RNG_test stdin32``.
"""

from __future__ import annotations

import sys

import click

from rnglab.cli.choices import STREAM_FORMATS
from rnglab.cli.common import COUNT, bit_selection, generator_options, lazy, selected_make
from rnglab.cli.progress import counter

formatted_chunks = lazy("streams.gateway", "formatted_chunks")

#: Words produced per write.
CHUNK_WORDS = 1 << 18


@click.command("stream")
@generator_options()
@click.option("--bytes", "byte_count", type=COUNT, default=None,
              help="Stop after this many bytes (default: until the reader closes the pipe).")
@click.option("--word", "word_bits", type=click.Choice(["32", "64"]), default="32", show_default=True,
              help="Word size written, little-endian.")
@click.option("--drop-bits", type=COUNT, default=0, help="Drop the top r bits of every output first.")
@click.option("--low-bits", type=COUNT, default=None, help="Keep only the low k bits of every output.")
@click.option("--format", "stream_format", type=click.Choice(STREAM_FORMATS), default="packed", show_default=True,
              help="packed: the genuine bits of successive outputs cut into words; scaled32: TestU01's "
                   "floor(u * 2^32), one 32-bit word per output; left32: each raw output left-aligned in a "
                   "32-bit word.")
def stream_command(generator, byte_count, word_bits: str, drop_bits: int, low_bits, stream_format: str) -> None:
    """Write generator GEN's bit stream to standard output as raw little-endian words.

    The stream concatenates the genuine bits of successive outputs (15 per
    MSVC rand(), 31 per RANDU, 32 per java next(32)), most significant bit
    first, and cuts it into 32- or 64-bit words. Outputs of 8, 16, 32 or 64
    bits keep their little-endian bytes instead (a 64-bit output as 32-bit
    words: low half first, as numpy and PractRand's stdin32 read it).
    --format scaled32 and left32 write one 32-bit word per output instead,
    which shows word-aligned tests (GCD, binary rank) the generator's
    structure, and its constant bits too.
    """
    source = selected_make(generator, bit_selection(drop_bits, low_bits))(None)
    bits = int(word_bits)
    remaining = None if byte_count is None else byte_count
    out = sys.stdout.buffer
    chunks = formatted_chunks(source, stream_format, CHUNK_WORDS, bits)
    with counter("written", "bytes") as written:  # the reader's speed, on a terminal
        while remaining is None or remaining > 0:
            data = next(chunks).astype(f"<u{bits // 8}").tobytes()
            if remaining is not None:
                data, remaining = data[:remaining], remaining - min(remaining, len(data))
            out.write(data)
            written.update(len(data))
        out.flush()
