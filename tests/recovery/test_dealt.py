"""State recovery from a deal: the JVM's own Collections.shuffle from its bottom cards, the draws each path of a
program makes, the information a few cards carry, and the shuffles whose deal is not read as draws."""

import math

import pytest
from recovery.test_lattice import JAVA, jvm_lines

from rnglab.draws.bounded import draw_bounded_reference
from rnglab.generators import as_generator
from rnglab.recovery.clues import Clue
from rnglab.recovery.crack import observe
from rnglab.recovery.dealt import check_cards_information, draw_paths, recover_from_deal
from rnglab.recovery.lattice import InsufficientObservations
from rnglab.reduction.reducers import as_reducer
from rnglab.shuffles.algorithms import make_shuffle, shuffle
from rnglab.shuffles.cards import deck_for


@pytest.mark.parametrize("seed, deck", list(jvm_lines("deck")))
def test_java_collections_shuffle_from_the_bottom_12_cards(seed, deck):
    positions = list(range(51, 39, -1))
    seen = observe(" ".join(str(deck[p]) for p in positions), ",".join(map(str, positions)))
    result = recover_from_deal(JAVA, JAVA.native_reducer, make_shuffle("fisher-yates"), seen)
    assert result.seeds == [seed % 2**48]  # new Random(seed) keeps the low 48 bits of the seed
    assert result.decks == [seen.deck.names(deck)]


def test_fisher_yates_bottom_cards_are_the_first_draws_exactly():
    seed, deck = next(jvm_lines("deck"))
    rolls = [int(draw_bounded_reference(JAVA.make(seed), 52, 1, JAVA.native_reducer).values[0])]
    seen = observe(str(deck[51]), "51")
    assert draw_paths(make_shuffle("fisher-yates").program(52), seen) == [[Clue.value(rolls[0], 52)]]


def test_an_unseen_draw_branches():
    deck = shuffle(52, JAVA.make(77), make_shuffle("forward"), JAVA.native_reducer)
    positions = [0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11]
    seen = observe(" ".join(str(int(deck[p])) for p in positions), ",".join(map(str, positions)))
    paths = draw_paths(make_shuffle("forward").program(52), seen)
    assert len(paths) > 1 and all(path[9] == Clue(0, 42, 43) for path in paths)
    assert recover_from_deal(JAVA, JAVA.native_reducer, make_shuffle("forward"), seen).seeds == [77]


def test_too_few_cards_say_how_many_are_needed():
    # 52 x 51 x ... x 44 = 2^50.2 >= 2^48 > 52 x ... x 45 = 2^44.8: nine cards at least
    seen = observe("As Kd 7h", "51,50,49")
    with pytest.raises(InsufficientObservations, match="at least 9 cards"):
        recover_from_deal(JAVA, JAVA.native_reducer, make_shuffle("fisher-yates"), seen)


@pytest.mark.parametrize("algo", ["deitel", "draw-unused", "unrank"])
def test_a_deal_of_a_redrawing_shuffle_is_not_read_as_draws(algo):
    # Deitel's loop draws rand() % 4, rand() % 13 and redraws taken slots: not one draw below the cards left
    seen = observe("As Kd 7h 2c 9s Qh Jd 3c 4s Th", None)
    with pytest.raises(ValueError, match=f"{algo} redraws when a try fails"):
        recover_from_deal(as_generator("msvc"), as_reducer("modulo"), make_shuffle(algo), seen)


def test_nine_cards_carry_the_48_bits_of_java_s_state_and_eight_do_not():
    assert math.log2(math.perm(52, 9)) > 48 > math.log2(math.perm(52, 8))
    check_cards_information(JAVA, observe("As Kd 7h 2c 9s Qh Jd 3c 4s", "51,50,49,48,47,46,45,44,43"))
    with pytest.raises(InsufficientObservations, match=r"8 card\(s\) of 52 carry at most 44\.8 bits .* at least 9"):
        check_cards_information(JAVA, observe("As Kd 7h 2c 9s Qh Jd 3c", "51,50,49,48,47,46,45,44"))


def test_a_deck_too_small_for_the_state_says_so():
    # 10 cards carry at most log2(10!) = 21.8 bits, against java's 48
    with pytest.raises(InsufficientObservations, match=r"a deck of 10 cards carries at most 21\.8 bits"):
        check_cards_information(JAVA, observe("0 1 2 3 4 5 6 7 8 9", None, deck_for(10)))


def test_the_forward_shuffle_s_first_card_is_its_first_draw():
    # the forward Fisher-Yates fixes position 0 at its first step by a draw below 52: the card seen there, its
    # index in the unshuffled deck, is that draw exactly
    paths = draw_paths(make_shuffle("forward").program(52), observe("Kd", "0"))
    assert paths == [[Clue.value(deck_for(52).index("Kd"), 52)]]
