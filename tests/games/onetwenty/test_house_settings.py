"""120s-house: the engine's house settings end to end (basic scenarios; the full scenario suite
and docs come later)."""

import pytest

from fairdeal.core.cards import PACK_52, card_from_str
from fairdeal.core.games import make_rules
from fairdeal.core.games.base import BadSettings, FixedChance, Move
from fairdeal.core.games.onetwenty.scoring import score_hand
from tests.games.randomness import RandomChance

from .helpers import PASS, bid, bid_and_throw, layout_game, new_game, pass_round, play, play_out, throw, trump

H = "120s-house"


def test_two_three_or_four_players_and_no_other_size():
    for n in (2, 3, 4):
        assert make_rules(H, {}, n).players == n
    with pytest.raises(BadSettings):
        make_rules(H, {}, 5)


def test_five_each_one_at_a_time_then_three_to_the_kitty():
    g = make_rules(H).new_game(FixedChance([list(PACK_52)], first_dealer=0))
    assert sorted(g.hands[1]) == sorted(PACK_52[i] for i in (0, 4, 8, 12, 16))
    assert g.kitty == list(PACK_52[20:23]) and len(g.pack) == 29


def test_bids_are_20_25_30():
    g = new_game(H)
    assert g.why_not(1, bid(15)) == "The bids are 20, 25 and 30."
    assert [m.value for m in g.legal_moves(1) if m.kind == "bid"] == [20, 25, 30]


def test_bidding_goes_round_until_one_bidder_is_left_and_a_pass_is_final():
    g = new_game(H)
    g.apply(1, bid(20))
    g.apply(2, bid(25))
    pass_round(g, 3, 0)
    assert g.to_move == 1  # round again; 3 and 0 are out
    g.apply(1, bid(30))
    assert g.to_move == 2
    g.apply(2, PASS)
    assert g.bidder == 1 and g.bid == 30


def test_stick_the_dealer_on_if_everyone_passes_the_dealer_must_bid_20():
    g = new_game(H)
    pass_round(g, 1, 2, 3)
    assert g.legal_moves(0) == [bid(20)]
    assert g.why_not(0, PASS) == "Stick the dealer: everybody else has passed, so you must bid 20."
    g.apply(0, bid(20))
    assert g.bidder == 0 and g.bid == 20


def test_stick_the_dealer_off_if_everyone_passes_the_cards_are_dealt_again():
    g = new_game(H, settings={"stick_the_dealer": False})
    pass_round(g, 1, 2, 3, 0)
    assert g.hand_number == 1 and g.dealer == 0 and g.phase == "bidding"


def test_dealer_can_take_it_off_the_dealer_has_to_bid_higher():
    g = new_game(H)
    g.apply(1, bid(20))
    pass_round(g, 2, 3)
    assert g.why_not(0, Move("mine")) == "This table does not let the dealer take the bid."


def test_dealer_can_take_it_on_the_dealer_takes_the_bid_at_the_same_amount_and_the_bidding_goes_on():
    g = new_game(H, settings={"dealer_can_take_it": True})
    g.apply(1, bid(20))
    pass_round(g, 2, 3)
    g.apply(0, Move("mine"))
    assert g.to_move == 1 and [m.value for m in g.legal_moves(1) if m.kind == "bid"] == [25, 30]
    g.apply(1, bid(30))
    assert g.why_not(0, Move("mine")) == "The dealer cannot take a bid of 30: bid higher or pass."
    g.apply(0, PASS)
    assert g.bidder == 1 and g.bid == 30


def test_the_bidder_picks_up_the_kitty_and_throws_exactly_three_then_the_others_throw_and_draw():
    g = new_game(H, hands={1: "5H JH 2C 3C 4C"}, kitty="AH KH QH")
    g.apply(1, bid(20))
    pass_round(g, 2, 3, 0)
    g.apply(1, trump("H"))
    assert g.phase == "kitty" and len(g.hands[1]) == 8
    assert g.why_not(1, throw("2C 3C")).startswith("You hold 8 cards with the kitty: throw exactly 3")
    g.apply(1, throw("2C 3C 4C"))
    assert len(g.hands[1]) == 5 and g.phase == "throw" and g.to_move == 2
    for s in (2, 3, 0):
        g.apply(s, throw(""))
    assert g.phase == "play"


def test_throw_away_and_draw_off_play_starts_once_the_bidder_has_taken_the_kitty():
    g = new_game(H, hands={1: "5H JH 2C 3C 4C"}, kitty="AH KH QH", settings={"throw_and_draw": False})
    g.apply(1, bid(20))
    pass_round(g, 2, 3, 0)
    g.apply(1, trump("H"))
    g.apply(1, throw("2C 3C 4C"))
    assert g.phase == "play"


