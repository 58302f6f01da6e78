"""``rnglab seeds``: how many seeds a seeding policy leaves, and when simultaneous tables share one."""

from __future__ import annotations

import click

from rnglab.cli.choices import SEED_WINDOW as DEFAULT_WINDOW
from rnglab.cli.common import GENERATOR, IntExpr, emit_json, format_table, json_option, lazy

policy, policy_summary, simultaneous_tables = lazy("seeds.policies", "policy", "policy_summary",
                                                  "simultaneous_tables")
policy_window = lazy("seeds.space", "policy_window")


@click.command("seeds")
@click.argument("policy_name", metavar="POLICY")
@click.option("--window", help=f"Start times: a duration (the last 1d, 90m, 3600s) or 2026-11-22T10:00:00±60s "
                                f"[default: {DEFAULT_WINDOW}; none for a fixed seed].")
@click.option("--tables", type=IntExpr(minimum=1), help="Games started in the window: chance two share a seed.")
@click.option("--generator", type=GENERATOR, default="msvc", show_default=True,
              help="Generator the tables seed (for the shared-seed example; drawn with its own reducer).")
@click.option("--seed", type=IntExpr(minimum=0), default=0, show_default=True,
              help="Seed of the simulation of start times.")
@json_option
def seeds_command(policy_name, window, tables, generator, seed, as_json) -> None:
    """Seed-space size of seeding POLICY over a window, and the collision chance of simultaneous tables.

    POLICY is fixed (or fixed:N), time-s, ms-midnight, ms-boot, pid-time, vb-timer, guid-hash, random-device or os.
    """
    chosen = policy(policy_name)
    parsed = policy_window(chosen, window)
    space = policy_summary(chosen, parsed, tables, seed)
    demo = simultaneous_tables(chosen, parsed, tables, generator, seed=seed) if tables and tables >= 2 else None
    if as_json:
        emit_json({**space.to_dict(), "tables": demo.to_dict() if demo else None})
        return
    click.echo(f"{space.policy}: {space.description}")
    click.echo(f"window {space.window}: {space.seeds} seeds ({space.bits:.1f} bits); "
               f"example seed {space.example_seed} (simulation seed {seed})")
    click.echo(format_table(["window length", "seeds"], [[k, v] for k, v in space.sizes.items()]))
    if space.collision is not None:
        probability = space.collision.probability
        click.echo(f"\n{tables} tables: P(two share a seed) = {float(probability):.6g}"
                   f" ({'exact' if space.collision.exact else 'approximate'}: {space.collision.formula})")
    if demo is not None:
        _show_demo(demo)


def _show_demo(demo) -> None:
    if demo.pair is None:
        click.echo(f"no shared seed in {demo.trials} simulated rounds")
        return
    i, j = demo.pair
    click.echo(f"simulated round {demo.trials}: tables {i} and {j} both got seed {int(demo.table_seeds[i])}; "
               f"first {len(demo.first_outputs[0])} draws below 52 ({demo.generator}): "
               f"{' '.join(map(str, demo.first_outputs[0]))} | {' '.join(map(str, demo.first_outputs[1]))}")
