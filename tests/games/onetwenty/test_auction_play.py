"""120s-auction (docs/rules/120s-auction.md): the lead, card order, trick winners, following and reneging."""

import pytest

from fairdeal.core.games.base import IllegalMove, Move
from fairdeal.core.games.onetwenty.ranks import make_strength, plain_order, trump_order

from .helpers import bid_and_throw, new_game, play


def start(hands, suit="H", value=15, bidder=1):
    g = new_game(hands=hands)
    bid_and_throw(g, bidder, value, suit)
    return g


def legal(g, seat):
    return sorted(str(m.card) for m in g.legal_moves(seat))


# --- the lead and the trick -------------------------------------------------------------------------------


def test_the_bidder_leads_to_the_first_trick_not_the_player_to_their_left_nor_the_last_to_discard():
    g = new_game(hands={2: "5H JH 2C 3C 4C"}, dealer=0)
    bid_and_throw(g, 2, 15, "H")
    assert g.phase == "play" and g.to_move == 2 and g.view(0)["trick"]["leader"] == 2


def test_whoever_won_the_last_trick_leads_the_next():
    g = start({1: "2C 3D 4D 6D 7D", 2: "AC 8D 9D 10D JD", 3: "3C 2S 3S 4S 6S", 0: "4C 7S 8S 9S 10S"}, suit="H")
    for s, c in ((1, "2C"), (2, "AC"), (3, "3C"), (0, "4C")):
        g.apply(s, play(c))
    assert g.play.done[0].winner == 2 and g.to_move == 2


def test_play_goes_round_one_card_each_four_to_a_trick_five_tricks_to_a_hand():
    from .helpers import layout_game, play_out

    g = layout_game("split", bidder=1)
    play_out(g)
    tricks = g.last_hand["tricks"]
    assert len(tricks) == 5 and all(len(t["plays"]) == 4 for t in tricks)
    assert [s for s, _ in tricks[0]["plays"]] == [1, 2, 3, 0]


def test_any_drumpf_beats_any_non_drumpf():
    g = start({1: "AC 3D 4D 6D 7D", 2: "KC 10S 9D 10D JD", 3: "3C 2H 3H 4H 6H", 0: "4C 7H 8H 9H 10H"}, suit="S")
    for s, c in ((1, "AC"), (2, "10S"), (3, "3C"), (0, "4C")):
        g.apply(s, play(c))
    assert g.play.done[0].winner == 2 and str(g.play.done[0].winning_card) == "10S"


def test_a_card_of_another_suit_cannot_win_however_big_it_looks():
    g = start({1: "2D 3C 4C 6C 7C", 2: "AC KC QC JC 8C", 3: "3D 2S 3S 4S 6S", 0: "4D 7S 8S 9S 10S"}, suit="H")
    for s, c in ((1, "2D"), (2, "AC"), (3, "3D"), (0, "4D")):
        g.apply(s, play(c))
    assert g.play.done[0].winner == 0  # the 4 of diamonds, highest of the suit led


def test_drumpf_order_top_three_then_ace_king_queen_then_red_high_black_low():
    assert [str(c) for c in trump_order("D")] == "5D JD AH AD KD QD 10D 9D 8D 7D 6D 4D 3D 2D".split()
    assert [str(c) for c in trump_order("C")] == "5C JC AH AC KC QC 2C 3C 4C 6C 7C 8C 9C 10C".split()
    assert [str(c) for c in trump_order("H")] == "5H JH AH KH QH 10H 9H 8H 7H 6H 4H 3H 2H".split()
    for suit in "CDHS":
        order = trump_order(suit)
        strength = make_strength(suit)
        assert [strength(c, order[-1]) for c in order] == sorted((strength(c, order[-1]) for c in order), reverse=True)


def test_in_a_black_drumpf_suit_the_2_beats_the_10():
    g = start({1: "10S 3D 4D 6D 7D", 2: "2S 8D 9D 10D JD", 3: "3C 2H 3H 4H 6H", 0: "4C 7H 8H 9H 10H"}, suit="S")
    for s, c in ((1, "10S"), (2, "2S"), (3, "3C"), (0, "4C")):
        g.apply(s, play(c))
    assert g.play.done[0].winner == 2


def test_in_a_red_drumpf_suit_the_10_beats_the_2():
    g = start({1: "2D 3C 4C 6C 7C", 2: "10D 8C 9C 10C JC", 3: "3S 2H 3H 4H 6H", 0: "4S 7H 8H 9H 10H"}, suit="D")
    for s, c in ((1, "2D"), (2, "10D"), (3, "3S"), (0, "4S")):
        g.apply(s, play(c))
    assert g.play.done[0].winner == 2


