"""Spades (docs/rules/spades.md), "The tricks" and "Leading spades", sentence by sentence."""

import pytest

from fairdeal.core.cards import card_from_str
from fairdeal.core.games.base import IllegalMove, Move

from .helpers import MIXED, SPADES_AFTER_CLUBS, SUITED, bid, new_game, play

EVEN = {0: 3, 1: 3, 2: 3, 3: 3}


def started(deal, first_dealer=0):
    game = new_game(deal, first_dealer=first_dealer)
    bid(game, EVEN)
    return game


def last_trick(game):
    return game.view(None)["tricks"][-1]


def test_the_player_on_the_dealers_left_leads_the_first_trick():
    for dealer in range(4):
        game = started(SUITED, first_dealer=dealer)
        assert game.to_move == (dealer + 1) % 4
        assert game.view(None)["trick"]["leader"] == (dealer + 1) % 4


def test_follow_the_suit_led_if_you_can():
    game = started(MIXED)
    play(game, "AH")
    assert game.why_not(2, Move.play(card_from_str("AC"))) == "You must follow hearts."
    assert game.why_not(2, Move.play(card_from_str("6S"))) == "You must follow hearts."
    with pytest.raises(IllegalMove, match="You must follow hearts."):
        game.apply(2, Move.play(card_from_str("AC")))
    assert {m.card for m in game.legal_moves(2)} == {card_from_str(c) for c in ("KH", "QH", "2H", "3H")}


def test_if_you_cannot_follow_play_any_card_a_spade_too():
    game = started(MIXED)
    play(game, "AH", "2H")
    legal = {str(m.card) for m in game.legal_moves(3)}  # seat 3 has no heart
    assert legal == set(MIXED[3].split())
    play(game, "8S", "4H")
    assert last_trick(game)["winner"] == 3


def test_the_highest_spade_takes_the_trick():
    game = started(MIXED)
    play(game, "AH", "2H", "8S", "4H")  # seat 3 trumps the ace
    play(game, "2D", "QD", "KD", "AD")  # seat 2 takes it
    play(game, "3H", "9S", "5H", "2S")  # two spades: the higher, 9S, takes it
    trick = last_trick(game)
    assert (trick["winner"], trick["winning_card"]) == (3, "9S")


def test_with_no_spade_the_highest_card_of_the_led_suit_takes_the_trick():
    game = started(MIXED)
    play(game, "2C", "9C", "10D", "JH")  # higher ranks of other suits do not count
    trick = last_trick(game)
    assert (trick["winner"], trick["winning_card"]) == (2, "9C")


def test_aces_are_high():
    game = started(MIXED)
    play(game, "AH", "2H", "8S", "4H")
    play(game, "2D", "QD", "KD", "AD")
    assert (last_trick(game)["winner"], last_trick(game)["winning_card"]) == (2, "AD")


def test_whoever_takes_a_trick_leads_the_next():
    game = started(MIXED)
    play(game, "2C", "9C", "10D", "JH")
    assert game.to_move == 2
    assert game.view(None)["trick"]["leader"] == 2


def test_nobody_may_lead_a_spade_until_spades_are_broken():
    game = started(MIXED)
    assert game.why_not(1, Move.play(card_from_str("2S"))) == "Spades are not broken yet."
    with pytest.raises(IllegalMove, match="Spades are not broken yet."):
        game.apply(1, Move.play(card_from_str("2S")))
    assert not game.view(None)["spades_broken"]
    assert all(m.card.suit != "S" for m in game.legal_moves(1))


def test_a_spade_played_on_an_earlier_trick_breaks_spades():
    game = started(MIXED)
    play(game, "AH", "2H", "8S")
    assert not game.view(None)["spades_broken"]  # not until that trick is over
    play(game, "4H")
    assert game.view(None)["spades_broken"]
    assert game.why_not(3, Move.play(card_from_str("9S"))) is None
    play(game, "9S")
    assert last_trick(game)["winner"] == 3 and game.view(None)["trick"]["plays"] == [[3, "9S"]]


def test_spades_are_unbroken_again_in_a_new_hand():
    from .helpers import play_out

    game = new_game(SUITED, MIXED, first_dealer=3)
    bid(game, EVEN)
    play_out(game)  # spades were played all hand long
    bid(game, EVEN)
    assert game.view(None)["spades_broken"] is False
    assert game.why_not(1, Move.play(card_from_str("2S"))) == "Spades are not broken yet."


def test_a_hand_of_nothing_but_spades_may_lead_one_at_any_time():
    game = started(SPADES_AFTER_CLUBS)
    play(game, "AC", "2H", "2D", "2C")
    play(game, "KC", "3H", "3D", "3C")
    play(game, "QC", "4H", "4D", "4C")
    assert not game.view(None)["spades_broken"]
    assert game.why_not(1, Move.play(card_from_str("2S"))) is None
    play(game, "2S")


def test_a_spade_led_from_an_all_spade_hand_breaks_spades():
    game = started(SPADES_AFTER_CLUBS)
    play(game, "AC", "2H", "2D", "2C", "KC", "3H", "3D", "3C", "QC", "4H", "4D", "4C")
    play(game, "2S", "AS", "5D", "5C")  # seat 2 wins, and holds hearts as well
    assert game.view(None)["spades_broken"]
    assert game.why_not(2, Move.play(card_from_str("KS"))) is None


def test_the_first_lead_is_never_a_spade_unless_that_hand_holds_only_spades():
    game = started(SPADES_AFTER_CLUBS)
    assert game.why_not(1, Move.play(card_from_str("2S"))) == "Spades are not broken yet."
    only_spades = started(SUITED, first_dealer=2)  # seat 3 leads, holding all thirteen spades
    assert only_spades.to_move == 3
    assert only_spades.why_not(3, Move.play(card_from_str("2S"))) is None
    assert len(only_spades.legal_moves(3)) == 13


def test_thirteen_tricks_make_a_hand():
    from .helpers import play_out

    game = new_game(MIXED, SUITED)
    bid(game, EVEN)
    play_out(game)
    summary = game.view(None)["last_hand"]
    assert sum(summary["tricks_taken"]) == 13
    assert game.view(None)["hand_number"] == 1 and game.view(None)["tricks"] == []