def test_the_player_after_the_bidder_leads():
    g = layout_game("all", bidder=1, value=20, rule_set=H)
    assert g.to_move == 2


def test_on_30_an_opponents_first_lead_must_be_a_trump_if_they_have_one():
    g = new_game(
        H, hands={1: "5H JH AH KH 2C", 2: "4H 3C 4C 6C 7C", 3: "2D 3D 4D 6D 7D", 0: "2S 3S 4S 6S 7S"}, kitty="8C 9C 10C"
    )
    bid_and_throw(g, 1, 30, "H")
    assert g.to_move == 2 and [str(m.card) for m in g.legal_moves(2)] == ["4H"]


def test_plain_aces_low_an_ace_is_below_the_jack_in_black_and_lowest_in_diamonds():
    from fairdeal.core.games.onetwenty.ranks import make_strength

    low, high = make_strength("H", aces_low=True), make_strength("H")
    c = card_from_str
    assert low(c("JC"), c("2C")) > low(c("AC"), c("2C")) > low(c("2C"), c("2C"))
    assert low(c("2D"), c("2D")) > low(c("AD"), c("2D"))
    assert high(c("AC"), c("2C")) > high(c("KC"), c("2C"))


def test_30_for_60_on_a_made_30_scores_60_and_off_30():
    g = layout_game("all", bidder=1, value=30, rule_set=H)
    play_out(g)
    assert g.scores == [0, 60]
    g = layout_game("all", bidder=1, value=30, rule_set=H, settings={"thirty_for_sixty": False})
    play_out(g)
    assert g.scores == [0, 30]


def test_bid_to_go_out_a_side_on_100_that_did_not_bid_stops_at_115():
    g = layout_game("down", bidder=1, value=20, rule_set=H, scores=[100, 0])
    play_out(g)
    assert g.scores == [115, -20] and not g.is_over


def test_bid_to_go_out_off_any_points_take_you_out():
    g = layout_game("down", bidder=1, value=20, rule_set=H, scores=[100, 0], settings={"bid_to_go_out": False})
    play_out(g)
    assert g.result["winners"] == [0, 2]


def test_a_shorter_game_stops_5_short_of_its_target():
    g = layout_game("down", bidder=1, value=20, rule_set=H, scores=[45, 0], settings={"game_target": 60})
    play_out(g)
    assert g.scores == [55, -20]
    g = layout_game("all", bidder=0, value=20, rule_set=H, scores=[45, 0], settings={"game_target": 60})
    play_out(g)
    assert g.result["winners"] == [0, 2]


def test_two_players_each_plays_alone_with_an_own_score():
    g = new_game(H, players=2)
    v = g.view(0)
    assert v["sides"] is None and len(v["scores"]) == 2
    assert g.rules.describe().startswith("120s (House rules). 2 players, each playing alone")


def test_three_players_several_non_bidders_over_the_target_the_higher_wins_a_tie_plays_on():
    v = make_rules(H, {"bid_to_go_out": False}, 3).variant
    hs = score_hand(v, [110, 100, 100], [False] * 3, 0, 20, [5, 15, 10])
    assert hs.scores == (90, 115, 110) and hs.winners == ()
    hs = score_hand(v, [0, 110, 105], [False] * 3, 0, 20, [0, 15, 15])
    assert hs.scores == (-20, 125, 120) and hs.winners == (1,)
    hs = score_hand(v, [0, 110, 110], [False] * 3, 0, 20, [0, 15, 15])
    assert hs.winners == ()


def test_house_sentences_say_trump():
    g = new_game(
        H, hands={1: "5H JH AH KH 2C", 2: "6H 3C 4C 6C 7C", 3: "4H 3D 2D 6D 7D", 0: "2S 3S 4S 6S 7S"}, kitty="8C 9C 10C"
    )
    bid_and_throw(g, 1, 20, "H")
    g.apply(2, play("6H"))
    assert g.why_not(3, play("3D")) == "You must play a trump: a trump was led and you hold the 4 of trumps."


def test_the_rules_line_follows_the_house_settings():
    text = make_rules(H, {"game_target": 60, "dealer_can_take_it": True, "plain_aces_low": True}).describe()
    assert "with 40 or more at the start of a hand" in text and "stops at 55" in text
    assert "Dealer can take it" in text and "plain aces low" in text and "Game to: 60" in text
    assert make_rules(H, {"game_target": 60}).reminder() == "Game to: 60"


def test_presets_are_settings_of_the_same_engine():
    from fairdeal.core.games.onetwenty import HouseRules, TraditionalRules

    assert HouseRules.preset("short-game").settings["game_target"] == 60
    assert TraditionalRules.preset("teaser").variant.kitty_size == 4
    assert type(HouseRules.preset("growler").new_game(RandomChance(1))).__name__ == "OneTwentyState"
