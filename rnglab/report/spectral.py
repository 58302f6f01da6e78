"""Report section: Knuth's spectral test of every LCG, MRG and combination in the catalog, and RANDU's planes."""

from __future__ import annotations

from rnglab.algebra.mrg_spectral import mrg_spectral_test
from rnglab.algebra.spectral import spectral_test
from rnglab.generators import catalog, make_source
from rnglab.report.document import Section, Table

#: Successive states drawn for the picture of RANDU's planes (quick: fewer; the 15 planes stay plain).
RANDU_STATES, RANDU_STATES_QUICK = 20_000, 5_000
#: Dimensions of the MRG table: t = 2..16 (an MRG's t <= k are filled, S_t = 1).
MRG_DIMS = range(2, 17)


def catalog_results(dims=range(2, 9), planes_up_to: int = 0, callback=None) -> list:
    """``(name, SpectralResult)`` for every LCG of the catalog, best M first."""
    entries = [entry for entry in catalog().values() if entry.is_lcg]
    results = []
    for index, entry in enumerate(entries, 1):
        results.append((entry.name, spectral_test(entry.a, entry.m, entry.c, dims,
                                                  planes_up_to=planes_up_to)))
        if callback:
            callback(index, len(entries))
    return sorted(results, key=lambda item: (-(item[1].M or 0.0), item[0]))


def _row(name, result) -> list:
    worst = min(result.dims, key=lambda d: d.S)
    three = next(d for d in result.dims if d.t == 3)
    return ([f"`{name}`", str(result.a), str(result.m), str(result.lattice_m), f"{result.M:.3f}", worst.t]
            + [f"{d.S:.3f}" for d in result.dims] + [three.nu2, three.planes])


def mrg_table() -> Table:
    """S_t for t = 2..16 of every MRG and combination of the catalog (combinations by their CRT equivalent)."""
    rows = []
    for entry in (entry for entry in catalog().values() if entry.is_mrg):
        result = mrg_spectral_test(entry.combination, MRG_DIMS, planes_up_to=0)
        worst = min(result.dims, key=lambda d: d.S)
        rows.append([f"`{entry.name}`", result.k, result.m, f"{result.M:.3f}", len(worst.coordinates)]
                    + [f"{d.S:.3f}" for d in result.dims])
    return Table(["name", "order k", "m (equivalent)", f"M_{MRG_DIMS[-1]}", "worst t"]
                 + [f"S_{t}" for t in MRG_DIMS], rows)


def section(context) -> Section:
    """The catalog ranked by M_8, the S_t bars, and RANDU's 15 planes seen edge-on."""
    from rnglab.plot.lattice import generator_figure, merits_figure

    results = catalog_results(planes_up_to=3)
    table = Table(
        ["name", "a", "m", "lattice m", "M_8", "worst t"] + [f"S_{t}" for t in range(2, 9)]
        + ["nu_3^2", "planes (3-D)"], [_row(name, result) for name, result in results])
    bars = context.add_figure("spectral_merits", merits_figure(results),
                              "S_t by dimension t for every catalog LCG (1 is the best lattice possible)")
    randu = dict(results)["randu"]
    drawn = RANDU_STATES_QUICK if context.quick else RANDU_STATES
    states = make_source("randu").random_states(drawn + 2)
    planes_3d = next(d.planes for d in randu.dims if d.t == 3)
    planes = context.add_figure("spectral_randu", generator_figure("randu", randu, states, 2**31),
                                f"RANDU: pairs in a corner of the unit square (left), {drawn:,} successive "
                                f"triples seen edge-on to their {planes_3d} planes (middle), S_t (right)")
    text = (
        "Knuth's spectral test (TAOCP vol. 2, 3.3.4), computed exactly: nu_t is the length of "
        "the shortest non-zero vector s of the dual lattice "
        "{s : s_1 + a s_2 + ... + a^(t-1) s_t = 0 (mod m)}, so successive t-tuples lie on "
        "parallel hyperplanes 1/nu_t apart. S_t = nu_t / (gamma_t^(1/2) m^(1/t)) is 1 for the "
        "best lattice possible; M_8 = min S_t over t = 2..8 ranks generators as in "
        "L'Ecuyer's tables. Figures concern "
        "the state recurrence; multiplicative generators modulo 2^e use the lattice "
        "modulus m / gcd(a - 1, m). `rnglab spectral` reproduces this table.")
    randu_text = (f"RANDU's triples lie on {planes_3d} planes "
                  "(x_(n+2) = 6 x_(n+1) - 9 x_n mod 2^31), visible when the cube is seen edge-on to "
                  "them; its pairs, on the left, look like a fine lattice.")
    mrg_text = (
        "Multiple recursive generators and combinations (L'Ecuyer and Couture 1997; L'Ecuyer 1999): a "
        "combination is tested as its equivalent MRG by the Chinese remainder theorem (modulus the product of "
        "the components'), through the same exact lattice code; for t <= k the points fill the grid and "
        "S_t = 1 by convention; normalisation by the densest known lattices (LatMRG's bestlat). "
        "`rnglab spectral mrg32k3a --dims 4..48 --norm rogers` goes to t = 48 and reproduces LatMRG's table.")
    best, worst = results[0], results[-1]
    summary = f"best M_8 {best[1].M:.3f} (`{best[0]}`), worst {worst[1].M:.3f} (`{worst[0]}`); RANDU's {planes_3d} planes"
    return Section("Spectral test (lattice structure of LCGs and MRGs)",
                   [text, table, bars, randu_text, planes, mrg_text, mrg_table()], summary)
