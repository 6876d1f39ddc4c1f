"""120s-traditional: Mine, need a five, the teaser, throwing for everyone, following (basic scenarios;
the full scenario suite and docs come later)."""

from fairdeal.core.cards import PACK_52
from fairdeal.core.games import make_rules
from fairdeal.core.games.base import FixedChance, Move

from .helpers import (
    PASS,
    bid,
    bid_and_throw,
    layout_game,
    new_game,
    pass_round,
    play,
    play_by_policy,
    play_out,
    throw,
    trump,
)

T = "120s-traditional"
MINE = Move("mine")


def test_deal_five_each_then_three_to_the_kitty():
    g = make_rules(T).new_game(FixedChance([list(PACK_52)], first_dealer=0))
    assert g.kitty == list(PACK_52[20:23])


def test_teaser_four_in_the_kitty_the_last_face_up():
    g = make_rules(T, {"teaser": True}).new_game(FixedChance([list(PACK_52)], first_dealer=0))
    assert g.kitty == list(PACK_52[20:24]) and g.view(None)["teaser"] == str(PACK_52[23])


def test_need_a_five_a_bid_of_25_or_30_needs_a_five_in_hand():
    g = new_game(T, hands={1: "2C 3C 4C 6C 7C", 2: "5D 3D 4D 6D 7D"})
    assert g.why_not(1, bid(25)) == "To bid 25 or 30 you must hold a five."
    assert [m.value for m in g.legal_moves(1) if m.kind == "bid"] == [20]
    g.apply(1, bid(20))
    assert g.why_not(2, bid(25)) is None


def test_need_a_five_off_anyone_may_bid_25_or_30():
    g = new_game(T, hands={1: "2C 3C 4C 6C 7C"}, settings={"need_a_five": False})
    assert g.why_not(1, bid(30)) is None


def test_mine_the_dealer_takes_the_high_bid_the_holder_raises_or_gives_it_up():
    g = new_game(T, hands={1: "5C 3C 4C 6C 7C", 0: "5D 3D 4D 6D 7D"})
    g.apply(1, bid(20))
    pass_round(g, 2, 3)
    g.apply(0, MINE)
    assert g.to_move == 1
    g.apply(1, bid(25))  # the holder raises
    assert g.to_move == 0 and {m.kind for m in g.legal_moves(0)} == {"mine", "pass"}
    assert g.why_not(0, bid(30)) == "After Mine you may only take the raise again (Mine) or pass."
    g.apply(0, MINE)
    g.apply(1, PASS)  # the holder gives it up
    assert g.bidder == 0 and g.bid == 25


def test_mine_the_dealer_may_pass_and_let_the_raise_stand():
    g = new_game(T, hands={1: "5C 3C 4C 6C 7C"})
    g.apply(1, bid(20))
    pass_round(g, 2, 3)
    g.apply(0, MINE)
    g.apply(1, bid(25))
    g.apply(0, PASS)
    assert g.bidder == 1 and g.bid == 25


def test_mine_at_25_needs_a_five_too():
    g = new_game(T, hands={1: "5C 3C 4C 6C 7C", 0: "2D 3D 4D 6D 7D"})
    g.apply(1, bid(25))
    pass_round(g, 2, 3)
    assert g.why_not(0, MINE) == "To take a bid of 25 you must hold a five."


def test_only_the_dealer_says_mine():
    g = new_game(T)
    g.apply(1, bid(20))
    assert g.why_not(2, MINE) == "Only the dealer can take the bid at the same amount."


def test_all_pass_the_hand_is_thrown_in_and_the_deal_passes_left():
    g = new_game(T)
    pass_round(g, 1, 2, 3, 0)
    assert g.dealer == 1 and g.hand_number == 1


def test_everyone_throws_from_the_dealers_left_the_bidder_down_from_eight():
    g = new_game(T, hands={2: "5H JH 2C 3C 4C"}, kitty="AH KH QH")
    pass_round(g, 1)
    g.apply(2, bid(20))
    pass_round(g, 3, 0)
    g.apply(2, trump("H"))
    assert g.phase == "throw" and g.to_move == 1
    g.apply(1, throw(""))
    assert g.options(2) == {"throw_min": 3, "throw_max": 8}
    g.apply(2, throw("2C 3C 4C"))
    g.apply(3, throw(""))
    g.apply(0, throw(""))
    assert g.phase == "play" and g.to_move == 3  # the player to the left of the bidder leads


def test_void_in_a_plain_suit_led_any_card_may_be_played():
    g = new_game(
        T, hands={1: "5H JH AH KH 2C", 2: "AC 3C 4C 6C 7C", 3: "4H 3D 2D 6D 7D", 0: "2S 3S 4S 6S 7S"}, kitty="8C 9C 10C"
    )
    bid_and_throw(g, 1, 20, "H")
    g.apply(2, play("AC"))
    assert len(g.legal_moves(3)) == 5  # no clubs: a trump is not required


def test_a_made_30_scores_60():
    g = layout_game("all", bidder=1, value=30, rule_set=T)
    play_out(g)
    assert g.scores == [0, 60]


def test_traditional_game_plays_to_the_end_with_bots():
    g = play_by_policy(make_rules(T), 3)
    assert g.is_over and g.result["winners"]
