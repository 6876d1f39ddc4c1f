"""120s-auction: sentences the first suite shows only in one position, shown again where it is easy
to get wrong (another dealer, the other side of the cap, the ace of hearts as the one drumpf, the bots and the
timeout over many positions)."""

import random

from fairdeal.core.cards import PACK_52
from fairdeal.core.games import make_rules
from fairdeal.core.games.base import FixedChance
from tests.games.onetwenty.helpers import (
    bid,
    bid_and_throw,
    layout_game,
    new_game,
    pass_round,
    play,
    play_out,
    throw,
    trump,
)
from tests.games.randomness import RandomChance, SeededRng


def legal(g, seat):
    return sorted(str(m.card) for m in g.legal_moves(seat))


def test_the_deal_starts_at_the_dealers_left_and_lays_a_kitty_card_after_each_of_the_first_four_rounds():
    # "Each of the first four times round the table, once every player has their card, one card goes face down
    # in the middle." Dealer 2: seat 3 is dealt first, the dealer last; the teaser is the fourth kitty card.
    rules = make_rules("120s-auction", {"kitty_teaser": True})
    d = list(PACK_52)
    g = rules.new_game(FixedChance([d], first_dealer=2))
    for seat, first in ((3, 0), (0, 1), (1, 2), (2, 3)):
        assert sorted(g.hands[seat]) == sorted(d[first + 5 * r] for r in range(5))
    assert g.kitty == [d[4], d[9], d[14], d[19]]
    assert g.view(None)["teaser"] == str(d[19]) and g.pack[-1] == d[24] and len(g.pack) == 28
    assert g.to_move == 3


def test_a_redeal_turns_up_the_new_kittys_top_card_before_the_bidding():
    first = list(PACK_52)
    second = list(reversed(PACK_52))
    rules = make_rules("120s-auction", {"kitty_teaser": True})
    g = rules.new_game(FixedChance([first, second], first_dealer=0))
    pass_round(g, 1, 2, 3, 0)
    assert g.phase == "bidding" and g.dealer == 0
    assert all(g.view(s)["teaser"] == str(second[19]) for s in (None, 0, 1, 2, 3))


def test_the_cap_stays_on_the_other_side_in_the_hand_the_bidder_lifts_its_own():
    # "Win a bid and make it and the cap is gone" - for the side that made it, not for the side that did not bid.
    g = layout_game("split", bidder=1, value=15, scores=[110, 0])
    play_out(g)
    assert g.scores == [115, 15] and g.made_bid == [False, True] and not g.is_over


def test_a_capped_side_scores_normally_up_to_115():
    # "It scores normally all the way up to 115 and stops there."
    g = layout_game("split", bidder=1, value=15, scores=[95, 0])
    play_out(g)
    assert g.scores == [110, 15]


def test_a_made_bid_scores_in_full_past_115_in_the_hand_that_lifts_the_cap_without_reaching_120():
    g = layout_game("twenty", bidder=0, value=20, scores=[97, 0])
    play_out(g)
    assert g.last_hand["points"] == [20, 10] and g.made_bid[0] is True
    assert g.scores == [117, 10] and not g.is_over  # past 115, short of 120: play on


def test_the_five_may_be_kept_back_against_the_ace_of_hearts_led():
    # The ace of hearts is the third drumpf: the 5 and the J rank above it and may be kept back against it.
    g = new_game(hands={1: "AH 2C 3C 6C 7C", 2: "5S 8D 9D 10D JD", 3: "JS 2H 3H 4H 6H", 0: "AS 7H 8H 9H 10H"})
    bid_and_throw(g, 1, 15, "S")
    g.apply(1, play("AH"))
    assert "8D" in legal(g, 2)
    g.apply(2, play("8D"))
    assert "2H" in legal(g, 3)
    g.apply(3, play("2H"))
    assert legal(g, 0) == ["AS"]  # the ace of drumpfs is never kept back


def test_on_a_30_the_ace_of_hearts_is_the_drumpf_the_bidder_must_lead():
    g = new_game(hands={1: "AH 2C 3C 6C 7C"})
    bid_and_throw(g, 1, 30, "S")
    assert legal(g, 1) == ["AH"]
    assert g.why_not(1, play("2C")) == (
        "On a bid of 30 the first lead must be a drumpf, and you hold the Ace of hearts."
    )


def test_the_dealer_as_bidder_sees_the_kitty_until_its_own_throw_at_the_end():
    g = new_game(hands={0: "5H JH 2C 3C 4C"}, kitty="AH KH QH 2S")
    pass_round(g, 1, 2, 3)
    g.apply(0, bid(15))
    g.apply(0, trump("H"))
    for s in (1, 2, 3):
        assert sorted(g.view(0)["kitty"]) == sorted(["AH", "KH", "QH", "2S"])
        assert g.view(s)["kitty"] is None and g.view(None)["kitty"] is None
        g.apply(s, throw(""))
    g.apply(0, throw("2C 3C 4C 2S"))
    assert g.view(0)["kitty"] is None and g.phase == "play" and g.to_move == 0


def test_the_bots_open_at_the_lowest_bid_they_may_raise_by_the_smallest_step_and_never_say_30():
    # "The computer players open at 15 and use 20 and 25 to raise"; the timeout bids what the table suggests.
    said = set()
    for seed in range(40):
        rules = make_rules("120s-auction", {"everybody_passes": "dealer-picks"} if seed % 2 else {})
        g = rules.new_game(RandomChance(seed), scores=[random.Random(seed).choice([0, 90]), 0])
        rng = SeededRng(seed)
        for _ in range(600):
            if g.is_over:
                break
            s = g.to_move
            view = g.view(s)
            move = rules.bot_move(view, rng)
            if g.phase == "bidding":
                options = view["options"]
                if move.kind == "bid":
                    assert move.value == options["bids"][0] and move.value != 30
                    said.add((view["bidding"]["high"], move.value))
                assert rules.timeout_move(view) == rules.suggest(view)
            g.apply(s, move)
    assert {(None, 15), (None, 20), (15, 20)} <= said


def test_the_bidder_is_never_told_it_may_throw_nothing():
    # "The bidder is the one seat that can't throw nothing (nine cards have to come down to five)."
    g = new_game(hands={1: "5H JH 2C 3C 4C"})
    g.apply(1, bid(15))
    pass_round(g, 2, 3, 0)
    g.apply(1, trump("H"))
    assert g.why_not(1, play("5H")) == "It is time to throw away at least 4 cards and be dealt back up to five."
    g.apply(1, throw("2C 3C 4C 5H"))
    assert g.why_not(2, play("2D")) == "It is time to throw away cards (possibly none) and be dealt back up to five."
