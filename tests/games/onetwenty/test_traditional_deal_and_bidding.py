"""120s-traditional: players, cards, the deal, and the bidding — one round from the dealer's left, the
dealer's "Mine", the holder's raise, the dealer's right to take each raise or pass, and the two variants the rules
page names: "need a five" (on, as the rule set's own table plays it) and the teaser (off)."""

import pytest

from fairdeal.core.cards import PACK_52, card_from_str
from fairdeal.core.games import make_rules
from fairdeal.core.games.base import BadSettings, FixedChance, MalformedMove, Move
from tests.games.onetwenty.helpers import PASS, bid, new_game, pass_round, play_out, trump
from tests.games.onetwenty.scenes import bids, ready

T = "120s-traditional"
MINE = Move("mine")
# Hands with and without a five, for the need-a-five rule (the dealer is seat 0, seat 1 bids first).
FIVES = {1: "5C 2D 3D 4D 6D", 2: "5S 2C 3C 4C 6C", 3: "5D 7S 8S 9S 10S", 0: "5H 7C 8C 9C 10C"}
NO_FIVES = {1: "2D 3D 4D 6D 7D", 2: "2C 3C 4C 6C 7C", 3: "2S 3S 4S 6S 7S", 0: "8C 9C 10C JC QC"}


# --- Objective, players, cards ------------------------------------------------------------------------------------
def test_four_players_in_two_partnerships_partners_in_alternating_positions():
    g = new_game(T)
    assert g.view(0)["sides"] == [[0, 2], [1, 3]]
    for n in (2, 3, 5):
        with pytest.raises(BadSettings, match="played by 4 players"):
            make_rules(T, {}, n)


def test_the_partners_tricks_count_for_their_team():
    g = ready(
        T,
        {1: "2C 3C 4C 6C 7C", 2: "2D 3D 4D 6D 7D", 3: "5H JH AH KH QH", 0: "2S 3S 4S 6S 7S"},
        bidder=1,
        value=20,
        kitty="8C 9C 10C",
    )
    play_out(g)
    assert g.scores == [0, 30]


def test_a_regular_deck_of_52_five_each_and_a_kitty_of_three_dealt_after():
    g = make_rules(T).new_game(FixedChance([list(PACK_52)], first_dealer=0))
    assert sorted(c for h in g.hands for c in h) == sorted(PACK_52[:20])
    assert set(g.hands[1]) == {PACK_52[i] for i in (0, 4, 8, 12, 16)}  # one at a time, left to right
    assert g.kitty == list(PACK_52[20:23]) and len(g.pack) == 29
    for seat in [None, 0, 1, 2, 3]:
        assert g.view(seat)["kitty"] is None and g.view(seat)["teaser"] is None


def test_the_deal_passes_to_the_left_after_a_hand():
    g = ready(T, {1: "5H JH AH KH QH"}, bidder=1, value=20)
    play_out(g)
    assert g.dealer == 1 and g.to_move == 2


# --- Bidding ---------------------------------------------------------------------------------------------------
def test_the_bidding_starts_with_the_player_to_the_dealers_left_and_continues_clockwise():
    g = new_game(T, FIVES, dealer=2)
    order = []
    while g.phase == "bidding":
        order.append(g.to_move)
        g.apply(g.to_move, bid(20) if not order[:-1] else PASS)
    assert order == [3, 0, 1, 2]


def test_each_player_in_turn_may_either_bid_or_pass_once():
    g = new_game(T, FIVES)
    g.apply(1, bid(20))
    g.apply(2, PASS)
    g.apply(3, bid(25))
    g.apply(0, PASS)  # one round: the dealer passed, the bid stands; nobody bids twice
    assert (g.bidder, g.bid) == (3, 25) and g.phase == "trump"


def test_bids_can_be_20_25_or_30_with_no_suit_mentioned():
    g = new_game(T, FIVES)
    assert bids(g) == [20, 25, 30, "pass"]
    assert g.why_not(1, bid(15)) == "The bids are 20, 25 and 30."
    with pytest.raises(MalformedMove, match="'value' is a whole number"):
        Move("bid", value="H")  # no suit mentioned: a bid is a number


def test_each_bid_must_be_higher_than_the_preceding_bid():
    g = new_game(T, FIVES)
    g.apply(1, bid(25))
    assert bids(g) == [30, "pass"]
    assert g.why_not(2, bid(25)) == (
        "A bid has to beat the bid standing: 25 is standing, so the smallest bid left is 30."
    )


def test_all_pass_the_hand_is_thrown_in_and_the_next_dealer_deals():
    rules = make_rules(T)
    second = list(reversed(PACK_52))
    g = rules.new_game(FixedChance([list(PACK_52), second], first_dealer=0))
    pass_round(g, 1, 2, 3, 0)
    assert g.last_hand["thrown_in"] and g.scores == [0, 0]
    assert g.dealer == 1 and g.hand_number == 1 and g.to_move == 2
    assert set(g.hands[2]) == {second[i] for i in (0, 4, 8, 12, 16)}


