"""bench/bench_memory.py's cells: a peak within the reference interpreter's noise is shown as ``< NOISE``, never
as a difference of noise (the table printed "-0" and "-1 MiB above imports" for streamed tests)."""

import importlib
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"


@pytest.fixture
def bench_memory(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCH))
    return importlib.import_module("bench_memory")


def test_the_noise_is_the_spread_of_the_reference_peaks_and_at_least_one_mib(bench_memory):
    assert bench_memory.noise_kib([170_864, 168_048, 168_104, 168_288, 168_040]) == 2_824
    assert bench_memory.noise_kib([168_040, 168_100]) == 1_024


@pytest.mark.parametrize("peak", [168_040 - 1_024, 168_040, 168_040 + 2_824])
def test_a_peak_within_the_noise_is_shown_as_below_it(bench_memory, peak):
    # noise 2,824 KiB = 2.76 MiB, shown rounded up; 2,824 KiB x 1,024 / 2^23 samples = 0.34 bytes per sample
    assert bench_memory.above_imports(peak, 168_040, 2_824, 2**23) == ["< 3", "< 0.3"]


def test_a_peak_beyond_the_noise_is_shown_as_its_difference(bench_memory):
    # 134,144 KiB above the reference = 131 MiB; x 1,024 / 2^23 = 16.375 bytes per sample
    assert bench_memory.above_imports(168_040 + 134_144, 168_040, 2_824, 2**23) == ["131", "16.4"]
