"""120s-house: "What you may play" — following, trumping, reneging and the first lead on a 30.
Trump is hearts unless a test says otherwise; seat 1 bids, seat 2 leads."""

import pytest

from fairdeal.core.games.base import IllegalMove
from tests.games.onetwenty.helpers import play

from .scenes import legal, ready, trick

H = "120s-house"
DEFAULT_OTHERS = {3: "2S 3S 4S 6S 7S", 0: "8S 9S 10S JS QS", 1: "KS AS 8C 9C 10C"}


def at_lead(hands, value=20, suit="H", kitty="JC QC KC", **kw):
    full = dict(DEFAULT_OTHERS)
    full.update(hands)
    return ready(H, full, bidder=1, value=value, suit=suit, kitty=kitty, **kw)


def test_growler_cards_only_lets_you_play_a_legal_card():
    g = at_lead({2: "KD 2C 3C 4C 6C", 3: "4D 7H 2S 3S 4S"})
    g.apply(2, play("KD"))
    assert legal(g) == ["4D", "7H"]
    assert g.why_not(3, play("2S")) == (
        "You must follow diamonds or play a trump: diamonds were led and you hold the 4 of diamonds."
    )
    before = g.view(3)
    with pytest.raises(IllegalMove):
        g.apply(3, play("2S"))
    assert g.view(3) == before
    assert g.why_not(3, play("AC")) == "You do not hold the Ace of clubs."


def test_when_a_plain_suit_is_led_follow_that_suit_or_play_a_trump():
    g = at_lead({2: "KD 2C 3C 4C 6C", 3: "4D 6D 7H 2S 3S"})
    g.apply(2, play("KD"))
    assert legal(g) == ["4D", "6D", "7H"]


def test_you_may_trump_even_when_you_could_follow():
    g = at_lead({2: "KD 2C 3C 4C 6C", 3: "4D 7H 2S 3S 4S"})
    assert trick(g, "KD", "7H", "8S", "KS") == 3


def test_the_ace_of_hearts_is_not_a_heart_when_following_hearts():
    # clubs are trump; hearts led; a hand with the ace of hearts and no other heart is void in hearts
    g = at_lead({2: "KH 2D 3D 4D 6D", 3: "AH 2S 3S 4S 6S"}, suit="C", kitty="7D 8D 9D")
    g.apply(2, play("KH"))
    assert legal(g) == ["AH"]  # void in hearts, holding a trump: must trump
    assert g.why_not(3, play("2S")) == "You must play a trump: you have no hearts and you hold the Ace of hearts."


def test_if_you_have_none_of_the_suit_led_but_hold_a_trump_you_must_play_a_trump():
    g = at_lead({2: "KD 2C 3C 4C 6C", 3: "7H 4H 2S 3S 4S"})
    g.apply(2, play("KD"))
    assert legal(g) == ["4H", "7H"]
    assert g.why_not(3, play("2S")) == "You must play a trump: you have no diamonds and you hold the 4 of trumps."


def test_void_holding_only_big_three_trumps_you_must_still_trump_a_plain_lead():
    g = at_lead({2: "KD 2C 3C 4C 6C", 3: "5H 2S 3S 4S 6S"}, kitty="JC QC KC")
    g.apply(2, play("KD"))
    assert legal(g) == ["5H"]


def test_if_you_have_neither_play_any_card():
    g = at_lead({2: "KD 2C 3C 4C 6C", 3: "2S 3S 4S 6S 7S"})
    g.apply(2, play("KD"))
    assert legal(g) == ["2S", "3S", "4S", "6S", "7S"]


def test_when_a_trump_is_led_you_must_play_a_trump_if_you_have_one():
    g = at_lead({2: "KH 2C 3C 4C 6C", 3: "4H 2D 3D 4D 6D"})
    g.apply(2, play("KH"))
    assert legal(g) == ["4H"]
    assert g.why_not(3, play("2D")) == "You must play a trump: a trump was led and you hold the 4 of trumps."


def test_when_a_trump_is_led_and_you_have_none_play_any_card():
    g = at_lead({2: "KH 2C 3C 4C 6C", 3: "2D 3D 4D 6D 7D"})
    g.apply(2, play("KH"))
    assert legal(g) == ["2D", "3D", "4D", "6D", "7D"]


