"""The one registry type behind every name lookup, and its one error."""

import pytest

from rnglab.core.registry import Registry, UnknownName
from rnglab.empirical.battery import batteries
from rnglab.empirical.stattests import TESTS
from rnglab.generators.catalog import catalog
from rnglab.reduction.reducers import REDUCERS
from rnglab.seeds.policies import POLICIES
from rnglab.shuffles.algorithms import SHUFFLES
from rnglab.shuffles.pipelines import pipelines


def test_a_name_gives_its_entry_and_an_unknown_one_the_list():
    colours = Registry("colour", {"red": 1, "green": 2})
    assert colours["green"] == 2 and list(colours) == ["red", "green"] and len(colours) == 2
    with pytest.raises(ValueError, match=r"^unknown colour 'blue'; choose from red, green$"):
        colours["blue"]


def test_the_error_is_a_value_error_and_a_key_error_printed_as_written():
    colours = Registry("colour", {"red": 1})
    assert colours.get("blue", 0) == 0 and "blue" not in colours and [] not in colours
    with pytest.raises(UnknownName) as caught:
        colours[["not", "hashable"]]
    assert isinstance(caught.value, KeyError) and str(caught.value) == \
        "unknown colour ['not', 'hashable']; choose from red"


def test_entries_are_loaded_on_first_use_once():
    loads = []
    registry = Registry("thing", lambda: loads.append(1) or {"a": 1})
    assert loads == []
    assert registry["a"] == 1 and "a" in registry and loads == [1]


def test_register_refuses_a_name_twice_and_the_tail_words_the_list():
    registry = Registry("test", {}, tail=lambda names: f" (known: {len(names)})")
    registry.register("x", 1)
    with pytest.raises(ValueError, match="^test 'x' is registered twice$"):
        registry.register("x", 2)
    with pytest.raises(ValueError, match=r"^unknown test 'y' \(known: 1\)$"):
        registry["y"]


@pytest.mark.parametrize(("registry", "kind"), [
    (REDUCERS, "reducer"), (SHUFFLES, "shuffle"), (POLICIES, "seed policy"), (TESTS, "test"),
    (batteries(), "battery"), (pipelines(), "pipeline"), (catalog(), "generator"),
])
def test_every_lookup_is_a_registry(registry, kind):
    assert isinstance(registry, Registry) and registry.kind == kind
    with pytest.raises(UnknownName, match=f"^unknown {kind} 'nope'"):
        registry["nope"]
