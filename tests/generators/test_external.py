"""``rnglab test -`` and ``rnglab test FILE --format ...``: any stream in, read lazily, through the same path."""

import io
import json
import os
import signal
import subprocess
import sys
import threading

import numpy as np
import pytest
from cli_runs import run

from rnglab.generators import make_source
from rnglab.generators.external import ByteStreamSource, InputExhausted, open_input
from rnglab.streams.gateway import packed_words

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def results(out):
    return [(r["test"], r["statistic"], r["pvalue"]) for r in json.loads(out)["results"]]


def test_words_are_little_endian_and_bits_big_endian():
    data = bytes(range(1, 9))
    assert ByteStreamSource(io.BytesIO(data), "u16", "x").random_raw(4).tolist() == [0x0201, 0x0403, 0x0605, 0x0807]
    assert ByteStreamSource(io.BytesIO(data), "u64", "x").random_raw(1).tolist() == [0x0807060504030201]
    assert ByteStreamSource(io.BytesIO(data), "bits", "x").random_raw(2).tolist() == [0x01020304, 0x05060708]


def test_the_end_of_the_input_is_refused_or_rewound_to_byte_zero():
    data = bytes(range(1, 8))  # one whole u32 word and 3 bytes that are never a word
    with pytest.raises(InputExhausted, match=r"ended after 7 bytes \(1 32-bit words\)"):
        ByteStreamSource(io.BytesIO(data), "u32", "x").random_raw(2)
    source = ByteStreamSource(io.BytesIO(data), "u32", "x", rewind=True)
    assert source.random_raw(3).tolist() == [0x04030201] * 3 and source.describe()["rewinds"] == 2


def test_the_input_is_read_as_the_tests_ask():
    handle = io.BytesIO(bytes(4000))
    source = ByteStreamSource(handle, "u32", "x")
    source.random_raw(10)
    assert handle.tell() == 40


@pytest.mark.parametrize("name, word_format, word_bits, tests", [
    ("pcg64", "u64", 64, "collision,serial,gap,matrix-rank,hamming-weight"),
    ("mt19937", "u32", 32, "birthday-spacings,frequency,poker,fourier"),
    # 15-bit outputs: the stream packs their bits into 32-bit words and a bit test reads the same bits (a
    # second test would not: on the generator each test starts at an output, in the file at a word)
    ("msvc", "u32", 32, "matrix-rank"),
])
def test_a_file_gives_the_statistics_of_the_generator_it_holds(tmp_path, capsys, name, word_format, word_bits, tests):
    path = tmp_path / "stream.bin"
    words = packed_words(make_source(name, 9), 2**20, word_bits)
    path.write_bytes(words.astype(f"<u{word_bits // 8}").tobytes())
    direct = run(["test", name, "--seed", "9", "--tests", tests, "--json"], capsys)
    read = run(["test", str(path), "--format", word_format, "--tests", tests, "--json"], capsys)
    assert direct[0] == read[0] and results(direct[1]) == results(read[1])
    assert json.loads(read[1])["input"]["format"] == word_format


def test_standard_input_from_rnglab_stream(capsys):
    command = [sys.executable, "-m", "rnglab"]
    stream = subprocess.run(command + ["stream", "pcg64", "--seed", "4", "--bytes", "2000000"],
                            capture_output=True, check=True).stdout
    piped = subprocess.run(command + ["test", "-", "--format", "u32", "--tests", "collision,frequency", "--json"],
                           input=stream, capture_output=True, check=True).stdout
    words = np.frombuffer(stream, dtype="<u4")
    assert words[:2].tolist() == np.random.Generator(np.random.PCG64(4)).integers(0, 2**32, 2, dtype=np.uint32).tolist()
    assert json.loads(piped)["generator"] == "stdin" and len(results(piped)) == 2


def test_a_file_too_short_is_refused_with_what_it_holds(tmp_path, capsys):
    path = tmp_path / "short.bin"
    path.write_bytes(bytes(range(256)) * 40)
    status, out, err = run(["test", str(path), "--format", "u32", "--tests", "frequency"], capsys)
    assert status == 2 and out == ""
    assert err.startswith(f"Error: {path} ended after 10,240 bytes (2,560 32-bit words)") and "--rewind" in err
    assert "stopped in frequency, test 1 of 1" in err and len(err.splitlines()) == 1