def test_the_winning_bidder_then_names_the_trump_suit():
    g = new_game(T, FIVES)
    g.apply(1, bid(20))
    pass_round(g, 2, 3, 0)
    assert g.phase == "trump" and g.to_move == 1
    g.apply(1, trump("D"))
    assert g.trump == "D"


# --- Need a five (variant, on to start) --------------------------------------------------------------------------
def test_need_a_five_to_bid_25_or_30_the_bidder_must_have_a_5_card():
    g = new_game(T, NO_FIVES)
    assert bids(g) == [20, "pass"]
    assert g.why_not(1, bid(25)) == "To bid 25 or 30 you must hold a five."
    assert g.why_not(1, bid(30)) == "To bid 25 or 30 you must hold a five."


@pytest.mark.parametrize("five", ["5C", "5D", "5H", "5S"])
def test_need_a_five_any_five_in_hand_will_do(five):
    g = new_game(T, {1: f"{five} 2D 3D 4D 6D" if five != "5D" else "5D 2S 3S 4S 6S"})
    assert bids(g) == [20, 25, 30, "pass"]


def test_need_a_five_a_five_in_the_kitty_or_face_up_does_not_count():
    g = new_game(T, {1: "2D 3D 4D 6D 7D"}, kitty="5C 5D 5H 5S", settings={"teaser": True})
    assert g.view(1)["teaser"] == "5S" and bids(g) == [20, "pass"]


def test_need_a_five_a_player_without_one_can_only_pass_over_a_20():
    g = new_game(T, NO_FIVES)
    g.apply(1, bid(20))
    assert bids(g) == ["pass"]


def test_need_a_five_off_anyone_may_bid_25_or_30():
    g = new_game(T, NO_FIVES, settings={"need_a_five": False})
    assert bids(g) == [20, 25, 30, "pass"]
    g.apply(1, bid(30))
    assert g.why_not(2, bid(30)) == "30 has been bid and nothing is higher: all you can do is pass."


# --- Mine ----------------------------------------------------------------------------------------------------------
def test_the_dealer_in_his_turn_can_say_mine_taking_the_bid_at_the_same_amount():
    g = new_game(T, FIVES)
    g.apply(1, bid(20))
    pass_round(g, 2, 3)
    assert bids(g, 0) == [25, 30, "pass", "mine"]
    g.apply(0, MINE)
    assert g.view(0)["bidding"]["holder"] == 0 and g.view(0)["bidding"]["high"] == 20
    assert g.view(0)["bidding"]["log"][-1] == [0, "mine", 20]


def test_after_mine_the_player_with_the_next_highest_bid_may_up_the_bet():
    g = new_game(T, FIVES)
    g.apply(1, bid(20))
    g.apply(2, bid(25))
    g.apply(3, PASS)
    g.apply(0, MINE)
    assert g.to_move == 2 and bids(g) == [30, "pass"]  # seat 2 held the high bid, not seat 1
    assert g.why_not(1, bid(30)).startswith("It is not your turn")


def test_after_mine_the_holder_may_give_it_up_and_the_dealer_plays_the_bid():
    g = new_game(T, FIVES)
    g.apply(1, bid(25))
    pass_round(g, 2, 3)
    g.apply(0, MINE)
    g.apply(1, PASS)
    assert (g.bidder, g.bid, g.phase) == (0, 25, "trump")


def test_the_dealer_always_has_the_right_to_accept_the_higher_bid():
    g = new_game(T, FIVES)
    g.apply(1, bid(20))
    pass_round(g, 2, 3)
    g.apply(0, MINE)
    g.apply(1, bid(25))
    assert g.to_move == 0 and bids(g) == ["pass", "mine"]
    assert g.why_not(0, bid(30)) == "After Mine you may only take the raise again (Mine) or pass."
    g.apply(0, MINE)
    assert g.to_move == 1 and bids(g) == [30, "pass"]
    g.apply(1, bid(30))
    g.apply(0, MINE)  # Mine at 30 (docs/rules/120s-traditional.md "Bidding")
    assert g.to_move == 1 and bids(g) == ["pass"]
    g.apply(1, PASS)
    assert (g.bidder, g.bid) == (0, 30)


def test_or_pass_and_let_the_other_player_play():
    g = new_game(T, FIVES)
    g.apply(1, bid(20))
    pass_round(g, 2, 3)
    g.apply(0, MINE)
    g.apply(1, bid(25))
    g.apply(0, PASS)
    assert (g.bidder, g.bid) == (1, 25)


