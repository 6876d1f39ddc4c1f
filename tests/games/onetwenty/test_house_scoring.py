"""120s-house: "Scoring" and "Winning", with the house rules "30 for 60" and "Bid and make it to
go out" switched on and off and the game target as a setting ("5 short in a shorter game")."""

import pytest

from fairdeal.core.games import make_rules
from fairdeal.core.games.base import BadSettings, GameOver
from tests.games.onetwenty.helpers import PASS, layout_game, play_out

from .scenes import ready, trick

H = "120s-house"


def hand(name, bidder=1, value=20, settings=None, scores=None):
    """A 4-player hand from the auction tests' layouts (hearts trump), played out; the game after it."""
    g = layout_game(name, bidder=bidder, value=value, rule_set=H, settings=settings, scores=scores)
    play_out(g)
    return g


# --- Points in a hand --------------------------------------------------------------------------------------------
def test_every_trick_is_worth_5_points_and_the_best_cards_trick_5_more():
    g = hand("split", value=20)  # the bidder takes the 5 of trumps' trick and one more
    assert g.last_hand["points"] == [15, 15]
    assert g.last_hand["ten_card"] == "5H"


def test_the_best_card_is_the_highest_trump_played_usually_the_5_of_trumps():
    # no 5 of trumps in play: the jack's trick is the 10-point trick
    g = ready(
        H,
        {2: "JH 2C 3C 4C 6C", 3: "2D 3D 4D 6D 7D", 0: "2S 3S 4S 6S 7S", 1: "KH AC KC QC JC"},
        bidder=1,
        value=20,
        kitty="8D 9D 10D",
    )
    plays = [
        ("JH", "2D", "2S", "KH"),
        ("2C", "3D", "3S", "AC"),
        ("KC", "3C", "4D", "4S"),
        ("QC", "4C", "6D", "6S"),
        ("JC", "6C", "7D", "7S"),
    ]
    assert [trick(g, *p) for p in plays] == [2, 1, 1, 1, 1]
    assert g.last_hand["ten_card"] == "JH" and g.last_hand["ten_trick"] == 0 and g.last_hand["points"] == [10, 20]


