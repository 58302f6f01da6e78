"""``rnglab stream`` (rnglab.cli.stream): the bytes an external battery reads, worked by hand.

RANDU from 1 gives 65539, 393225, 1769499 (31 bits each). ``--format left32`` writes each output shifted left by
one bit; ``packed`` (the default) concatenates the 31-bit outputs, most significant bit first, so its first word is
``65539 << 1 | 393225 >> 30``. MMIX's 64-bit outputs keep their little-endian bytes.
"""

import struct

from click.testing import CliRunner

from rnglab.cli.stream import stream_command

RANDU = [65539, 393225, 1769499]


def stream(*args: str) -> bytes:
    result = CliRunner().invoke(stream_command, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout_bytes


def test_left32_aligns_each_output_to_the_top_bit():
    assert struct.unpack("<3I", stream("randu", "--format", "left32", "--bytes", "12")) == tuple(x << 1 for x in RANDU)


def test_packed_concatenates_the_31_bit_outputs():
    bits = "".join(format(x, "031b") for x in RANDU)
    first, second = struct.unpack("<2I", stream("randu", "--bytes", "8"))
    assert (first, second) == (int(bits[:32], 2), int(bits[32:64], 2))
    assert first == 65539 << 1 | 393225 >> 30


def test_64_bit_outputs_are_little_endian():
    data = stream("mmix", "--seed", "0", "--bytes", "16", "--word", "64")
    assert struct.unpack("<2Q", data) == (1442695040888963407, 1876011003808476466)
    assert struct.unpack("<2I", stream("mmix", "--seed", "0", "--bytes", "8")) == \
        (1442695040888963407 % 2**32, 1442695040888963407 >> 32)


def test_bytes_stops_mid_word():
    assert stream("randu", "--format", "left32", "--bytes", "3") == struct.pack("<I", 65539 << 1)[:3]


def test_v8_53_packs_its_53_bit_outputs():
    # V8 13.5's Math.random() * 2^53 for seed 1337 (tests/data/v8/variants/reference.txt): 8387144214554405, ...
    bits = "".join(format(x, "053b") for x in (8387144214554405, 3198855198512544, 7136547180106867))
    assert struct.unpack("<2Q", stream("v8-53", "--seed", "1337", "--bytes", "16", "--word", "64")) == \
        (int(bits[:64], 2), int(bits[64:128], 2))
    assert struct.unpack("<I", stream("v8-53", "--seed", "1337", "--format", "scaled32", "--bytes", "4")) == \
        (8387144214554405 >> 21,)


def test_unity_writes_its_32_bit_outputs():
    # Random.InitState(0): 1900725526, 1900725046 (see tests/cli/test_gen.py)
    assert struct.unpack("<2I", stream("unity", "--seed", "0", "--bytes", "8")) == (1900725526, 1900725046)
