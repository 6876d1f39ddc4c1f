"""Spades (docs/rules/spades.md), "The end": after a hand at 500 or -200 the higher team wins; an exact tie plays on."""

import pytest

from fairdeal.core.games.base import GameOver, Move
from fairdeal.core.games.spades import game_ends

from .helpers import SUITED, bid, new_game, play_out

# In SUITED seat 3 takes every trick. These bids score team 0 (seats 0, 2) +200 (two nils made) and team 1
# (seats 1, 3) +230 (a nil made and 13 bid and taken) a hand.
NILS_AND_13 = {0: 0, 2: 0, 1: 0, 3: 13}


def play_hand(game, bids):
    bid(game, bids)
    play_out(game)


def test_game_ends_rule_as_a_function():
    assert game_ends([500, 120], tie_pending=False)
    assert game_ends([80, 730], tie_pending=False)
    assert not game_ends([499, 120], tie_pending=False)
    assert game_ends([-200, 50], tie_pending=False)
    assert not game_ends([-199, 50], tie_pending=False)
    assert not game_ends([510, 510], tie_pending=False)  # exact tie: one more hand
    assert game_ends([10, 20], tie_pending=True)  # after a tie, any difference ends it
    assert not game_ends([10, 10], tie_pending=True)


def test_after_a_hand_in_which_a_team_reaches_500_the_higher_team_wins():
    game = new_game(SUITED, SUITED, SUITED)
    play_hand(game, NILS_AND_13)
    play_hand(game, NILS_AND_13)
    assert game.view(None)["scores"] == [400, 460] and not game.is_over
    play_hand(game, NILS_AND_13)
    assert game.is_over and game.to_move is None
    # both teams are past 500; the higher one wins
    assert game.result == {"scores": [600, 690], "sides": [[0, 2], [1, 3]], "winners": [1, 3]}
    assert game.view(None)["phase"] == "over"
    assert len(game.view(None)["tricks"]) == 13  # the last hand stays on the table


def test_after_a_hand_in_which_a_team_falls_to_minus_200_the_game_is_over():
    game = new_game(SUITED)
    play_hand(game, {1: 0, 2: 10, 3: 13, 0: 10})
    assert game.is_over
    assert game.result == {"scores": [-200, 230], "sides": [[0, 2], [1, 3]], "winners": [1, 3]}


def test_an_exact_tie_plays_one_more_hand_and_again_until_the_scores_differ():
    game = new_game(SUITED, SUITED, SUITED)
    play_hand(game, {0: 10, 1: 10, 2: 10, 3: 10})  # both set by 20: -200 each
    assert game.view(None)["scores"] == [-200, -200]
    assert not game.is_over and game.view(None)["tie_pending"]
    play_hand(game, {0: 7, 1: 7, 2: 7, 3: 7})  # both set by 14: still level
    assert game.view(None)["scores"] == [-340, -340] and not game.is_over
    play_hand(game, NILS_AND_13)
    # neither team is at 500 or -200 any more, but the tie is broken: the game ends here
    assert game.is_over
    assert game.result["scores"] == [-140, -110] and game.result["winners"] == [1, 3]


def test_no_move_is_taken_after_the_game_is_over():
    game = new_game(SUITED)
    play_hand(game, {1: 0, 2: 10, 3: 13, 0: 10})
    before = game.view(None)
    assert game.legal_moves(0) == [] and game.why_not(0, Move.bid(3)) == "The game is over."
    with pytest.raises(GameOver, match="The game is over."):
        game.apply(0, Move.bid(3))
    assert game.view(None) == before
