"""120s-house: trump and the kitty, throwing away and drawing (house rule "Throw away and draw"
on and off), and who leads."""

import pytest

from fairdeal.core.games.base import Move
from tests.games.onetwenty.helpers import PASS, bid, cards, new_game, pass_round, throw, trump

from .scenes import ready, trick

H = "120s-house"


def hands_after_the_bidding(settings=None, players=4, dealer=0):
    """Seat 1 wins at 20 holding 5H JH 2C 3C 4C; the kitty is AH KH QH; the pack starts 9D 8D 7D 6D 4D 3D."""
    g = new_game(
        H,
        {1: "5H JH 2C 3C 4C", 2: "2S 3S 4S 6S 7S", 3: "10D JD QD KD AD", 0: "6C 7C 8C 9C 10C"}
        if players == 4
        else {1: "5H JH 2C 3C 4C", 0: "6C 7C 8C 9C 10C", 2: "2S 3S 4S 6S 7S"},
        kitty="AH KH QH",
        pack="9D 8D 7D 6D 4D 3D",
        settings=settings,
        players=players,
        dealer=dealer,
    )
    g.apply(1, bid(20))
    for s in range(2, players + 1):
        g.apply(s % players, PASS)
    return g


def test_the_winning_bidder_names_trump_then_picks_up_the_3_kitty_cards():
    g = hands_after_the_bidding()
    assert g.hands[1] == cards("2C 3C 4C 5H JH")  # the kitty is not in hand before trump is named
    g.apply(1, trump("H"))
    assert g.phase == "kitty" and g.to_move == 1 and len(g.hands[1]) == 8
    assert g.view(1)["kitty"] == ["QH", "KH", "AH"]
    assert g.view(2)["kitty"] is None and g.view(None)["kitty"] is None


def test_the_bidder_throws_away_3_cards_to_get_back_to_5():
    g = hands_after_the_bidding()
    g.apply(1, trump("H"))
    assert g.options(1) == {"throw_min": 3, "throw_max": 3}
    for wrong in ("2C 3C", "2C 3C 4C JH"):
        assert g.why_not(1, throw(wrong)) == ("You hold 8 cards with the kitty: throw exactly 3 to come back to five.")
    assert g.why_not(1, throw("2C 3C 2D")) == "You do not hold the 2 of diamonds."
    g.apply(1, throw("2C 3C 4C"))
    assert sorted(map(str, g.hands[1])) == ["5H", "AH", "JH", "KH", "QH"]
    assert g.view(1)["kitty"] is None  # thrown away face down: nobody sees them again
    assert g.view(1)["throws"] == [{"seat": 1, "threw": 3, "drew": 0}]


def test_the_bidder_may_throw_kitty_cards_back():
    g = hands_after_the_bidding()
    g.apply(1, trump("C"))
    g.apply(1, throw("KH QH 5H"))
    assert sorted(map(str, g.hands[1])) == ["2C", "3C", "4C", "AH", "JH"]


def test_then_from_the_dealers_left_everyone_but_the_bidder_throws_any_number_and_draws_as_many():
    g = hands_after_the_bidding(dealer=0)
    g.apply(1, trump("H"))
    g.apply(1, throw("2C 3C 4C"))
    # the dealer's left is the bidder (seat 1), who is skipped: 2, 3, then the dealer
    assert g.phase == "throw" and g.to_move == 2 and g.options(2) == {"throw_min": 0, "throw_max": 5}
    g.apply(2, throw("2S 3S"))
    assert sorted(map(str, g.hands[2])) == ["4S", "6S", "7S", "8D", "9D"]  # dealt from the top of the deck
    g.apply(3, throw(""))
    g.apply(0, throw("6C 7C 8C 9C 10C"))
    # the pack named ran out after 3D; the next card of the deck is the first unused one in pack order (5C)
    assert sorted(map(str, g.hands[0])) == ["3D", "4D", "5C", "6D", "7D"]
    assert [t["seat"] for t in g.view(None)["throws"]] == [1, 2, 3, 0]
    assert [(t["threw"], t["drew"]) for t in g.view(None)["throws"]] == [(3, 0), (2, 2), (0, 0), (5, 5)]
    assert g.phase == "play"


