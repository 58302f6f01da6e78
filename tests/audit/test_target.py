"""What an audit examines (rnglab.audit.target): a named pipeline or a TOML file, every name resolved once, and
the one-line refusals of a file that does not describe a pipeline."""

from pathlib import Path

import pytest

from rnglab.audit.target import (
    DEFAULT_CARDS_SEEN,
    DEFAULT_GAMES_PER_DAY,
    DEFAULT_TABLES,
    from_pipeline,
    from_table,
    from_toml,
    resolve,
    with_deployment,
)
from rnglab.generators import as_generator
from rnglab.reduction.reducers import REDUCERS
from rnglab.shuffles.pipelines import pipelines

DATA = Path(__file__).parents[1] / "data" / "audit"


def test_a_named_pipeline_gives_its_parts_and_the_default_deployment():
    target = from_pipeline("deitel-msvc")
    assert target.describe() == {
        "name": "deitel-msvc", "generator": "msvc", "reducer": "modulo", "shuffle": "deitel", "seeding": "time-s",
        "window": "1d", "deck": "deitel", "n": 52, "games_per_day": 100_000, "cards_seen": 7, "tables": 1_000}
    chosen = pipelines()["deitel-msvc"]
    assert (target.generator, target.reducer, target.shuffle, target.seeding, target.deck) == (
        chosen.generator, chosen.reducer, chosen.shuffle, chosen.seeding, chosen.deck)
    assert (target.games_per_day, target.cards_seen, target.tables) == (DEFAULT_GAMES_PER_DAY, DEFAULT_CARDS_SEEN,
                                                                          DEFAULT_TABLES) == (100_000, 7, 1_000)


def test_a_toml_pipeline_is_resolved_like_the_named_one():
    target = from_toml(DATA / "sound.toml")
    assert target.describe() == {
        "name": "pcg64-lemire-fisher-yates", "generator": "pcg64", "reducer": "lemire", "shuffle": "fisher-yates",
        "seeding": "os", "window": "1d", "deck": "standard-52", "n": 52, "games_per_day": 100_000, "cards_seen": 7,
        "tables": 1_000}
    assert target.generator == as_generator("pcg64") and target.reducer is REDUCERS["lemire"]


def test_a_table_s_defaults_the_generator_s_own_reducer_a_52_card_deck_and_the_file_s_name():
    target = from_table({"generator": "java", "seeding": "os", "shuffle": "fisher-yates"}, "mine")
    assert (target.name, target.reducer.name, target.n, target.window.text) == ("mine", "java-nextint", 52, "1d")


def test_a_user_function_is_named_and_loaded_from_beside_the_file():
    target = from_toml(DATA / "user-function.toml")
    assert target.shuffle is None and target.function is not None
    assert target.shuffle_label == "user function shuffles.py:fisher_yates"


def test_the_deployment_figures_are_replaced_and_checked_against_the_deck():
    target = with_deployment(from_pipeline("java-collections"), window="1h", games_per_day=5, cards_seen=52,
                             tables=2)
    assert (target.window.text, target.games_per_day, target.cards_seen, target.tables) == ("1h", 5, 52, 2)
    kept = with_deployment(target)
    assert (kept.window, kept.games_per_day, kept.cards_seen, kept.tables) == (target.window, 5, 52, 2)
    with pytest.raises(ValueError, match=r"^cards seen must be in \[1, 52\] for a 52-card deck; got 53$"):
        with_deployment(target, cards_seen=53)


def test_resolve_reads_a_toml_file_or_a_pipeline_name():
    assert resolve(str(DATA / "sound.toml")).name == "pcg64-lemire-fisher-yates"
    assert resolve(str(DATA / "sound.toml"), "1h").window.text == "1h"
    assert resolve("deitel-msvc", "2h").window.text == "2h"


@pytest.mark.parametrize("table, message", [
    ({"generator": "pcg64", "seeding": "os", "shuffle": "fisher-yates", "bogus": 1},
     ("unknown keys bogus; the keys are generator, seeding, window, reducer, shuffle, function, swaps, deck, "
     "games_per_day, cards_seen, tables, name")),
    ({"generator": "pcg64", "shuffle": "fisher-yates"},
     "missing keys seeding (every pipeline names its generator and seeding)"),
    ({"generator": "pcg64", "seeding": "os"},
     "give exactly one of shuffle (an algorithm name) and function (file.py:function)"),
    ({"generator": "pcg64", "seeding": "os", "shuffle": "fisher-yates", "function": "f.py:g"},
     "give exactly one of shuffle (an algorithm name) and function (file.py:function)"),
    ({"generator": 64, "seeding": "os", "shuffle": "fisher-yates"}, "generator must be a string; got 64"),
    ({"generator": "pcg64", "seeding": "os", "shuffle": "fisher-yates", "tables": 0},
     "tables must be a positive integer; got 0"),
    ({"generator": "pcg64", "seeding": "os", "shuffle": "fisher-yates", "cards_seen": True},
     "cards_seen must be a positive integer; got True"),
    ({"generator": "pcg64", "seeding": "os", "shuffle": "fisher-yates", "games_per_day": 1.5},
     "games_per_day must be a positive integer; got 1.5"),
    ({"generator": "nope", "seeding": "os", "shuffle": "fisher-yates"}, "unknown generator 'nope'"),
])
def test_a_table_that_describes_no_pipeline_is_refused_in_one_line(table, message):
    with pytest.raises(ValueError) as refused:
        from_table(table)
    assert str(refused.value).startswith(message) and "\n" not in str(refused.value)


def test_a_file_that_is_not_a_pipeline_is_refused(tmp_path):
    with pytest.raises(ValueError, match=f"^no such file: {tmp_path / 'none.toml'}$"):
        from_toml(tmp_path / "none.toml")
    with pytest.raises(ValueError, match=r"malformed.toml: not valid TOML: "):
        from_toml(DATA / "malformed.toml")
    (tmp_path / "latin1.toml").write_bytes(b'generator = "\xe9"\n')
    with pytest.raises(ValueError, match=r"latin1.toml: not valid TOML: "):
        from_toml(tmp_path / "latin1.toml")
