"""120s-auction (docs/rules/120s-auction.md): drumpfs first, then the kitty; throwing away and being dealt back up."""

import pytest

from fairdeal.core.cards import PACK_52
from fairdeal.core.games.base import IllegalMove, Move

from .helpers import PASS, bid, cards, new_game, pass_round, throw, trump

HANDS = {1: "5H 2C 3C 4C 6C", 2: "2D 3D 4D 6D 7D", 3: "2S 3S 4S 6S 7S", 0: "8D 9D 10D JD QD"}
KITTY = "JH AH KH QH"
PACK = "KD AD 8C 9C 10C JC QC KC AC"  # the top of the pack, first card first


def won_by_seat_1(**kw):
    g = new_game(hands=HANDS, kitty=KITTY, pack=PACK, **kw)
    g.apply(1, bid(15))
    pass_round(g, 2, 3, 0)
    return g


def test_drumpfs_are_named_before_the_kitty_is_picked_up():
    g = won_by_seat_1()
    assert g.phase == "trump" and len(g.hands[1]) == 5
    assert g.view(1)["kitty"] is None  # named without knowing what is in there
    g.apply(1, trump("H"))
    assert len(g.hands[1]) == 9
    assert sorted(g.view(1)["kitty"]) == sorted(KITTY.split())


def test_the_bidder_throws_at_least_four_of_nine():
    g = won_by_seat_1()
    g.apply(1, trump("H"))
    assert g.to_move == 1 and g.phase == "throw"  # seat 1 is the dealer's left: first to throw
    assert g.why_not(1, throw("2C 3C 4C")) == ("You hold 9 cards and must throw at least 4 to come back down to five.")
    assert g.why_not(1, throw("")) is not None
    assert g.view(1)["options"] == {"throw_min": 4, "throw_max": 9}
    g.apply(1, throw("2C 3C 4C 6C"))
    assert sorted(map(str, g.hands[1])) == sorted("5H JH AH KH QH".split())


def test_the_bidder_may_throw_more_than_four_low_drumpfs_included_and_is_dealt_back_to_five():
    g = won_by_seat_1()
    g.apply(1, trump("H"))
    g.apply(1, throw("2C 3C 4C 6C QH KH"))
    assert len(g.hands[1]) == 5
    assert {str(c) for c in g.hands[1]} == {"5H", "JH", "AH", "KD", "AD"}  # the pack's top two
    assert g.throws[-1] == (1, 6, 2)


def test_the_bidder_may_throw_all_nine():
    g = won_by_seat_1()
    g.apply(1, trump("H"))
    g.apply(1, throw("5H 2C 3C 4C 6C JH AH KH QH"))
    assert sorted(map(str, g.hands[1])) == sorted("KD AD 8C 9C 10C".split())


def test_everybody_else_throws_any_number_and_is_dealt_back_up_to_five_from_the_pack():
    g = won_by_seat_1()
    g.apply(1, trump("H"))
    g.apply(1, throw("2C 3C 4C 6C"))
    g.apply(2, throw("2D 3D"))
    assert sorted(map(str, g.hands[2])) == sorted("4D 6D 7D KD AD".split())
    g.apply(3, throw("2S 3S 4S 6S 7S"))  # all five
    assert sorted(map(str, g.hands[3])) == sorted("8C 9C 10C JC QC".split())
    assert g.view(2)["throws"] == [
        {"seat": 1, "threw": 4, "drew": 0},
        {"seat": 2, "threw": 2, "drew": 2},
        {"seat": 3, "threw": 5, "drew": 5},
    ]


def test_throwing_nothing_is_a_perfectly_good_move_for_everyone_but_the_bidder():
    g = won_by_seat_1()
    g.apply(1, trump("H"))
    g.apply(1, throw("2C 3C 4C 6C"))
    g.apply(2, throw(""))
    assert sorted(map(str, g.hands[2])) == sorted(HANDS[2].split())


def test_throws_go_in_turn_from_the_dealers_left_to_the_dealer():
    g = new_game(hands=HANDS, kitty=KITTY, pack=PACK, dealer=2)
    order = []
    while g.phase == "bidding":
        g.apply(g.to_move, bid(15) if g.to_move == 1 else PASS)
    g.apply(1, trump("H"))
    while g.phase == "throw":
        s = g.to_move
        order.append(s)
        lo = g.options(s)["throw_min"]
        g.apply(s, Move.throw(g.hands[s][:lo]))
    assert order == [3, 0, 1, 2]


def test_a_throw_of_a_card_not_held_is_refused_and_changes_nothing():
    g = won_by_seat_1()
    g.apply(1, trump("H"))
    before = g.view(1)
    assert g.why_not(1, throw("2C 3C 4C 9S")) == "You do not hold the 9 of spades."
    with pytest.raises(IllegalMove):
        g.apply(1, throw("2C 3C 4C 9S"))
    assert g.view(1) == before


def test_the_kitty_is_shown_to_the_bidder_only_until_they_throw():
    g = won_by_seat_1()
    g.apply(1, trump("H"))
    assert g.view(1)["kitty"] is not None
    assert all(g.view(s)["kitty"] is None for s in (None, 0, 2, 3))
    g.apply(1, throw("2C 3C 4C 6C"))
    assert g.view(1)["kitty"] is None


def test_legal_throws_are_every_subset_of_the_allowed_size():
    g = won_by_seat_1()
    g.apply(1, trump("H"))
    moves = g.legal_moves(1)
    assert len(moves) == 126 + 126 + 84 + 36 + 9 + 1  # C(9, k) for k = 4..9
    assert all(g.why_not(1, m) is None for m in moves)
    g.apply(1, throw("2C 3C 4C 6C"))
    assert len(g.legal_moves(2)) == 32


# --- the shuffle-thrown-cards-back-in setting ----------------------------------------------------------


def test_shuffle_thrown_back_off_thrown_cards_stay_thrown():
    g = won_by_seat_1()
    g.apply(1, trump("H"))
    g.apply(1, throw("2C 3C 4C 6C"))
    assert set(cards("2C 3C 4C 6C")) <= set(g.thrown) and g.view(None)["pack_count"] == 28


def test_shuffle_thrown_back_on_thrown_cards_go_to_the_bottom_and_unseen_cards_are_dealt_first():
    g = won_by_seat_1(settings={"shuffle_thrown_back": True})
    g.apply(1, trump("H"))
    g.apply(1, throw("2C 3C 4C 6C QH KH"))
    assert g.thrown == [] and len(g.pack) == 28 + 6 - 2
    assert set(g.pack[:6]) == set(cards("2C 3C 4C 6C QH KH"))  # the bottom of the pack
    assert {str(c) for c in g.hands[1]} == {"5H", "JH", "AH", "KD", "AD"}
    g.apply(2, throw("2D"))
    assert cards("8C")[0] in g.hands[2]  # unseen card from the top
    assert sorted(g.all_cards()) == sorted(PACK_52)


def test_listed_throws_are_the_same_values_as_moves_read_from_json():
    g = won_by_seat_1()
    g.apply(1, trump("H"))
    for m in g.legal_moves(1)[:50]:
        assert Move.from_json(m.to_json()) == m and hash(Move.from_json(m.to_json())) == hash(m)