def test_the_throw_order_starts_left_of_the_dealer_not_left_of_the_bidder():
    g = new_game(H, {2: "5H JH 2C 3C 4C"}, kitty="AH KH QH", dealer=0)
    g.apply(1, PASS)
    g.apply(2, bid(20))
    pass_round(g, 3, 0)
    g.apply(2, trump("H"))
    g.apply(2, throw("2C 3C 4C"))
    order = []
    while g.phase == "throw":
        order.append(g.to_move)
        g.apply(g.to_move, throw(""))
    assert order == [1, 3, 0]


def test_the_bidder_does_not_throw_and_draw_a_second_time():
    g = hands_after_the_bidding()
    g.apply(1, trump("H"))
    g.apply(1, throw("2C 3C 4C"))
    while g.phase == "throw":
        assert g.to_move != 1
        g.apply(g.to_move, throw(""))
    assert len(g.hands[1]) == 5


@pytest.mark.parametrize("players", [2, 3])
def test_throw_and_draw_with_two_or_three_players(players):
    g = hands_after_the_bidding(players=players)
    g.apply(1, trump("H"))
    g.apply(1, throw("2C 3C 4C"))
    seen = []
    while g.phase == "throw":
        seen.append(g.to_move)
        g.apply(g.to_move, throw(" ".join(map(str, g.hands[g.to_move]))))  # throw all five
    assert seen == [s for s in [(0 + 1 + i) % players for i in range(players)] if s != 1]
    assert all(len(h) == 5 for h in g.hands)


# --- Throw away and draw (house rule, on to start) ----------------------------------------------------------------
def test_throw_away_and_draw_on_everyone_but_the_bidder_may_throw_away_and_draw():
    g = hands_after_the_bidding(settings={"throw_and_draw": True})
    g.apply(1, trump("H"))
    g.apply(1, throw("2C 3C 4C"))
    assert g.phase == "throw"


def test_throw_away_and_draw_off_play_starts_as_soon_as_the_bidder_has_taken_the_kitty():
    g = hands_after_the_bidding(settings={"throw_and_draw": False})
    g.apply(1, trump("H"))
    assert g.phase == "kitty"  # the bidder still changes cards with the kitty
    g.apply(1, throw("2C 3C 4C"))
    assert g.phase == "play" and g.to_move == 2
    assert g.hands[2] == cards("2S 3S 4S 6S 7S") and len(g.pack) == 29  # nobody else drew


# --- Who leads ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("bidder,leader", [(1, 2), (2, 3), (3, 0), (0, 1)])
def test_the_player_after_the_bidder_leads_the_first_trick(bidder, leader):
    hands = {1: "2C 3C 4C 6C 7C", 2: "2D 3D 4D 6D 7D", 3: "2S 3S 4S 6S 7S", 0: "8C 9C 10C JC QC"}
    hands[bidder] = "5H JH AH KH QH"
    g = new_game(H, hands, kitty="8D 9D 10D", dealer=0)
    for s in (1, 2, 3, 0):
        if g.phase != "bidding":
            break
        if s == bidder:
            g.apply(s, bid(20))
        elif g.legal_moves(s) != [bid(20)]:
            g.apply(s, PASS)
    assert g.bidder == bidder
    g.apply(bidder, trump("H"))
    g.apply(bidder, Move.throw(g.kitty_cards))
    while g.phase == "throw":
        g.apply(g.to_move, throw(""))
    assert g.to_move == leader


def test_after_that_whoever_wins_a_trick_leads_the_next_one():
    g = ready(
        H, {1: "5H JH 2D 3D 4D", 2: "AD KD QD 2S 3S", 3: "2C 3C 4C 6C 7C", 0: "4S 6S 7S 8S 9S"}, bidder=1, value=20
    )
    assert trick(g, "AD", "2C", "4S", "5H") == 1  # seat 2 led; seat 1 trumped
    assert g.to_move == 1
    assert trick(g, "2D", "KD", "3C", "6S") == 2
    assert g.to_move == 2


def test_only_the_seat_to_move_may_throw():
    g = hands_after_the_bidding()
    g.apply(1, trump("H"))
    assert g.why_not(2, throw("")) == "It is not your turn: seat 1 is to throw three cards."
    assert g.why_not(1, Move.play(cards("5H")[0])) == "It is time to throw away 3 cards to come back to five."
