"""Report section: how many seeds each seeding policy leaves, and simultaneous tables that share one."""

from __future__ import annotations

from rnglab.generators import as_generator
from rnglab.report.document import Section, Table
from rnglab.seeds.policies import POLICIES, collision_probability, parse_window, simultaneous_tables

#: The window of the collision table: tables started within a minute of 10:00.
WINDOW = "2026-11-22T10:00:00±30s"
TABLES = (2, 10, 100)


def _probability(policy, window, tables) -> str:
    value = float(collision_probability(policy.distribution(window), tables).probability)
    return f"{value:.3g}"


def section(context) -> Section:
    """Seed-space sizes per policy over a minute, a day and a year; collision chances; a shared deal."""

    window = parse_window(WINDOW)
    uptime = parse_window("1m", now=0)
    rows = []
    for name, policy in POLICIES.items():
        sizes = [policy.space_size(length) for length in (60_000, 86_400_000, 365 * 86_400_000)]
        used = uptime if name == "ms-boot" else window
        rows.append([f"`{name}`", policy.description] + sizes
                    + [_probability(policy, used, k) for k in TABLES])
    table = Table(["policy", "seed", "seeds / minute", "seeds / day", "seeds / year"]
                           + [f"P(shared seed), {k} tables" for k in TABLES], rows)
    demo = simultaneous_tables(POLICIES["time-s"], window, 10, as_generator("msvc"), seed=context.seed)
    i, j = demo.pair
    example = (f"Simulated with seed {context.seed}: 10 tables started at uniform times in {WINDOW} under "
               f"`srand(time(0))`; in round {demo.trials}, tables {i} and {j} both got seed "
               f"{int(demo.table_seeds[i])} and dealt the same first cards (MSVC `rand() % 52`): "
               f"{' '.join(map(str, demo.first_outputs[0]))} and {' '.join(map(str, demo.first_outputs[1]))}.")
    text = ("Tables started within one minute (`ms-boot`: within one minute of boot) receive the same seed, "
            "and so the same deal, with the exact probabilities below (birthday problem over each policy's "
            "seed distribution, start times uniform to the millisecond, pids uniform in [1, 32767]).")
    summary = (f"10 tables started within a minute under `srand(time(0))` share a seed with probability "
               f"{_probability(POLICIES['time-s'], window, 10)}")
    return Section("Seeding", [text, table, example], summary)
