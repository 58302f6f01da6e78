"""Card names and parsing (conventions relied on by seed recovery)."""

import pytest

from rnglab.shuffles.cards import XIANGQI_SIDE, card_name, deck_for, multiset_deck, parse_cards, standard_deck


def test_card_indices_follow_the_convention():
    assert [card_name(i) for i in (0, 12, 13, 51, 52, 53)] == ["Ac", "Kc", "Ad", "Ks", "BJ", "RJ"]


def test_names_are_case_insensitive_and_ten_is_t():
    assert parse_cards("as") == parse_cards("AS") == [standard_deck().index("As")]
    assert parse_cards("10s") == parse_cards("ts") == parse_cards("Ts")
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


def test_deitel_deck_has_the_books_rows_hearts_diamonds_clubs_spades():
    # deck[row][column] is slot 13 row + column; suit[4] = {"Hearts", "Diamonds", "Clubs", "Spades"}
    deck = deck_for("deitel")
    assert [deck.label(i) for i in (0, 12, 13, 26, 39, 51)] == ["Ah", "Kh", "Ad", "Ac", "As", "Ks"]
    assert deck_for("52").label(0) == "Ac" and deck.size == 52


def test_cards_spelled_out_as_deitels_program_prints_them():
    deck = deck_for("deitel")
    assert parse_cards("Ace of Hearts, Deuce of Clubs\tten of SPADES, Ks, 10d", deck) == [0, 27, 48, 51, 22]
    assert parse_cards("Two of Clubs Queen of Diamonds") == [1, 24]  # the standard deck: clubs first
    with pytest.raises(ValueError, match="unknown face 'Joker' in 'Joker of Hearts'"):
        parse_cards("Joker of Hearts", deck)
