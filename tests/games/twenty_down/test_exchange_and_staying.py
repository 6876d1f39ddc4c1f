"""Exchanging cards, then staying in or dropping out."""

import pytest

from fairdeal.core.cards import cards_from_str
from fairdeal.core.games.base import IllegalMove, MalformedMove, Move

from .deals import DEAL
from .helpers import answer_stay, deck_for, exchange_nothing, game, hand, name_trump, play


def throw(text: str) -> Move:
    return Move.throw(cards_from_str(text))


def test_exchange_goes_in_turn_from_the_dealers_left():
    state = game(DEAL)
    name_trump(state, "S")
    assert state.phase == "exchange"
    seen = []
    while state.phase == "exchange":
        seen.append(state.to_move)
        state.apply(state.to_move, throw(""))
    assert seen == [1, 2, 3, 0]


def test_throw_up_to_three_at_once_and_draw_as_many_from_the_top_of_the_stock():
    state = game(DEAL)
    name_trump(state, "S")
    state.apply(1, throw("KS QS JS"))
    assert hand(state, 1) == {"AS", "10S", "7S", "8S", "9S"}
    state.apply(2, throw("7C"))
    assert hand(state, 2) == {"8C", "9C", "10C", "JC", "7D"}
    view = state.view(None)
    assert [p["exchanged"] for p in view["seats"]] == [None, 3, 1, None]
    assert view["stock"] == 8


def test_throwing_four_cards_is_refused_and_changes_nothing():
    state = game(DEAL)
    name_trump(state, "S")
    before = state.view(1)
    move = throw("KS QS JS AS")
    assert state.why_not(1, move) == "You may throw at most three cards."
    with pytest.raises(IllegalMove, match="at most three"):
        state.apply(1, move)
    assert state.view(1) == before


def test_throwing_the_same_card_twice_is_refused_and_changes_nothing():
    # "discard up to three cards at once": three different cards; a doubled card once crashed apply half-way
    state = game(DEAL)
    name_trump(state, "S")
    before = state.view(1)
    with pytest.raises(MalformedMove, match="The same card is named twice in one throw."):
        Move("throw", cards=tuple(cards_from_str("KS KS")))  # no such move can even be made
    with pytest.raises(MalformedMove, match="The same card is named twice in one throw."):
        Move.from_json({"kind": "throw", "cards": ["KS", "KS"]})
    assert state.view(1) == before and hand(state, 1) == {"AS", "10S", "KS", "QS", "JS"}


def test_keeping_all_cards_is_allowed():
    state = game(DEAL)
    name_trump(state, "S")
    state.apply(1, throw(""))
    assert hand(state, 1) == {"AS", "10S", "KS", "QS", "JS"}
    assert state.view(None)["seats"][1]["exchanged"] == 0


def test_throwing_a_card_not_held_is_refused():
    state = game(DEAL)
    name_trump(state, "S")
    assert state.why_not(1, throw("7C")) == "You do not hold 7C."


def test_legal_moves_list_every_throw_of_up_to_three_cards():
    state = game(DEAL)
    name_trump(state, "S")
    moves = state.legal_moves(1)
    assert len(moves) == len(set(moves)) == 1 + 5 + 10 + 10


def test_the_player_opposite_the_dealer_decides_first_about_staying():
    state = game(DEAL)
    name_trump(state, "S")
    exchange_nothing(state)
    assert state.phase == "stay"
    asked = []
    while state.phase == "stay":
        asked.append(state.to_move)
        state.apply(state.to_move, Move("stay"))
    assert asked == [2, 3, 0]


def test_the_trump_maker_must_stay_in_and_is_not_asked():
    state = game(DEAL)
    name_trump(state, "S")
    exchange_nothing(state)
    assert state.why_not(1, Move("drop")) == "The trump maker must stay in."
    answer_stay(state)
    assert state.status[1] == "in" and state.view(None)["seats"][1]["forced"]


def test_with_diamonds_trumps_everyone_stays_in():
    state = game(DEAL)
    name_trump(state, "D")
    exchange_nothing(state)
    assert state.phase == "play"
    assert state.status == ["in"] * 4
    assert state.why_not(2, Move("drop")) == "With diamonds trumps everyone stays in."


def test_a_player_who_drops_out_puts_cards_away_and_scores_nothing():
    state = game(DEAL)
    name_trump(state, "S")
    exchange_nothing(state)
    answer_stay(state, drops=[2])
    assert state.tricks.seats == [1, 3, 0]
    # Seat 1 holds the five top spades and wins every trick; seat 2 stays at 20, seats 3 and 0 go up 5.
    play(state, "AS", "9D", "JH", "10S", "10D", "QH", "KS", "JD", "KH", "QS", "QD", "AH", "JS", "KD", "7H")
    assert state.scores == [25, 15, 20, 25]
    assert state.last_hand["dropped"] == [2]


def test_if_all_others_drop_out_the_trump_maker_takes_five_tricks_without_play():
    state = game(DEAL)
    name_trump(state, "S")
    exchange_nothing(state)
    answer_stay(state, drops=[2, 3, 0])
    assert state.scores == [20, 15, 20, 20]
    assert state.last_hand["walkover"] and state.last_hand["tricks_won"] == [0, 5, 0, 0]
    assert state.deal_no == 2


def test_if_all_others_drop_out_with_hearts_trumps_the_trump_maker_takes_ten_off():
    state = game(DEAL)
    name_trump(state, "H")
    exchange_nothing(state)
    answer_stay(state, drops=[2, 3, 0])
    assert state.scores == [20, 10, 20, 20]


def test_a_player_who_is_not_asked_cannot_stay_or_drop():
    state = game(deck_for(0, {1: "AS 10S"}))
    name_trump(state, "S")
    assert state.why_not(2, Move("stay")) == "It is not your turn: seat 1 is to throw up to three cards (or none)."
    assert state.why_not(1, Move("stay")) == "Now you throw up to three cards (or none)."
