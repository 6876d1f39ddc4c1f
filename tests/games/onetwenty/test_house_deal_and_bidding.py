"""120s-house: players, the deal and the bidding, with Stick the dealer and Dealer can take it
switched on and off. One test per rule sentence, named after it."""

import pytest

from fairdeal.core.cards import PACK_52
from fairdeal.core.games import make_rules
from fairdeal.core.games.base import BadSettings, FixedChance, Move
from tests.games.onetwenty.helpers import PASS, bid, new_game, pass_round, play_out, trump

from .scenes import bids, ready

H = "120s-house"
MINE = Move("mine")


# --- Players and partners -----------------------------------------------------------------------------------
def test_four_players_play_as_two_teams_partners_across():
    # Seat 1 bids and its partner across the table (seat 3) takes the tricks: the points go to side 1 together.
    g = ready(
        H, {1: "2C 3C 4C 6C 7C", 2: "2D 3D 4D 6D 7D", 3: "5H JH AH KH QH", 0: "2S 3S 4S 6S 7S"}, bidder=1, value=20
    )
    assert g.view(0)["sides"] == [[0, 2], [1, 3]]
    play_out(g)
    assert g.last_hand["points"] == [0, 30] and g.scores == [0, 30]


@pytest.mark.parametrize("players", [2, 3])
def test_two_or_three_players_each_play_on_their_own(players):
    hands = {1: "5H JH AH KH QH", 0: "2S 3S 4S 6S 7S", 2: "2D 3D 4D 6D 7D"}
    g = ready(H, {s: h for s, h in hands.items() if s < players}, bidder=1, value=20, players=players)
    assert g.view(0)["sides"] is None and len(g.scores) == players
    play_out(g)
    assert g.scores == [0, 30] + [0] * (players - 2)
    assert g.last_hand["points"] == [0, 30] + [0] * (players - 2)


def test_no_table_of_one_or_five():
    for n in (1, 5, 6):
        with pytest.raises(BadSettings, match="played by 2 or 3 or 4 players"):
            make_rules(H, {}, n)


# --- The deal -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_52_card_deck_5_cards_each_and_3_face_down_in_the_kitty(players):
    g = make_rules(H, {}, players).new_game(FixedChance([list(PACK_52)], first_dealer=0))
    assert [len(h) for h in g.hands] == [5] * players
    assert g.kitty == list(PACK_52[5 * players : 5 * players + 3])
    assert len(g.pack) == 52 - 5 * players - 3
    # face down: no seat's view (the dealer's included) and no spectator sees a kitty card
    for seat in [None, *range(players)]:
        v = g.view(seat)
        assert v["kitty"] is None and v["teaser"] is None and v["kitty_count"] == 3


def test_the_deal_moves_one_seat_around_the_table_after_every_hand():
    g = ready(H, {1: "5H JH AH KH QH"}, bidder=1, value=20)
    assert g.dealer == 0
    play_out(g)
    assert g.dealer == 1 and g.to_move == 2  # the new dealer's left bids first


# --- Bidding --------------------------------------------------------------------------------------------------
def test_the_player_after_the_dealer_bids_first():
    g = new_game(H, dealer=2)
    assert g.to_move == 3
    g = new_game(H, dealer=1, players=3)
    assert g.to_move == 2


def test_you_can_bid_20_25_or_30():
    g = new_game(H)
    assert bids(g) == [20, 25, 30, "pass"]
    assert g.why_not(1, bid(15)) == "The bids are 20, 25 and 30."
    assert g.why_not(1, bid(35)) == "The bids are 20, 25 and 30."


def test_every_bid_has_to_be_higher_than_the_one_before_it():
    g = new_game(H)
    g.apply(1, bid(25))
    assert bids(g) == [30, "pass"]
    assert g.why_not(2, bid(25)) == (
        "A bid has to beat the bid standing: 25 is standing, so the smallest bid left is 30."
    )
    g.apply(2, bid(30))
    assert bids(g) == ["pass"]
    assert g.why_not(3, bid(30)) == "30 has been bid and nothing is higher: all you can do is pass."


def test_if_you_pass_you_are_out_of_the_bidding_for_that_hand():
    g = new_game(H)
    g.apply(1, PASS)
    g.apply(2, bid(20))
    pass_round(g, 3)
    g.apply(0, bid(25))
    assert g.to_move == 2  # seat 1 passed: it is skipped from now on
    g.apply(2, bid(30))
    assert g.to_move == 0  # seat 3 passed too
    assert g.view(1)["bidding"]["passed"] == [1, 3]


def test_bidding_goes_around_until_only_one_bidder_is_left():
    g = new_game(H)
    g.apply(1, bid(20))
    g.apply(2, bid(25))
    g.apply(3, PASS)
    g.apply(0, PASS)
    assert g.phase == "bidding" and g.to_move == 1  # a second time round: two bidders are left
    g.apply(1, PASS)
    assert g.phase == "trump" and (g.bidder, g.bid) == (2, 25)


def test_bidding_ends_as_soon_as_everyone_else_has_passed_the_high_bid():
    g = new_game(H, players=3)
    g.apply(1, bid(20))
    g.apply(2, PASS)
    g.apply(0, PASS)
    assert (g.bidder, g.bid) == (1, 20)