def test_plain_suits_ace_king_queen_jack_then_red_high_and_black_low():
    assert plain_order("D") == (14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2)
    assert plain_order("C") == (14, 13, 12, 11, 2, 3, 4, 5, 6, 7, 8, 9, 10)
    g = start({1: "10C 3D 4D 6D 7D", 2: "2C 8D 9D 10D JD", 3: "5C 2H 3H 4H 6H", 0: "9C 7H 8H 9H 10H"}, suit="S")
    for s, c in ((1, "10C"), (2, "2C"), (3, "5C"), (0, "9C")):
        g.apply(s, play(c))
    assert g.play.done[0].winner == 2


def test_the_ace_of_hearts_is_always_a_drumpf_and_never_a_heart():
    g = start({1: "2H 3C 4C 6C 7C", 2: "AH 8C 9C 10C JC", 3: "3H 2D 3D 4D 6D", 0: "KH 7D 8D 9D 10D"}, suit="S")
    g.apply(1, play("2H"))
    # seat 2 has no hearts (the ace is a drumpf) and holds a drumpf: it must play it
    assert legal(g, 2) == ["AH"]
    assert g.why_not(2, play("8C")) == "You must play a drumpf: you have no hearts and you hold the Ace of hearts."
    g.apply(2, play("AH"))
    g.apply(3, play("3H"))
    g.apply(0, play("KH"))
    assert g.play.done[0].winner == 2


# --- following (docs/rules/120s-auction.md "Play": follow or drumpf; void: drumpf if you can) ------------


def test_you_may_drumpf_a_plain_suit_you_could_have_followed():
    g = start({1: "AC 3D 4D 6D 7D", 2: "KC 2S 9D 10D JD", 3: "3C 2H 3H 4H 6H", 0: "4C 7H 8H 9H 10H"}, suit="S")
    g.apply(1, play("AC"))
    assert legal(g, 2) == ["2S", "KC"]
    assert g.why_not(2, play("9D")) == (
        "You must follow clubs or play a drumpf: clubs were led and you hold the King of clubs."
    )


def test_void_in_the_suit_led_you_must_play_a_drumpf_if_you_hold_one():
    g = start({1: "AC 3D 4D 6D 7D", 2: "2S 8D 9D 10D JD", 3: "3C 2H 3H 4H 6H", 0: "4C 7H 8H 9H 10H"}, suit="S")
    g.apply(1, play("AC"))
    assert legal(g, 2) == ["2S"]
    assert g.why_not(2, play("8D")) == ("You must play a drumpf: you have no clubs and you hold the 2 of drumpfs.")


def test_void_in_the_suit_led_without_a_drumpf_you_may_play_any_card():
    g = start({1: "AC 3D 4D 6D 7D", 2: "8D 9D 10D JD QD", 3: "3C 2H 3H 4H 6H", 0: "4C 7H 8H 9H 10H"}, suit="S")
    g.apply(1, play("AC"))
    assert legal(g, 2) == sorted("8D 9D 10D JD QD".split())


def test_a_drumpf_led_you_must_play_a_drumpf():
    g = start({1: "6H 2C 3C 6C 7C", 2: "4H 8D 9D 10D JD", 3: "3D 2S 3S 4S 6S", 0: "4D 7S 8S 9S 10S"}, suit="H")
    g.apply(1, play("6H"))
    assert legal(g, 2) == ["4H"]
    assert g.why_not(2, play("8D")) == "You must play a drumpf: a drumpf was led and you hold the 4 of drumpfs."
    with pytest.raises(IllegalMove) as err:
        g.apply(2, play("8D"))
    assert err.value.message == "You must play a drumpf: a drumpf was led and you hold the 4 of drumpfs."


def test_reneging_the_top_three_may_be_kept_back_against_a_lower_drumpf_led():
    g = start({1: "6H 2C 3C 6C 7C", 2: "5H 8D 9D 10D JD", 3: "JH 2S 3S 4S 6S", 0: "AH 7S 8S 9S 10S"}, suit="H")
    g.apply(1, play("6H"))
    assert "8D" in legal(g, 2) and "5H" in legal(g, 2)
    g.apply(2, play("8D"))
    g.apply(3, play("2S"))
    g.apply(0, play("7S"))
    assert g.play.done[0].winner == 1


