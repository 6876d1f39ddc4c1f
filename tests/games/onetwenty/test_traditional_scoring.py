"""120s-traditional: "Scoring" and "Game" — 5 a trick, 10 for the highest trump's trick, made and
failed bids, the other side always scoring, a made 30 scoring 60, and the first team to 120."""

import pytest

from fairdeal.core.games.base import GameOver
from tests.games.onetwenty.helpers import PASS, layout_game, play_out
from tests.games.onetwenty.scenes import ready, trick

T = "120s-traditional"


def hand(name, bidder=1, value=20, settings=None, scores=None):
    g = layout_game(name, bidder=bidder, value=value, rule_set=T, settings=settings, scores=scores)
    play_out(g)
    return g


def test_each_trick_counts_5_and_the_highest_trump_in_play_counts_10():
    g = hand("split")
    assert g.last_hand["points"] == [15, 15] and g.last_hand["ten_card"] == "5H"


def test_the_highest_trump_in_play_need_not_be_the_five():
    g = ready(
        T,
        {2: "KH 2C 3C 4C 6C", 3: "2D 3D 4D 6D 7D", 0: "2S 3S 4S 6S 7S", 1: "QH AC KC JC 9C"},
        bidder=1,
        value=20,
        kitty="8D 9D 10D",
    )
    plays = [
        ("KH", "2D", "2S", "QH"),
        ("2C", "3D", "3S", "AC"),
        ("KC", "3C", "4D", "4S"),
        ("JC", "4C", "6D", "6S"),
        ("9C", "6C", "7D", "7S"),
    ]
    assert [trick(g, *p) for p in plays] == [2, 1, 1, 1, 2]
    assert g.last_hand["ten_card"] == "KH" and g.last_hand["points"] == [15, 15]


def test_with_no_trump_in_play_the_highest_winning_card_counts_10():
    # docs/rules/120s-traditional.md "Scoring": the rule of every 120s rule set (a king is a king in every suit;
    # the ace beats it)
    g = ready(
        T,
        {2: "AD 2C 4D 6D 7D", 3: "KC 2S 3S 4S 6S", 0: "3C 4C 6C 7C 8C", 1: "7S 8S 9S 10S 9C"},
        bidder=1,
        value=20,
        kitty="JD QD KD",
    )
    plays = [
        ("AD", "6S", "3C", "7S"),
        ("2C", "KC", "4C", "9C"),
        ("2S", "6C", "8S", "4D"),
        ("3S", "7C", "9S", "6D"),
        ("4S", "8C", "10S", "7D"),
    ]
    assert [trick(g, *p) for p in plays] == [2, 3, 3, 3, 3]
    assert g.last_hand["ten_card"] == "AD" and g.last_hand["points"] == [10, 20]


@pytest.mark.parametrize("layout", ["all", "split", "twenty", "down"])
def test_each_side_counts_what_it_has_taken_30_in_all(layout):
    assert sum(hand(layout).last_hand["points"]) == 30


def test_if_the_bidders_side_has_taken_at_least_the_bid_they_score_all_they_have_won():
    assert hand("twenty", value=20).scores == [10, 20]
    assert hand("all", value=25).scores == [0, 30]


def test_if_this_side_fails_the_amount_of_the_bid_is_deducted_from_its_score():
    assert hand("twenty", value=25, scores=[0, 40]).scores == [10, 15]
    assert hand("split", value=20).scores == [15, -20]  # below zero is allowed


def test_the_other_side_in_either_case_always_scores_what_it_has_won():
    assert hand("twenty", value=20).scores[0] == 10
    assert hand("twenty", value=25).scores[0] == 10
    assert hand("down", value=20).scores[0] == 30


def test_if_a_side_bids_30_and_makes_30_they_score_60_instead_of_30():
    g = hand("all", value=30)
    assert g.last_hand["made"] and g.scores == [0, 60]


def test_a_side_that_bids_30_and_takes_less_loses_30():
    g = hand("twenty", value=30)
    assert not g.last_hand["made"] and g.scores == [10, -30]


def test_the_team_to_first_reach_120_points_wins_the_game():
    g = hand("twenty", value=20, scores=[0, 100])
    assert g.is_over and g.result == {"scores": [10, 120], "winners": [1, 3], "sides": [[0, 2], [1, 3]]}
    with pytest.raises(GameOver):
        g.apply(g.dealer, PASS)


def test_the_side_that_did_not_bid_can_reach_120_and_win():
    # the traditional text has no "bid to go out": points taken against the bid count in full
    g = hand("down", value=20, scores=[100, 0])
    assert g.is_over and g.scores == [130, -20] and g.result["winners"] == [0, 2]


def test_both_teams_over_120_in_one_hand_the_bidder_wins():
    g = hand("twenty", value=20, scores=[110, 100])
    assert g.scores == [120, 120] and g.result["winners"] == [1, 3]


def test_below_120_the_next_hand_is_dealt_by_the_next_dealer():
    g = hand("all", value=20, scores=[0, 60])
    assert not g.is_over and g.scores == [0, 90] and g.dealer == 1 and g.phase == "bidding"


def test_the_teaser_hand_scores_the_same_way():
    g = layout_game("all", bidder=1, value=30, rule_set=T, settings={"teaser": True})
    play_out(g)
    assert g.scores == [0, 60]