# --- Stick the dealer (house rule, on to start) ----------------------------------------------------------------
def test_stick_the_dealer_on_if_everyone_passes_the_dealer_must_bid_20():
    g = new_game(H, dealer=3)
    pass_round(g, 0, 1, 2)
    assert bids(g, 3) == [20]
    assert g.why_not(3, PASS) == "Stick the dealer: everybody else has passed, so you must bid 20."
    assert g.why_not(3, bid(25)) == "Stick the dealer: everybody else has passed, so you must bid 20."
    g.apply(3, bid(20))
    assert (g.bidder, g.bid, g.phase) == (3, 20, "trump")


def test_stick_the_dealer_on_with_two_players():
    g = new_game(H, players=2)
    g.apply(1, PASS)
    assert bids(g, 0) == [20]


def test_stick_the_dealer_off_if_everyone_passes_the_cards_are_dealt_again():
    rules = make_rules(H, {"stick_the_dealer": False})
    first = list(PACK_52)
    second = list(reversed(PACK_52))
    g = rules.new_game(FixedChance([first, second], first_dealer=2))
    pass_round(g, 3, 0, 1)
    assert bids(g, 2) == [20, 25, 30, "pass"]
    g.apply(2, PASS)
    # dealt again: the same dealer (docs/rules/120s-house.md "The deal"), a new deck
    assert g.hand_number == 1 and g.dealer == 2 and g.phase == "bidding" and g.to_move == 3
    assert g.last_hand["thrown_in"] and g.scores == [0, 0]
    assert set(g.hands[3]) == {second[i] for i in (0, 4, 8, 12, 16)}


# --- Dealer can take it (house rule, off to start) -------------------------------------------------------------
def test_dealer_can_take_it_off_the_dealer_has_to_bid_higher_like_everyone_else():
    g = new_game(H)
    g.apply(1, bid(20))
    pass_round(g, 2, 3)
    assert bids(g, 0) == [25, 30, "pass"]
    assert g.why_not(0, MINE) == "This table does not let the dealer take the bid."


def test_dealer_can_take_it_on_the_dealer_takes_the_bid_at_the_same_amount():
    g = new_game(H, settings={"dealer_can_take_it": True})
    g.apply(1, bid(25))
    pass_round(g, 2, 3)
    assert bids(g, 0) == [30, "pass", "mine"]
    g.apply(0, MINE)
    assert g.view(0)["bidding"]["holder"] == 0 and g.view(0)["bidding"]["high"] == 25
    assert g.to_move == 1  # the bidding goes on around the table
    g.apply(1, PASS)
    assert (g.bidder, g.bid) == (0, 25)


def test_dealer_can_take_it_at_each_of_the_dealers_turns_and_the_partners_bid_too():
    g = new_game(H, settings={"dealer_can_take_it": True})
    g.apply(1, bid(20))
    g.apply(2, bid(25))  # the dealer's partner
    g.apply(3, PASS)
    g.apply(0, MINE)  # takes the partner's 25
    g.apply(1, PASS)
    assert g.to_move == 2 and bids(g) == [30, "pass"]
    g.apply(2, PASS)
    assert (g.bidder, g.bid) == (0, 25)


def test_dealer_can_take_it_again_after_a_raise():
    g = new_game(H, settings={"dealer_can_take_it": True}, players=2)
    g.apply(1, bid(20))
    g.apply(0, MINE)
    g.apply(1, bid(25))
    g.apply(0, MINE)
    g.apply(1, PASS)
    assert (g.bidder, g.bid) == (0, 25)


def test_dealer_can_take_it_except_at_30():
    g = new_game(H, settings={"dealer_can_take_it": True})
    g.apply(1, bid(30))
    pass_round(g, 2, 3)
    assert bids(g, 0) == ["pass"]
    assert g.why_not(0, MINE) == "The dealer cannot take a bid of 30: bid higher or pass."


def test_dealer_can_take_it_only_the_dealer():
    g = new_game(H, settings={"dealer_can_take_it": True})
    g.apply(1, bid(20))
    assert g.why_not(2, MINE) == "Only the dealer can take the bid at the same amount."
    assert g.why_not(2, Move("redeal")) == "This table does not let the dealer call a redeal."


def test_a_refused_bid_changes_nothing():
    g = new_game(H)
    g.apply(1, bid(25))
    before = g.view(2)
    with pytest.raises(Exception, match="smallest bid left is 30"):
        g.apply(2, bid(20))
    with pytest.raises(Exception, match="not your turn"):
        g.apply(3, bid(30))
    assert g.view(2) == before


def test_the_winning_bidder_names_the_trump_suit():
    g = new_game(H)
    g.apply(1, bid(20))
    pass_round(g, 2, 3, 0)
    assert g.phase == "trump" and g.to_move == 1 and g.options(1) == {"suits": ["C", "D", "H", "S"]}
    assert g.why_not(1, trump("X")) == "Name the trump suit as one of C, D, H or S."
    g.apply(1, trump("S"))
    assert g.trump == "S"