def test_reneging_big_three_cards_higher_than_the_trump_led_may_be_kept_back():
    for big in ("5H", "JH", "AH"):
        g = at_lead({2: "6H 2C 3C 4C 6C", 3: f"{big} 2D 3D 4D 6D"})
        g.apply(2, play("6H"))
        assert legal(g) == sorted([big, "2D", "3D", "4D", "6D"]), big


def test_reneging_holding_all_three_big_cards_and_nothing_else_in_trumps():
    g = at_lead({2: "KH 2C 3C 4C 6C", 3: "5H JH AH 2D 3D"}, kitty="JC QC KC")
    g.apply(2, play("KH"))
    assert legal(g) == ["2D", "3D", "5H", "AH", "JH"]


def test_reneging_not_allowed_when_you_also_hold_a_lower_trump():
    g = at_lead({2: "6H 2C 3C 4C 6C", 3: "5H 4H 2D 3D 4D"})
    g.apply(2, play("6H"))
    assert legal(g) == ["4H", "5H"]  # any trump: the big one may still be played


def test_reneging_not_against_a_higher_trump_led():
    # the jack of trumps led: the holder of the 5 may renege, the holder of the ace of hearts may not
    g = at_lead({2: "JH 2C 3C 4C 6C", 3: "AH 2D 3D 4D 6D", 0: "5H 8S 9S 10S QS"}, kitty="JC QC KC")
    g.apply(2, play("JH"))
    assert legal(g) == ["AH"]
    g.apply(3, play("AH"))
    assert legal(g) == ["10S", "5H", "8S", "9S", "QS"]


def test_reneging_looks_at_the_card_led_not_the_highest_card_played_so_far():
    # 6 of trumps led, then the 5 of trumps played over it: the jack may still be kept back against the 6
    g = at_lead({2: "6H 2C 3C 4C 6C", 3: "5H 2D 3D 4D 6D", 0: "JH 8S 9S 10S QS"}, kitty="JC QC KC")
    g.apply(2, play("6H"))
    g.apply(3, play("5H"))
    assert legal(g) == ["10S", "8S", "9S", "JH", "QS"]


def test_the_ace_of_trumps_cannot_be_kept_back():
    g = at_lead({2: "6C 2H 3D 4D 6D", 3: "AC 2S 3S 4S 6S"}, suit="C", kitty="7D 8D 9D")
    g.apply(2, play("6C"))
    assert legal(g) == ["AC"]
    assert g.why_not(3, play("2S")) == "You must play a trump: a trump was led and you hold the Ace of trumps."


def test_the_ace_of_hearts_may_be_kept_back_when_hearts_are_trump():
    g = at_lead({2: "6H 2C 3C 4C 6C", 3: "AH 2D 3D 4D 6D"})
    g.apply(2, play("6H"))
    assert "2D" in legal(g)


# --- On a bid of 30 ---------------------------------------------------------------------------------------------
def test_on_a_bid_of_30_an_opponents_first_lead_must_be_a_trump_if_they_have_one():
    g = at_lead({1: "5H JH AH KH QH", 2: "4H AC KC 2C 3C"}, value=30, kitty="7D 8D 9D")
    assert g.to_move == 2 and legal(g) == ["4H"]
    assert g.why_not(2, play("AC")) == "On a bid of 30 the first lead must be a trump, and you hold the 4 of trumps."


def test_on_a_bid_of_30_an_opponent_without_a_trump_leads_any_card():
    g = at_lead({1: "5H JH AH KH QH", 2: "AC KC 2C 3C 4C"}, value=30, kitty="7D 8D 9D")
    assert legal(g) == ["2C", "3C", "4C", "AC", "KC"]


def test_on_a_bid_of_30_only_the_first_lead_must_be_a_trump():
    g2 = at_lead({1: "5H JH 2D 3D 4D", 2: "4H 2H AC KC 2C", 3: "3H 2S 3S 4S 6S"}, value=30, kitty="JC QC 9D")
    assert trick(g2, "4H", "3H", "8S", "2D") == 2  # the bidder keeps its 5 and jack back (reneging)
    assert legal(g2) == ["2C", "2H", "AC", "KC"]  # seat 2 leads again, still holding a trump: any card


def test_below_30_the_first_lead_is_free():
    g = at_lead({2: "4H AC KC 2C 3C"}, value=25, kitty="JC QC 9D")
    assert legal(g) == ["2C", "3C", "4H", "AC", "KC"]
