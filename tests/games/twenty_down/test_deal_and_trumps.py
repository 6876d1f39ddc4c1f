"""Setup: scores, the deal in packets, the trump maker, the stock, the deal passing left."""

import pytest

from fairdeal.core.games.base import IllegalMove, Move, NotYourTurn

from .deals import DEAL
from .helpers import game, hand, name_trump, walkover_deal


def test_each_player_starts_at_twenty():
    assert game(DEAL).scores == [20, 20, 20, 20]


def test_first_dealer_comes_from_chance():
    state = game(DEAL, dealer=2)
    assert state.dealer == 2
    assert state.to_move == 3


def test_dealer_gives_each_player_two_cards_first_from_the_dealers_left():
    state = game(DEAL)
    assert state.phase == "trump"
    assert hand(state, 1) == {"AS", "10S"}
    assert hand(state, 2) == {"7C", "8C"}
    assert hand(state, 3) == {"9D", "10D"}
    assert hand(state, 0) == {"JH", "QH"}


def test_trump_maker_is_the_dealers_left_and_names_trump():
    state = game(DEAL)
    assert state.to_move == 1 and state.view(None)["trump_maker"] == 1
    with pytest.raises(NotYourTurn):
        state.apply(2, Move.trump("C"))
    state.apply(1, Move.trump("S"))
    assert state.trump == "S" and state.view(None)["trump"] == "S"


def test_trump_is_one_of_the_four_suits():
    state = game(DEAL)
    assert state.why_not(1, Move.trump("X")) == "Name trumps as C, D, H or S."
    assert sorted(m.value for m in state.legal_moves(1)) == ["C", "D", "H", "S"]


def test_three_more_cards_each_in_one_packet_and_the_rest_is_the_stock():
    state = game(DEAL)
    name_trump(state, "S")
    assert hand(state, 1) == {"AS", "10S", "KS", "QS", "JS"}
    assert hand(state, 2) == {"7C", "8C", "9C", "10C", "JC"}
    assert hand(state, 0) == {"JH", "QH", "KH", "AH", "7H"}
    assert state.view(None)["stock"] == 12


def test_deal_passes_to_the_left_after_every_hand():
    state = game(DEAL)
    walkover_deal(state)
    assert state.dealer == 1 and state.deal_no == 2 and state.to_move == 2
    walkover_deal(state)
    assert state.dealer == 2 and state.deal_no == 3 and state.to_move == 3


def test_a_deal_is_chance_never_a_move():
    state = game(DEAL)
    with pytest.raises(IllegalMove):
        state.apply(1, Move("redeal"))
