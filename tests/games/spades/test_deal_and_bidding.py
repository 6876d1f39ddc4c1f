"""Spades (docs/rules/spades.md), "Two teams", "The deal" and "The bid", sentence by sentence."""

import pytest

from fairdeal.core.cards import cards_from_str
from fairdeal.core.games import make_rules
from fairdeal.core.games.base import BadSettings, FixedChance, IllegalMove, MalformedMove, Move, NotYourTurn
from fairdeal.core.games.spades import SpadesRules

from .helpers import MIXED, SUITED, bid, deck_for, new_game, play_out


@pytest.mark.parametrize("players", [2, 3, 5])
def test_exactly_four_players(players):
    with pytest.raises(BadSettings, match="played by 4 players"):
        make_rules("spades", players=players)


def test_registered_as_spades_with_no_settings():
    rules = make_rules("spades")
    assert isinstance(rules, SpadesRules)
    assert rules.settings == {}
    with pytest.raises(BadSettings, match="no setting 'target'"):
        make_rules("spades", {"target": 300})


def test_partners_sit_across_play_goes_you_opponent_partner_opponent():
    game = new_game(MIXED)
    bid(game, {1: 3, 2: 3, 3: 3, 0: 3})
    order = []
    for _ in range(4):
        order.append(game.to_move)
        game.apply(game.to_move, game.legal_moves(game.to_move)[0])
    assert order == [1, 2, 3, 0]
    assert game.view(None)["sides"] == [[0, 2], [1, 3]]


def test_cards_are_dealt_one_at_a_time_from_the_dealers_left():
    deck = cards_from_str("AS 2C 3D 4H KS 5C 6D 7H")  # the rest follows in canonical pack order
    game = make_rules("spades").new_game(FixedChance([deck], first_dealer=2))
    assert game.dealer == 2
    assert {str(c) for c in cards_from_str("AS KS")} <= set(game.view(3)["hand"])  # dealer's left first
    assert {"2C", "5C"} <= set(game.view(0)["hand"])
    assert {"3D", "6D"} <= set(game.view(1)["hand"])
    assert {"4H", "7H"} <= set(game.view(2)["hand"])  # the dealer last


def test_one_deck_of_52_everyone_gets_13():
    game = new_game(MIXED)
    hands = [set(game.view(s)["hand"]) for s in range(4)]
    assert [len(h) for h in hands] == [13, 13, 13, 13]
    assert len(set().union(*hands)) == 52
    assert hands[1] == set(MIXED[1].split())


def test_first_dealer_comes_from_the_chance():
    for first in range(4):
        game = make_rules("spades").new_game(FixedChance([deck_for(first, SUITED)], first_dealer=first))
        assert game.view(None)["dealer"] == first


def test_deal_moves_one_seat_left_every_hand_with_the_next_deck():
    game = new_game(SUITED, SUITED, first_dealer=3)
    assert (game.view(None)["dealer"], game.view(None)["hand_number"]) == (3, 0)
    bid(game, {0: 1, 1: 1, 2: 1, 3: 1})
    play_out(game)
    view = game.view(None)
    assert (view["dealer"], view["hand_number"], view["phase"]) == (0, 1, "bid")
    # hand 1 was dealt from the second deck, with seat 0 as dealer: SUITED again, seat by seat
    assert set(game.view(3)["hand"]) == set(SUITED[3].split())


def test_bidding_starts_on_the_dealers_left_and_everyone_bids_once():
    game = new_game(MIXED, first_dealer=0)
    assert game.view(None)["phase"] == "bid"
    order = []
    for value in (4, 0, 13, 2):
        order.append(game.to_move)
        game.apply(game.to_move, Move.bid(value))
    assert order == [1, 2, 3, 0]
    view = game.view(None)
    assert view["bids"] == [2, 4, 0, 13]
    assert view["phase"] == "play"
    assert game.legal_moves(1) and all(m.kind == "play" for m in game.legal_moves(1))


def test_bids_are_from_0_to_13():
    game = new_game(MIXED)
    assert game.legal_moves(1) == [Move.bid(v) for v in range(14)]
    for bad in (14, -1):
        reason = game.why_not(1, Move("bid", value=bad))
        assert reason == "A bid is a whole number of tricks from 0 (nil) to 13."
        with pytest.raises(IllegalMove, match="from 0 \\(nil\\) to 13"):
            game.apply(1, Move("bid", value=bad))
    for bad in ("3", 2.5, True):  # not a whole number: no bid at all
        with pytest.raises(MalformedMove, match="'value' is a whole number"):
            Move("bid", value=bad)
    assert game.view(None)["bids"] == [None] * 4


def test_a_bid_of_zero_is_nil_and_needs_no_other_word():
    game = new_game(MIXED)
    game.apply(1, Move.bid(0))
    assert game.view(None)["bids"][1] == 0


def test_no_blind_nil_cards_are_seen_before_any_bid_and_only_bids_are_taken():
    game = new_game(MIXED)
    assert len(game.view(1)["hand"]) == 13  # the bidder sees the hand before bidding
    for move in (Move.pass_(), Move("mine"), Move.trump("S"), Move.play(cards_from_str("AH")[0])):
        reason = game.why_not(1, move)
        assert reason and reason.startswith("It is time to bid")


def test_each_player_bids_only_once_in_turn():
    game = new_game(MIXED)
    game.apply(1, Move.bid(3))
    with pytest.raises(NotYourTurn, match="It is not your turn: seat 2 is to bid."):
        game.apply(1, Move.bid(4))
    assert game.view(None)["bids"] == [None, 3, None, None]