def test_reneging_with_a_lower_drumpf_too_you_must_play_a_drumpf():
    g = start({1: "6H 2C 3C 6C 7C", 2: "5H 4H 9D 10D JD", 3: "JH 2S 3S 4S 6S", 0: "AH 7S 8S 9S 10S"}, suit="H")
    g.apply(1, play("6H"))
    assert legal(g, 2) == ["4H", "5H"]


def test_no_reneging_against_a_higher_drumpf_led():
    # the jack led: the holder of the 5 may keep it back, the holder of the ace of hearts may not
    g = start({1: "JH 2C 3C 6C 7C", 2: "5H 8D 9D 10D JD", 3: "AH 2S 3S 4S 6S", 0: "3D 7S 8S 9S 10S"}, suit="H")
    g.apply(1, play("JH"))
    assert "8D" in legal(g, 2)
    g.apply(2, play("8D"))
    assert legal(g, 3) == ["AH"]
    assert g.why_not(3, play("2S")) == ("You must play a drumpf: a drumpf was led and you hold the Ace of hearts.")


def test_the_ace_of_drumpfs_is_never_kept_back():
    g = start({1: "10S 2C 3C 6C 7C", 2: "AS 8D 9D 10D JD", 3: "3D 2H 3H 4H 6H", 0: "4D 7H 8H 9H 10H"}, suit="S")
    g.apply(1, play("10S"))
    assert legal(g, 2) == ["AS"]


def test_the_privilege_looks_at_the_card_led_not_the_highest_card_played_so_far():
    g = start({1: "3S 2C 3C 6C 7C", 2: "5S 8D 9D 10D JD", 3: "JS 2H 3H 4H 6H", 0: "4D 7H 8H 9H 10H"}, suit="S")
    g.apply(1, play("3S"))
    g.apply(2, play("5S"))  # the 5, higher than the jack, is on the table
    assert "2H" in legal(g, 3)  # the jack still ranks above the 3 led: it may be kept back
    g.apply(3, play("2H"))


# --- a bid of 30 -------------------------------------------------------------------------------------------


def test_on_a_30_the_bidders_first_lead_must_be_a_drumpf_if_they_hold_one():
    g = start(
        {1: "4H 2C 3C 6C 7C", 2: "5H 8D 9D 10D JD", 3: "3D 2S 3S 4S 6S", 0: "4D 7S 8S 9S 10S"}, suit="H", value=30
    )
    assert legal(g, 1) == ["4H"]
    assert g.why_not(1, play("2C")) == "On a bid of 30 the first lead must be a drumpf, and you hold the 4 of drumpfs."


def test_on_a_30_without_a_drumpf_the_first_lead_is_free():
    g = start(
        {1: "2D 2C 3C 6C 7C", 2: "5H 8D 9D 10D JD", 3: "3D 2S 3S 4S 6S", 0: "4D 7S 8S 9S 10S"}, suit="H", value=30
    )
    assert len(legal(g, 1)) == 5


def test_the_30_lead_rule_binds_only_the_first_lead_of_the_hand():
    g = start(
        {1: "JH 4H 2C 3C 6C", 2: "5H 8D 9D 10D JD", 3: "3D 2S 3S 4S 6S", 0: "4D 7S 8S 9S 10S"}, suit="H", value=30
    )
    for s, c in ((1, "JH"), (2, "8D"), (3, "2S"), (0, "7S")):
        g.apply(s, play(c))
    assert g.to_move == 1 and "2C" in legal(g, 1)


def test_on_a_lower_bid_the_bidder_may_lead_any_card():
    g = start({1: "4H 2C 3C 6C 7C", 2: "5H 8D 9D 10D JD", 3: "3D 2S 3S 4S 6S", 0: "4D 7S 8S 9S 10S"}, suit="H")
    assert len(legal(g, 1)) == 5


def test_playing_a_card_you_do_not_hold_is_refused_and_changes_nothing():
    g = start({1: "4H 2C 3C 6C 7C", 2: "5H 8D 9D 10D JD", 3: "3D 2S 3S 4S 6S", 0: "4D 7S 8S 9S 10S"}, suit="H")
    before = {s: g.view(s) for s in (None, 0, 1, 2, 3)}
    assert g.why_not(1, play("AS")) == "You do not hold the Ace of spades."
    with pytest.raises(IllegalMove):
        g.apply(1, play("AS"))
    with pytest.raises(IllegalMove):
        g.apply(1, Move.bid(20))
    assert {s: g.view(s) for s in (None, 0, 1, 2, 3)} == before