def test_if_no_trump_wins_a_trick_the_highest_card_that_won_one_gets_the_5_more():
    g = ready(
        H,
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
    h = g.last_hand
    assert h["ten_card"] == "AD" and h["ten_trick"] == 0 and h["points"] == [10, 20]


def test_plain_aces_low_the_king_beats_the_ace_for_the_5_more():
    g = ready(
        H,
        {2: "AD 2C 4D 6D 7D", 3: "KC 2S 3S 4S 6S", 0: "3C 4C 6C 7C 8C", 1: "7S 8S 9S 10S 9C"},
        bidder=1,
        value=20,
        kitty="JD QD KD",
        settings={"plain_aces_low": True},
    )
    plays = [
        ("AD", "6S", "3C", "7S"),
        ("2C", "KC", "4C", "9C"),
        ("2S", "6C", "8S", "4D"),
        ("3S", "7C", "9S", "6D"),
        ("4S", "8C", "10S", "7D"),
    ]
    assert [trick(g, *p) for p in plays] == [2, 3, 3, 3, 3]
    assert g.last_hand["ten_card"] == "KC" and g.last_hand["points"] == [5, 25]


@pytest.mark.parametrize("layout", ["all", "split", "twenty", "down"])
def test_that_makes_30_points_in_every_hand(layout):
    g = hand(layout, value=20)
    assert sum(g.last_hand["points"]) == 30


# --- Making and falling short -----------------------------------------------------------------------------------
def test_a_bid_is_a_promise_the_bidding_side_that_makes_20_scores_every_point_it_took():
    g = hand("twenty", value=20)
    assert g.last_hand["points"] == [10, 20] and g.last_hand["made"]
    assert g.scores == [10, 20]
    g = hand("all", value=20)
    assert g.scores == [0, 30]  # more than the bid: all of it


def test_making_25_scores_every_point_it_took():
    g = hand("all", value=25)
    assert g.scores == [0, 30]


def test_if_it_falls_short_it_loses_the_amount_it_bid():
    g = hand("twenty", value=25)
    assert not g.last_hand["made"] and g.scores == [10, -25]
    g = hand("split", value=20)
    assert g.scores == [15, -20]


def test_scores_can_go_below_zero_in_the_hole():
    g = hand("down", value=25, scores=[10, 5])
    assert g.scores == [40, -20]
    g = hand("down", value=20, scores=[0, -20])
    assert g.scores == [30, -40] and g.view(1)["scores"] == [30, -40]


def test_the_side_that_did_not_bid_always_keeps_the_points_it_took():
    assert hand("twenty", value=20).scores[0] == 10  # the bidder made it
    assert hand("twenty", value=25).scores[0] == 10  # the bidder fell short
    assert hand("down", value=20).scores[0] == 30


# --- 30 for 60 (house rule, on to start) --------------------------------------------------------------------------
def test_bidding_30_means_taking_all_five_tricks_30_for_60_on_make_it_and_score_60():
    g = hand("all", value=30)
    assert g.last_hand["made"] and g.scores == [0, 60]


def test_bidding_30_miss_it_and_lose_30():
    g = hand("twenty", value=30)  # four tricks out of five is not enough
    assert not g.last_hand["made"] and g.scores == [10, -30]


def test_30_for_60_off_a_bid_of_30_made_scores_30():
    g = hand("all", value=30, settings={"thirty_for_sixty": False})
    assert g.scores == [0, 30]
    g = hand("twenty", value=30, settings={"thirty_for_sixty": False})
    assert g.scores == [10, -30]


# --- Winning -------------------------------------------------------------------------------------------------------
def test_the_first_side_to_reach_120_points_wins():
    g = hand("all", value=20, scores=[0, 100])
    assert g.is_over and g.result == {"scores": [0, 130], "winners": [1, 3], "sides": [[0, 2], [1, 3]]}
    assert g.to_move is None
    with pytest.raises(GameOver, match="The game is over."):
        g.apply(2, PASS)


def test_below_120_the_game_goes_on_with_the_next_deal():
    g = hand("all", value=20, scores=[0, 85])
    assert g.scores == [0, 115] and not g.is_over and g.phase == "bidding" and g.dealer == 1


# --- Bid and make it to go out (house rule, on to start) ----------------------------------------------------------
def test_bid_to_go_out_with_100_at_the_start_of_a_hand_a_side_that_did_not_bid_stops_at_115():
    g = hand("down", value=20, scores=[100, 0])
    assert g.scores == [115, -20] and not g.is_over


def test_bid_to_go_out_winning_the_bid_and_making_it_takes_you_out():
    g = hand("twenty", value=20, bidder=2, scores=[100, 0])  # seat 2 bids for side 0 and makes it
    assert g.is_over and g.result["winners"] == [0, 2] and g.scores == [120, 10]


def test_bid_to_go_out_winning_the_bid_and_falling_short_loses_the_bid():
    g = hand("split", value=20, bidder=2, scores=[100, 0])
    assert g.scores == [80, 15] and not g.is_over


def test_bid_to_go_out_judges_the_score_at_the_start_of_the_hand():
    g = hand("down", value=20, scores=[95, 0])  # 95 at the start: any points take it out
    assert g.is_over and g.result["winners"] == [0, 2] and g.scores == [125, -20]


def test_bid_to_go_out_a_side_on_110_that_did_not_bid_also_stops_at_115():
    g = hand("down", value=20, scores=[110, 0])
    assert g.scores == [115, -20] and not g.is_over


def test_bid_to_go_out_off_any_points_can_take_you_out():
    g = hand("down", value=20, scores=[100, 0], settings={"bid_to_go_out": False})
    assert g.is_over and g.scores == [130, -20] and g.result["winners"] == [0, 2]


def test_both_sides_over_120_in_one_hand_the_bidder_wins():
    g = hand("twenty", value=20, scores=[110, 110], settings={"bid_to_go_out": False})
    assert g.scores == [120, 130] and g.result["winners"] == [1, 3]
    g = hand("twenty", value=20, bidder=2, scores=[110, 110], settings={"bid_to_go_out": False})
    assert g.scores == [130, 120] and g.result["winners"] == [0, 2]


# --- A shorter game: the target is a setting ------------------------------------------------------------------
def test_5_short_in_a_shorter_game_the_stop_is_5_below_the_target():
    g = hand("down", value=20, scores=[40, 0], settings={"game_target": 60})
    assert g.scores == [55, -20] and not g.is_over


def test_a_shorter_game_is_won_at_its_target():
    g = hand("all", value=20, scores=[0, 30], settings={"game_target": 60})
    assert g.is_over and g.scores == [0, 60]


def test_the_game_target_takes_steps_of_5_up_to_120():
    assert make_rules(H, {"game_target": 100}).variant.target == 100
    for bad in (63, 125, "120", True):
        with pytest.raises(BadSettings, match="game_target"):
            make_rules(H, {"game_target": bad})


# --- Two or three players, each with an own score ---------------------------------------------------------------
def three_player_hand(scores, settings=None):
    """Three players, seat 0 the dealer stuck at 20; seat 1 takes 15 (the 5 of trumps' trick and one more), seat 2
    takes 15, the dealer nothing."""
    g = ready(
        H,
        {0: "2S 3S 4S 6S 7S", 1: "5H KD AC 10C 9C", 2: "AD 2C 3C 4C 6C"},
        bidder=0,
        value=20,
        kitty="8S 9S 10S",
        players=3,
        scores=scores,
        settings=settings,
    )
    winners = [
        trick(g, "5H", "2C", "2S"),
        trick(g, "KD", "AD", "3S"),
        trick(g, "6C", "4S", "AC"),
        trick(g, "10C", "3C", "6S"),
        trick(g, "4C", "7S", "9C"),
    ]
    assert winners == [1, 2, 1, 2, 2]
    return g


def test_three_players_each_scores_what_they_took_and_the_bidder_goes_short_alone():
    g = three_player_hand([0, 0, 0])
    assert g.last_hand["points"] == [0, 15, 15] and g.scores == [-20, 15, 15]


def test_three_players_several_who_did_not_bid_reach_the_target_an_exact_tie_plays_on():
    g = three_player_hand([0, 110, 110], settings={"bid_to_go_out": False})
    assert g.scores == [-20, 125, 125] and not g.is_over


def test_three_players_several_who_did_not_bid_reach_the_target_the_higher_wins():
    g = three_player_hand([0, 110, 105], settings={"bid_to_go_out": False})
    assert g.is_over and g.result == {"scores": [-20, 125, 120], "winners": [1]}


def test_three_players_bid_to_go_out_holds_each_player_to_115():
    g = three_player_hand([0, 110, 105])
    assert g.scores == [-20, 115, 115] and not g.is_over
