"""Card names and parsing (conventions relied on by seed recovery)."""

import pytest

from rnglab.shuffles.cards import XIANGQI_SIDE, card_name, deck_for, multiset_deck, parse_cards, standard_deck


def test_card_indices_follow_the_convention():
    assert [card_name(i) for i in (0, 12, 13, 51, 52, 53)] == ["Ac", "Kc", "Ad", "Ks", "BJ", "RJ"]


def test_names_are_case_insensitive_and_ten_is_t():
    assert parse_cards("as, AS".split(",")[0]) == [standard_deck().index("As")]
    assert parse_cards("10s ts".split()[0]) == parse_cards("Ts")
    assert parse_cards("Ac, 5 bj") == [0, 5, 52]


@pytest.mark.parametrize("text", ["Zz", "As as", "1000"])
def test_bad_cards_are_refused(text):
    with pytest.raises(ValueError):
        parse_cards(text)


def test_too_many_cards_are_refused():
    with pytest.raises(ValueError, match="holds 52"):
        parse_cards(" ".join(str(i) for i in range(52)) + " 1", standard_deck())


def test_xiangqi_side_has_16_pieces_named_by_index():
    # 1 general, 2 each of advisors, elephants, horses, chariots, cannons, 5 soldiers: 16 (not 15)
    deck = multiset_deck("xiangqi", XIANGQI_SIDE)
    assert deck.size == 16 and deck.labels.count("soldier") == 5 and not deck.named
    assert parse_cards("0 15", deck) == [0, 15]
    with pytest.raises(ValueError, match="indices"):
        parse_cards("soldier", deck)
    assert deck_for("54").size == 54
