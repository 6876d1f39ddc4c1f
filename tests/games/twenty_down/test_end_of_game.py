"""After eight deals, and winning the game."""

import pytest

from fairdeal.core.games.base import GameOver, Move

from .deals import THREE_AND_TWO
from .helpers import deck_for, exchange_nothing, game, play, to_play, walkover_deal


def eight_quiet_deals(state):
    """Eight deals in which all but the trump maker drop out: every seat ends on 10."""
    for _ in range(8):
        walkover_deal(state, "S")
    assert state.scores == [10, 10, 10, 10]


def test_after_eight_deals_hearts_are_trumps_without_choosing():
    state = game()
    eight_quiet_deals(state)
    assert state.deal_no == 9 and state.view(None)["endgame"]
    assert state.trump == "H" and state.phase == "exchange"
    assert all(m.kind == "throw" for m in state.legal_moves(state.to_move))
    assert state.why_not(state.to_move, Move.trump("S")) == "Now you throw up to three cards (or none)."


def test_after_eight_deals_nobody_may_drop_out():
    state = game()
    eight_quiet_deals(state)
    assert state.why_not(3, Move("drop")) == "After eight deals nobody may drop out."
    exchange_nothing(state)
    assert state.phase == "play" and state.status == ["in"] * 4


def test_after_eight_deals_scores_are_doubled():
    state = game()
    eight_quiet_deals(state)
    while state.deal_no == 9 and not state.is_over:
        seat = state.to_move
        state.apply(seat, state.rules.timeout_move(state.view(seat)))
    last = state.last_hand
    assert last["trump"] == "H" and last["multiplier"] == 2
    assert last["changes"] == [-2 * w if w else 10 for w in last["tricks_won"]]


def test_the_eighth_deal_itself_still_has_a_choice():
    state = game()
    for _ in range(7):
        walkover_deal(state, "S")
    assert state.deal_no == 8 and state.phase == "trump"


def test_the_first_player_at_zero_wins():
    state = game()
    for _ in range(4):
        walkover_deal(state, "H")  # each seat once trump maker with hearts: all at 10
    assert state.scores == [10, 10, 10, 10]
    walkover_deal(state, "H")  # seat 1 again: 10 -> 0
    assert state.is_over and state.to_move is None and state.phase == "over"
    assert state.result == {"scores": [10, 0, 10, 10], "winners": [1]}
    with pytest.raises(GameOver, match="The game is over."):
        state.apply(2, Move.trump("H"))
    assert state.legal_moves(2) == []


def test_several_at_zero_in_one_deal_the_lowest_wins():
    state = game(THREE_AND_TWO)
    state.scores = [20, 2, 2, 20]  # as if earlier deals had left seats 1 and 2 on 2
    to_play(state, "S")
    play(
        state,
        "AS",
        "JC",
        "10D",
        "10H",
        "10S",
        "QC",
        "JD",
        "JH",
        "KS",
        "KC",
        "QD",
        "QH",
        "7C",
        "AC",
        "AD",
        "AH",
        "10C",
        "KD",
        "KH",
        "8C",
    )
    assert state.result == {"scores": [25, -1, 0, 25], "winners": [1]}


def test_a_tie_at_the_lowest_plays_more_deals_until_one_alone_is_lowest():
    state = game(THREE_AND_TWO)
    state.scores = [20, 3, 2, 20]
    to_play(state, "S")
    play(
        state,
        "AS",
        "JC",
        "10D",
        "10H",
        "10S",
        "QC",
        "JD",
        "JH",
        "KS",
        "KC",
        "QD",
        "QH",
        "7C",
        "AC",
        "AD",
        "AH",
        "10C",
        "KD",
        "KH",
        "8C",
    )
    assert state.scores == [25, 0, 0, 25]
    assert not state.is_over and state.deal_no == 2
    walkover_deal(state, "S")  # seat 2 is trump maker now: 0 -> -5, alone lowest
    assert state.result == {"scores": [25, 0, -5, 25], "winners": [2]}


def test_a_tie_at_zero_after_the_eighth_deal_is_played_off_in_the_endgame():
    # "if nobody has reached zero after eight deals": a tie at the lowest is no winner, so the ninth deal comes,
    # with hearts and nobody dropping (docs/rules/twenty-down.md "After eight deals": from the ninth deal on)
    eighth = deck_for(
        3,
        first={0: "AS 10S", 1: "AC 10C", 2: "AD KD", 3: "AH KH"},
        second={0: "KS 7C 8C", 1: "KC QC JC", 2: "QD JD 10D", 3: "QH JH 10H"},
    )
    state = game(*([[]] * 7), eighth)
    for _ in range(7):
        walkover_deal(state, "S")
    assert state.deal_no == 8 and state.trump_maker == 0
    state.scores = [3, 2, 20, 20]  # as if earlier deals had left seats 0 and 1 there
    to_play(state, "S")
    play(
        state,
        "AS",
        "JC",
        "10D",
        "10H",
        "10S",
        "QC",
        "JD",
        "JH",
        "KS",
        "KC",
        "QD",
        "QH",
        "7C",
        "AC",
        "AD",
        "AH",
        "10C",
        "KD",
        "KH",
        "8C",
    )
    assert state.scores == [0, 0, 25, 25] and not state.is_over
    assert state.deal_no == 9 and state.trump == "H" and state.phase == "exchange"
    assert state.why_not(2, Move("drop")) == "After eight deals nobody may drop out."
