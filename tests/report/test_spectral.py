"""The spectral section of the report (rnglab.report.spectral): every catalog LCG ranked by M_8, RANDU's planes, the
MRGs by their CRT equivalent, against Knuth's nu_t and the Hermite constants."""

import math

import pytest

from rnglab.algebra.spectral import spectral_test
from rnglab.generators import catalog
from rnglab.report import render_pages
from rnglab.report.spectral import _row, catalog_results, section

#: Hermite's constants gamma_t for t = 2..8 (the densest lattice packings; Conway and Sloane, table 1.2).
HERMITE = {2: (4 / 3) ** 0.5, 3: 2 ** (1 / 3), 4: 2**0.5, 5: 8 ** (1 / 5), 6: (64 / 3) ** (1 / 6), 7: 64 ** (1 / 7),
           8: 2.0}


@pytest.fixture(scope="module")
def spectral_section(quick_section):
    return quick_section(section)


def test_report_section(spectral_section):
    context, part = spectral_section
    text = render_pages([part], 7, True)["report.md"]
    assert "| `randu` |" in text and "15 planes" in text
    # the MRGs and combinations by their CRT equivalent: MRG32k3a's S_4 from nu_4^2 = 80601709987872970831494285955,
    # which LatMRG's result file prints as 8.06017e+28 (tests/data/latmrg/mrg32k3a_rogers.tsv), normalised here by
    # the densest known lattice in 4 dimensions (bestlat) instead of Rogers' bound
    assert "| `mrg32k3a` | 3 | 2^64.00 | 0.678 | 11 | 1.000 | 1.000 | 0.848 |" in text
    assert sorted(context.figures) == ["figures/spectral_merits.png", "figures/spectral_randu.png"]


def test_randu_s_row_from_knuths_nu():
    # RANDU (a = 65539, m = 2^31): nu_2^2 = 536936458, nu_3^2 = 118, nu_4^2 .. nu_6^2 = 116 (Knuth, TAOCP vol. 2,
    # 3.3.4, table 1); a multiplicative generator mod 2^e lives on the lattice of modulus m / gcd(a - 1, m) = 2^30.
    nu2 = {2: 536936458, 3: 118, 4: 116, 5: 116, 6: 116, 7: 116, 8: 116}
    merits = {t: math.sqrt(nu2[t]) / (math.sqrt(HERMITE[t]) * 2 ** (30 / t)) for t in nu2}
    row = _row("randu", spectral_test(65539, 2**31, 0, range(2, 9), planes_up_to=3))
    assert row[:4] == ["`randu`", "65539", str(2**31), str(2**30)]
    assert row[4:6] == [f"{min(merits.values()):.3f}", 3]                  # M_8 and the worst dimension
    assert row[6:13] == [f"{merits[t]:.3f}" for t in range(2, 9)]
    assert row[13:] == [118, 15]                                           # nu_3^2 and the 15 planes


def test_the_catalog_is_ranked_best_first():
    results = catalog_results(dims=range(2, 4))
    assert sorted(name for name, _ in results) == sorted(name for name, e in catalog().items() if e.is_lcg)
    merits = [result.M for _, result in results]
    assert merits == sorted(merits, reverse=True)


def test_the_summary_names_the_best_and_the_worst(spectral_section):
    _, part = spectral_section
    assert part.summary == "best M_8 0.637 (`mmix`), worst 0.009 (`randu`); RANDU's 15 planes"