def test_mine_is_allowed_at_30():
    g = new_game(T, FIVES)
    g.apply(1, bid(30))
    pass_round(g, 2, 3)
    assert bids(g, 0) == ["pass", "mine"]


def test_mine_may_take_the_dealers_partners_bid():
    g = new_game(T, FIVES)
    g.apply(1, PASS)
    g.apply(2, bid(20))
    g.apply(3, PASS)
    assert "mine" in bids(g, 0)


def test_the_dealer_may_instead_bid_higher_which_ends_the_round():
    g = new_game(T, FIVES)
    g.apply(1, bid(20))
    pass_round(g, 2, 3)
    g.apply(0, bid(25))
    assert (g.bidder, g.bid, g.phase) == (0, 25, "trump")


def test_only_the_dealer_says_mine_and_only_over_a_bid():
    g = new_game(T, FIVES)
    assert g.why_not(1, MINE) == "Only the dealer can take the bid at the same amount."
    pass_round(g, 1, 2, 3)
    assert g.why_not(0, MINE) == "There is no bid to take: nobody has bid yet."


def test_need_a_five_applies_to_mine():
    hands = dict(FIVES)
    hands[0] = "8C 9C 10C JC QC"
    g = new_game(T, hands)
    g.apply(1, bid(25))
    pass_round(g, 2, 3)
    assert bids(g, 0) == ["pass"]
    assert g.why_not(0, MINE) == "To take a bid of 25 you must hold a five."
    g = new_game(T, hands)
    g.apply(1, bid(20))
    pass_round(g, 2, 3)
    assert bids(g, 0) == ["pass", "mine"]  # Mine at 20 needs no five


def test_need_a_five_applies_to_every_raise():
    hands = dict(NO_FIVES)
    hands[0] = "5H 8C 9C 10C JC"
    g = new_game(T, hands)
    g.apply(1, bid(20))
    pass_round(g, 2, 3)
    g.apply(0, MINE)
    assert bids(g, 1) == ["pass"]  # seat 1 has no five: it cannot raise to 25
    g.apply(1, PASS)
    assert (g.bidder, g.bid) == (0, 20)


def test_need_a_five_off_mine_and_raises_need_no_five():
    g = new_game(T, NO_FIVES, settings={"need_a_five": False})
    g.apply(1, bid(25))
    pass_round(g, 2, 3)
    g.apply(0, MINE)
    assert bids(g, 1) == [30, "pass"]


def test_a_refused_bidding_move_changes_nothing():
    g = new_game(T, NO_FIVES)
    before = g.view(1)
    with pytest.raises(Exception, match="must hold a five"):
        g.apply(1, bid(25))
    assert g.view(1) == before


# --- The teaser (variant, off to start) ---------------------------------------------------------------------------
def test_teaser_four_cards_in_the_kitty_with_one_turned_up_for_all():
    g = make_rules(T, {"teaser": True}).new_game(FixedChance([list(PACK_52)], first_dealer=0))
    assert g.kitty == list(PACK_52[20:24]) and len(g.pack) == 28
    for seat in [None, 0, 1, 2, 3]:
        v = g.view(seat)
        assert v["teaser"] == str(PACK_52[23]) and v["kitty_count"] == 4 and v["kitty"] is None


def test_teaser_the_bidder_takes_all_four_and_must_come_down_from_nine():
    g = new_game(T, FIVES, kitty="AH KH QH JH", settings={"teaser": True})
    g.apply(1, bid(20))
    pass_round(g, 2, 3, 0)
    g.apply(1, trump("H"))
    assert g.to_move == 1 and len(g.hands[1]) == 9 and g.options(1) == {"throw_min": 4, "throw_max": 9}
    assert g.why_not(1, Move.throw([card_from_str(c) for c in ("2D", "3D", "4D")])) == (
        "You hold 9 cards and must throw at least 4 to come back down to five."
    )
    g.apply(1, Move.throw([card_from_str(c) for c in ("2D", "3D", "4D", "6D")]))
    assert sorted(map(str, g.hands[1])) == ["5C", "AH", "JH", "KH", "QH"]


def test_teaser_off_three_in_the_kitty_and_nothing_face_up():
    g = new_game(T, FIVES)
    assert len(g.kitty) == 3 and g.view(None)["teaser"] is None


def test_need_a_five_a_dealer_without_one_may_only_let_a_raise_to_25_go():
    hands = dict(FIVES)
    hands[0] = "8C 9C 10C JC QC"
    g = new_game(T, hands)
    g.apply(1, bid(20))
    pass_round(g, 2, 3)
    g.apply(0, MINE)
    g.apply(1, bid(25))
    assert bids(g, 0) == ["pass"]
    assert g.why_not(0, MINE) == "To take a bid of 25 you must hold a five."
    g.apply(0, PASS)
    assert (g.bidder, g.bid) == (1, 25)