def test_rewind_is_reported(tmp_path, capsys):
    path = tmp_path / "short.bin"
    path.write_bytes(packed_words(make_source("pcg64", 1), 25_000).astype("<u4").tobytes())
    status, out, _ = run(["test", str(path), "--format", "u32", "--tests", "frequency", "--rewind", "--fail-on", "never"], capsys)
    assert status == 0 and "400,000 bytes read, rewound 3 times" in out.splitlines()[0]
    status, out, _ = run(["test", str(path), "--format", "u32", "--tests", "frequency", "--rewind", "--json"], capsys)
    assert json.loads(out)["input"] == {"format": "u32", "word_bits": 32, "bytes_read": 400_000, "rewinds": 3}


WORDS = np.arange(1, 9, dtype="<u4")  # eight 32-bit words: 1, 2, ..., 8


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "fifo"
    os.mkfifo(path)
    return path


def _words_of(handle) -> list[int]:
    return ByteStreamSource(handle, "u32", "fifo").random_raw(len(WORDS)).tolist()


def test_a_fifo_whose_writer_has_written_is_read_from_its_first_byte(fifo):
    writer = os.open(fifo, os.O_RDWR)  # a writer already there, its words waiting (the probe reads one byte)
    os.write(writer, WORDS.tobytes())
    waited = []
    handle = open_input(str(fifo), on_wait=lambda: waited.append(True))
    os.close(writer)
    assert _words_of(handle) == WORDS.tolist() and waited == []


def test_a_fifo_whose_writer_has_not_written_yet_is_read_whole(fifo):
    writer = os.open(fifo, os.O_RDWR)
    handle = open_input(str(fifo), on_wait=lambda: pytest.fail("a writer is there"))
    os.write(writer, WORDS.tobytes())
    os.close(writer)
    assert _words_of(handle) == WORDS.tolist()


def _write_words(fifo):
    with open(fifo, "wb") as writer:  # blocks until a reader has the FIFO open
        writer.write(WORDS.tobytes())


def test_a_fifo_without_a_writer_says_so_and_waits_for_one(fifo):
    writing = threading.Thread(target=_write_words, args=(fifo,))
    handle = open_input(str(fifo), on_wait=writing.start)
    writing.join(timeout=30)
    assert _words_of(handle) == WORDS.tolist()


def test_a_writer_that_comes_writes_and_leaves_while_the_reader_waits_is_read_whole(fifo):
    def write_all_and_leave():  # the writer is gone before the reader waits (a blocking open would wait forever)
        writing = threading.Thread(target=_write_words, args=(fifo,))
        writing.start()
        writing.join(timeout=30)

    handle = open_input(str(fifo), on_wait=write_all_and_leave)
    assert _words_of(handle) == WORDS.tolist()


def test_rewind_of_a_fifo_is_refused(fifo, capsys):
    status, out, err = run(["test", str(fifo), "--format", "u32", "--rewind"], capsys)
    assert (status, out) == (2, "")
    assert err == f"Error: --rewind needs a file: {fifo} is a FIFO, which cannot be read again\n"


def test_ctrl_c_while_waiting_for_a_writer_ends_the_run(fifo):
    process = subprocess.Popen([sys.executable, "-m", "rnglab", "test", str(fifo), "--format", "u32"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONPATH": ROOT})
    assert process.stderr.readline() == f"waiting for a writer on FIFO {fifo} (Ctrl-C to stop)\n"
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert (process.returncode, out, err.strip()) == (130, "", "Interrupted.")  # after click's newline


def test_an_input_the_system_cannot_read_is_one_error(capsys):
    status, out, err = run(["test", "/proc/self/mem", "--format", "u32", "--tests", "frequency"], capsys)
    assert (status, out, err) == (2, "", "Error: cannot read /proc/self/mem: Input/output error\n")


def test_without_gen_the_error_says_how_to_read_standard_input(capsys):
    status, _, err = run(["test", "--format", "u32"], capsys)
    assert status == 2 and err.endswith("; to read standard input, give - as GEN\n")
