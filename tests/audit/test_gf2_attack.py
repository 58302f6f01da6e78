"""The audit's GF(2) attack (rnglab.audit.gf2_attack): which generators it runs on, what it observes, the rank it
reaches and the states left; the fewest bottom cards of a V8 deal."""

import pytest

from rnglab.audit import from_pipeline, from_table
from rnglab.audit.gf2_attack import fewest_bottom_cards, is_v8_deal
from rnglab.audit.target import AUDIT_SEED
from rnglab.shuffles.algorithms import shuffle


@pytest.mark.parametrize(("generator", "linear", "observed"), [
    ("mt19937", True, "624 consecutive 32-bit outputs"), ("python_random53", True, "624 consecutive random() values"),
    ("xorshift128", True, "4 consecutive outputs"), ("well512a", True, "16 consecutive outputs"),
    ("v8", True, "4 consecutive Math.random() values"), ("v8-53", True, "4 consecutive Math.random() values"),
    ("v8-plus", False, None), ("unity", True, "4 consecutive outputs"), ("mt19937_64", True, None),
    ("xoshiro256starstar", False, None), ("pcg64", False, None)])
def test_gf2_linearity_is_a_property_of_the_generator(generator, linear, observed):
    from rnglab.audit.attack import linear_applies
    from rnglab.audit.gf2_attack import linear_attack, runs_gf2_attack

    target = from_table({"generator": generator, "seeding": "os", "shuffle": "fisher-yates"})
    assert linear_applies(target) is linear and runs_gf2_attack(target) is (observed is not None)
    if observed:
        attack = linear_attack(target)
        assert attack.observed == observed and attack.rank >= attack.unknowns - 4   # random(): 4 bits never seen
        assert attack.states == (16 if generator == "python_random53" else 1)


def test_only_the_javascript_fisher_yates_on_v8_is_a_v8_deal():
    assert is_v8_deal(from_pipeline("js-fisher-yates-v8"))
    assert not is_v8_deal(from_pipeline("python3-shuffle"))
    assert not is_v8_deal(from_table({"generator": "v8", "seeding": "os", "shuffle": "fisher-yates"}))


def test_the_fewest_bottom_cards_of_a_v8_deal_are_its_last_ones_reversed():
    # The deal of AUDIT_SEED: 30 bottom cards (position 51 first) leave rank 113 of 128 and one state.
    target = from_pipeline("js-fisher-yates-v8")
    deck = [int(card) for card in shuffle(target.n, target.generator.make(AUDIT_SEED), target.shuffle, target.reducer)]
    bottom, found = fewest_bottom_cards(target, AUDIT_SEED)
    assert bottom == deck[::-1][:30] and (found.rank, found.unknowns, len(found.solutions)) == (113, 128, 1)
