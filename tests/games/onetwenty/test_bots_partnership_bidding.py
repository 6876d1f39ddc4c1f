"""120s bots in the bidding: a partnership, not four players alone (bots.py `partner_holds_bid`).

At a 4-player table a bot (and, with it, the table's suggestion and the timeout, which share the bid choice) never
outbids its partner's standing bid and never takes it with Mine / dealer-can-take-it: it passes. The same hand
still raises over an opponent, so the evaluation is unchanged (docs/rules/120s-auction.md "The suggestion, the
bots and the timeout policy": one hand evaluation for every seat). At a 2- or 3-player house table everyone is
alone and raises as before.
"""

from fairdeal.core.games.base import FirstChoiceRng, Move
from tests.games.onetwenty.helpers import PASS, bid, new_game, pass_round

BOT = FirstChoiceRng()
MINE = Move("mine")
A, H, T = "120s-auction", "120s-house", "120s-traditional"
STRONG = "5H JH AH 2C 3D"  # worth 25 at four players (a five in hand for the traditional rules)
STRONG_ALONE = "5H JH AH KH 3D"  # worth 25 with no partner's share too
OPPONENT_HAND = "5C 2D 4D 6D 7D"


def everyone(g, seat):
    """The suggestion, the bot's move and the timeout move for `seat` now."""
    v = g.view(seat)
    return g.rules.suggest(v), g.rules.bot_move(v, BOT), g.rules.timeout_move(v)


def test_auction_bot_does_not_outbid_its_partner():
    g = new_game(A, {3: STRONG})
    g.apply(1, bid(15))  # seat 1 is seat 3's partner
    g.apply(2, PASS)
    assert everyone(g, 3) == (PASS, PASS, PASS)


def test_auction_the_same_hand_raises_over_an_opponent_by_the_smallest_step():
    g = new_game(A, {2: STRONG})
    g.apply(1, bid(15))  # seat 1 is seat 2's opponent
    assert everyone(g, 2) == (bid(20), bid(20), bid(20))


def test_auction_dealer_bot_does_not_outbid_its_partner():
    g = new_game(A, {0: STRONG})
    g.apply(1, PASS)
    g.apply(2, bid(15))  # the dealer's partner
    g.apply(3, PASS)
    assert g.rules.bot_move(g.view(0), BOT) == PASS
    g.apply(0, PASS)
    assert g.bidder == 2 and g.bid == 15


def test_auction_bot_raises_an_opponent_who_outbid_its_partner():
    g = new_game(A, {3: STRONG})
    g.apply(1, bid(15))
    g.apply(2, bid(20))  # an opponent now holds the bid
    assert g.rules.bot_move(g.view(3), BOT) == bid(25)


def test_house_bot_does_not_outbid_its_partner_in_any_round():
    g = new_game(H, {1: "5D JD AD 4S 3S", 3: STRONG})
    g.apply(1, bid(20))
    g.apply(2, PASS)
    assert everyone(g, 3) == (PASS, PASS, PASS)
    g.apply(3, PASS)
    g.apply(0, PASS)
    assert g.bidder == 1 and g.bid == 20  # the partner keeps the bid at 20


def test_house_dealer_bot_does_not_take_its_partners_bid():
    settings = {"dealer_can_take_it": True}
    g = new_game(H, {0: STRONG}, settings=settings)
    g.apply(1, PASS)
    g.apply(2, bid(20))  # the dealer's partner
    g.apply(3, PASS)
    assert everyone(g, 0) == (PASS, PASS, PASS)
    g = new_game(H, {0: STRONG}, settings=settings)
    g.apply(1, bid(20))  # an opponent: the dealer takes it
    pass_round(g, 2, 3)
    assert everyone(g, 0) == (MINE, MINE, MINE)


def test_house_two_or_three_players_everyone_is_alone_and_raises():
    for players in (2, 3):
        g = new_game(H, {0: STRONG_ALONE}, players=players)  # seat 0 is the dealer and bids last
        g.apply(1, bid(20))
        while g.to_move != 0:
            g.apply(g.to_move, PASS)
        assert everyone(g, 0) == (bid(25), bid(25), bid(25)), players
    g = new_game(H, {0: STRONG_ALONE}, players=3, dealer=1)
    g.apply(2, bid(20))  # seats 0 and 2 would be partners at four players; at three, not
    assert everyone(g, 0) == (bid(25), bid(25), bid(25))


def test_traditional_dealer_bot_does_not_say_mine_to_its_partners_bid():
    g = new_game(T, {0: STRONG, 2: OPPONENT_HAND})
    g.apply(1, PASS)
    g.apply(2, bid(20))  # the dealer's partner
    g.apply(3, PASS)
    assert everyone(g, 0) == (PASS, PASS, PASS)
    g.apply(0, PASS)
    assert g.bidder == 2 and g.bid == 20


def test_traditional_dealer_bot_still_says_mine_to_an_opponents_bid():
    g = new_game(T, {0: STRONG, 1: OPPONENT_HAND})
    g.apply(1, bid(20))
    pass_round(g, 2, 3)
    assert everyone(g, 0) == (MINE, MINE, MINE)


def test_traditional_bot_does_not_raise_its_partners_bid():
    g = new_game(T, {3: STRONG})
    g.apply(1, bid(20))  # seat 3's partner
    g.apply(2, PASS)
    assert everyone(g, 3) == (PASS, PASS, PASS)


def test_traditional_bot_gives_up_its_bid_when_its_partner_the_dealer_took_it():
    # A person at the dealer's seat may say Mine to a partner's bid; the bot then leaves the bid with its partner.
    g = new_game(T, {0: STRONG, 2: "5C JC AC KC 2D"})  # seat 2 is worth 25 and holds a five
    g.apply(1, PASS)
    g.apply(2, bid(20))
    g.apply(3, PASS)
    g.apply(0, MINE)
    assert everyone(g, 2) == (PASS, PASS, PASS)
    g.apply(2, PASS)
    assert g.bidder == 0 and g.bid == 20
