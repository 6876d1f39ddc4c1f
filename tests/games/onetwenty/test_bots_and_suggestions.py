"""120s: the table's suggested bid, the bots and the timeout policy (docs/rules/120s-auction.md "The suggestion,
the bots and the timeout policy")."""

from fairdeal.core.games import make_rules
from fairdeal.core.games.base import FirstChoiceRng, Move
from fairdeal.core.games.onetwenty.bots import hand_ceiling
from tests.games.randomness import PickRng

from .helpers import PASS, bid, bid_and_throw, cards, new_game, pass_round, play, trump

STRONG = "5H JH AH 2C 3D"  # the top three: worth a 15 or a 20, not a 30
WEAK = "2C 3C 4D 6S 7S"


def test_the_suggestion_opens_at_the_lowest_bid_the_hand_is_worth():
    g = new_game(hands={1: STRONG})
    assert g.rules.suggest(g.view(1)) == bid(15)


def test_a_weak_hand_is_suggested_a_pass():
    g = new_game(hands={1: WEAK})
    assert g.rules.suggest(g.view(1)) == PASS


def test_the_suggestion_raises_only_by_the_smallest_step():
    g = new_game(hands={2: STRONG})
    g.apply(1, bid(15))
    assert g.rules.suggest(g.view(2)) == bid(20)


def test_from_90_up_the_suggestion_opens_at_20():
    g = new_game(hands={1: STRONG}, scores=[0, 90])
    assert g.rules.suggest(g.view(1)) == bid(20)


def test_only_a_hand_that_sees_every_trick_is_suggested_30_and_the_bot_never_bids_30():
    rules = make_rules("120s-auction")
    assert hand_ceiling(cards("5H JH AH KH QH"), rules.variant) == 30
    g = new_game(hands={2: "5H JH AH KH QH"})
    g.apply(1, bid(25))
    assert g.rules.suggest(g.view(2)) == bid(30)
    assert g.rules.bot_move(g.view(2), FirstChoiceRng()) == PASS
    assert g.rules.timeout_move(g.view(2)) == bid(30)


def test_the_bot_bids_as_the_suggestion_evaluates_the_hand():
    g = new_game(hands={1: STRONG})
    assert g.rules.bot_move(g.view(1), FirstChoiceRng()) == bid(15)
    g = new_game(hands={1: WEAK})
    assert g.rules.bot_move(g.view(1), FirstChoiceRng()) == PASS


def test_dealer_picks_a_weak_dealer_calls_a_redeal():
    g = new_game(hands={0: WEAK}, settings={"everybody_passes": "dealer-picks"})
    pass_round(g, 1, 2, 3)
    assert g.rules.bot_move(g.view(0), FirstChoiceRng()) == Move("redeal")


def test_the_bot_and_timeout_name_the_strongest_suit_ties_broken_by_the_rng():
    g = new_game(hands={1: "5S JS 2C 3D 4D"})
    g.apply(1, bid(15))
    pass_round(g, 2, 3, 0)
    assert g.rules.bot_move(g.view(1), FirstChoiceRng()) == trump("S")
    g = new_game(hands={1: "5S 5C 2H 3D 4D"})  # spades and clubs worth the same
    g.apply(1, bid(15))
    pass_round(g, 2, 3, 0)
    assert g.rules.bot_move(g.view(1), FirstChoiceRng()) == trump("C")
    assert g.rules.bot_move(g.view(1), PickRng(-1)) == trump("S")
    assert g.rules.timeout_move(g.view(1)) == trump("C")  # the first in suit order C D H S


def test_the_bidder_bot_keeps_its_drumpfs_and_throws_at_least_four():
    g = new_game(hands={1: "5H JH 2C 3C 4D"}, kitty="AH 9H 6S 7S")
    g.apply(1, bid(15))
    pass_round(g, 2, 3, 0)
    g.apply(1, trump("H"))
    m = g.rules.bot_move(g.view(1), FirstChoiceRng())
    assert m.kind == "throw" and len(m.cards) >= 4
    kept = set(map(str, g.hands[1])) - set(map(str, m.cards))
    assert {"5H", "JH", "AH", "9H"} <= kept


def test_the_timeout_plays_the_lowest_legal_card():
    g = new_game(hands={1: "5H JH AH 2C 3C", 2: "KC 2D 3D 4D 6D", 3: "7C 2S 3S 4S 6S", 0: "8C 7S 8S 9S 10S"})
    bid_and_throw(g, 1, 15, "H")
    assert g.rules.timeout_move(g.view(1)) == play("3C")  # black: the 3 is below the 2


def test_the_bot_leads_its_highest_drumpf_as_the_bidders_side_and_plays_low_behind_a_winning_partner():
    g = new_game(hands={1: "5H JH AH 2C 3C", 2: "KC 2D 3D 4D 6D", 3: "7C 2S 3S 4S 6S", 0: "8C 7S 8S 9S 10S"})
    bid_and_throw(g, 1, 15, "H")
    assert g.rules.bot_move(g.view(1), FirstChoiceRng()) == play("5H")
    g.apply(1, play("5H"))
    g.apply(2, play("6D"))
    assert g.rules.bot_move(g.view(3), FirstChoiceRng()) == play("7C")  # partner winning: the lowest (black 7 < 6)


def test_the_bot_takes_a_trick_with_its_cheapest_winning_card():
    g = new_game(hands={1: "2C 3D 4D 6D 7D", 2: "KC AC 8D 9D 10D", 3: "7C 2S 3S 4S 6S", 0: "8C 7S 8S 9S 10S"})
    bid_and_throw(g, 1, 15, "H")
    g.apply(1, play("2C"))
    assert g.rules.bot_move(g.view(2), FirstChoiceRng()) == play("KC")


def test_traditional_bot_never_bids_25_or_30_without_a_five():
    g = new_game("120s-traditional", hands={2: "JH AH KH QH 2H"})
    g.apply(1, bid(20))
    assert g.rules.bot_move(g.view(2), FirstChoiceRng()) == PASS
