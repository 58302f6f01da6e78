"""Normalisations of the spectral test: the constants gamma_t that LatMRG offers.

A lattice of determinant (volume per point) V in t dimensions has a shortest non-zero
vector of length at most ``gamma_t^(1/2) V^(1/t)``, gamma_t Hermite's constant. The m-dual
lattice of an MRG of order k modulo m has V = m^k in t > k dimensions, and in t <= k it is
``m Z^t`` when the points fill the grid, so LatMRG (and this package) normalise

    S_t = nu_t / (gamma_t^(1/2) m^(k/t))   (t > k),      S_t = nu_t / m   (t <= k).

gamma_t is known exactly only for t <= 8 and t = 24; the normalisations differ above:

``bestlat``
    gamma_t of the densest lattice packing known (exact for t <= 8 and 24): Conway & Sloane,
    *Sphere Packings, Lattices and Groups*, 3rd ed., Table I.1(a) of the preface; Cohn (2017)
    Table 1. A lower bound on gamma_t, so S_t can exceed 1. t <= 48.
``laminated``
    gamma_t = 4 lambda_t^(-1/t) of the laminated lattices Lambda_t (Conway & Sloane, Table 6.1,
    p. 158): equal to ``bestlat`` except in t = 11..13, 27..36 and 38..48 (lower there). t <= 48.
``rogers``
    Rogers' upper bound on the packing density (Conway & Sloane, Table 1.2, p. 15, for t <= 24;
    their eq. (47), p. 20, ``R(t) = t/2 log2(t / 4 pi e) + 3/2 log2 t - log2(e / sqrt(pi)) +
    5.25 / (t + 2.5)`` and ``gamma_t = 4 * 2^(2 R(t) / t)``, above): a true upper bound, so
    ``S_t <= 1``; L'Ecuyer's choice for MRG32k3a (Operations Research 47(1), 1999). Any t.

The tables are the values of LatticeTester's ``NormaBestLat``, ``NormaLaminated`` and
``NormaRogers`` (github.com/pierrelecuyer/latticetester, commit dbda694), so that the figures of
merit agree with LatMRG's to the printed digits (``tests/data/latmrg``).
"""

from __future__ import annotations

import math

#: gamma_1..gamma_48 of the densest known lattices (LatticeTester NormaBestLat).
BEST_LATTICE = (
    1.0, 1.1547005383793, 1.2599210498949, 1.4142135623731, 1.5157165665104, 1.6653663553112,
    1.8114473285278, 2.0, 2.0, 2.0583720179295, 2.140198065871, 2.3094010767585, 2.3563484301065,
    2.4886439198224, 2.6390158215458, 2.8284271247462, 2.8866811540599, 2.986825999361,
    3.0985192845333, 3.2490095854249, 3.3914559675101, 3.5727801951422, 3.7660273525956, 4.0,
    3.8906197896491, 3.8345038118867, 3.8405094116889, 3.8858143186426, 3.8513016372256,
    3.890079350856, 4.0493929444608, 4.2426406871193, 4.1983166567599, 4.1923458021689,
    4.2448520933335, 4.3453285925836, 4.2312416483228, 4.4626316710462, 4.5228010665648,
    4.6661029086385, 4.8084724701927, 4.9619948528877, 5.1129393316586, 5.2613041578794,
    5.4070956951517, 5.5851474972462, 5.7755698526865, 6.0,
)

#: gamma_1..gamma_48 of the laminated lattices (LatticeTester NormaLaminated).
LAMINATED = (
    1.0, 1.15470053837925, 1.25992104989487, 1.41421356237309, 1.5157165665104, 1.66536635531121,
    1.81144732852781, 2.0, 2.0, 2.05837201792952, 2.13008217887993, 2.24492409661875,
    2.34692092000925, 2.48864391982238, 2.63901582154579, 2.82842712474619, 2.88668115405991,
    2.98682599936104, 3.09851928453331, 3.24900958542494, 3.39145596751014, 3.57278019514216,
    3.76602735259556, 4.0, 3.89061978964914, 3.83450381188673, 3.7998064283344, 3.80678061204248,
    3.81328532378654, 3.85616802789424, 3.91155414534173, 4.0, 4.0, 4.03398853947441,
    4.0800064376848, 4.15703690412737, 4.23124164832276, 4.33546037046114, 4.45012590438595,
    4.59479341998814, 4.65735933059734, 4.75016320908659, 4.85364895344187, 4.98703323713956,
    5.11791276058506, 5.27922773469898, 5.45208672393488, 5.65685424949238,
)

#: gamma_1..gamma_24 from Rogers' bound (LatticeTester NormaRogers; above 24: :func:`rogers_formula`).
ROGERS = (
    1.0, 1.15472, 1.2972925427178, 1.4492480809026, 1.5916002961306, 1.7315537290705,
    1.8696088064088, 2.006052470232, 2.1411671718503, 2.2751349805586, 2.4081055004162,
    2.5401903576369, 2.671499016465, 2.8020630856483, 2.9320505407083, 3.0614381882081,
    3.1903070449466, 3.318714864331, 3.4466883426431, 3.5742655437525, 3.7014670196163,
    3.8283274848644, 3.9548705630986, 4.0811157647776,
)

#: Normalisation names and what they are, for messages and output.
NORMALIZATIONS = {
    "bestlat": "densest known lattices (Conway & Sloane 3rd ed., Table I.1(a)), a lower bound on gamma_t",
    "laminated": "laminated lattices (Conway & Sloane, Table 6.1), a lower bound on gamma_t",
    "rogers": "Rogers' upper bound (Conway & Sloane, Table 1.2 and eq. (47))",
}


def rogers_formula(t: int) -> float:
    """gamma_t from Rogers' bound through Conway & Sloane's approximation (47) of R(t)."""
    r = (0.5 * t * math.log2(t / (4.0 * math.e * math.pi)) + 1.5 * math.log2(t)
         - math.log2(math.e / math.sqrt(math.pi)) + 5.25 / (t + 2.5))
    return 4.0 * 2.0 ** (2.0 * r / t)


def gamma(norm: str, t: int) -> float | None:
    """gamma_t under a normalisation of :data:`NORMALIZATIONS`, or None where it has no value."""
    if norm not in NORMALIZATIONS:
        raise ValueError(f"normalisation must be one of {', '.join(NORMALIZATIONS)}; got {norm!r}")
    if norm == "rogers":
        return ROGERS[t - 1] if t <= len(ROGERS) else rogers_formula(t)
    table = BEST_LATTICE if norm == "bestlat" else LAMINATED
    return table[t - 1] if t <= len(table) else None


def normalized_merit(nu2: int, m: int, k: int, s: int, norm: str) -> float | None:
    """``S = nu / bound``: bound ``m`` for s <= k, else ``gamma_s^(1/2) m^(k/s)`` (through logarithms)."""
    if s <= k:
        return 1.0 if nu2 == m * m else math.exp(0.5 * math.log(nu2) - math.log(m))
    g = gamma(norm, s)
    if g is None:
        return None
    return math.exp(0.5 * math.log(nu2) - 0.5 * math.log(g) - k * math.log(m) / s)
