"""120s-house (docs/rules/120s-house.md): "The trump cards, highest first", "Red high, black low" and the house rule
"Plain aces low" (on and off), each shown by a trick where the higher card is played over the lower."""

import pytest

from tests.games.onetwenty.helpers import new_game

from .scenes import TRUMPS_HIGHEST_FIRST, adjacent, head_to_head, ready, trick

H = "120s-house"


@pytest.mark.parametrize(
    "trump,high,low", [(t, h, lo) for t, o in TRUMPS_HIGHEST_FIRST.items() for h, lo in adjacent(o)]
)
def test_the_trump_cards_highest_first(trump, high, low):
    # 1. the 5, 2. the J, 3. the A of hearts, 4. the A of trumps (not hearts), 5. K, 6. Q, 7. small trumps:
    # red 10 9 8 7 6 4 3 2, black 2 3 4 6 7 8 9 10 ("Red high, black low holds for the small trumps too").
    assert head_to_head(H, trump, high, low) == 3
    assert head_to_head(H, trump, low, high) == 2


def test_the_5_of_trumps_is_the_best_card_in_the_game():
    g = ready(
        H,
        {2: "JS 2C 3C 4C 6C", 3: "AH 2D 3D 4D 6D", 0: "AS 7C 8C 9C 10C", 1: "5S 7D 8D 9D 10D"},
        bidder=1,
        value=20,
        suit="S",
        kitty="JC QC KC",
    )
    assert trick(g, "JS", "AH", "AS", "5S") == 1


@pytest.mark.parametrize("trump", "CDS")
def test_the_ace_of_hearts_is_always_a_trump_whatever_suit_is_trump(trump):
    # led hearts (a plain suit here): the ace of hearts is not a heart, it trumps the king of hearts
    assert head_to_head(H, trump, "AH", "KH") == 3
    # and the lowest trump beats any heart: the ace of hearts is a trump, not the best heart
    small = TRUMPS_HIGHEST_FIRST[trump].split()[-1]
    assert head_to_head(H, trump, small, "KH") == 3


def test_the_big_three_the_5_the_jack_of_trumps_and_the_ace_of_hearts_beat_the_ace_of_trumps():
    for big in ("5C", "JC", "AH"):
        assert head_to_head(H, "C", big, "AC") == 3


RED_PLAIN = "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D"
BLACK_PLAIN = "AC KC QC JC 2C 3C 4C 5C 6C 7C 8C 9C 10C"


@pytest.mark.parametrize("high,low", adjacent(RED_PLAIN))
def test_red_plain_suits_ace_king_queen_jack_then_10_down_to_2(high, low):
    assert head_to_head(H, "S", high, low) == 3


@pytest.mark.parametrize("high,low", adjacent(BLACK_PLAIN))
def test_black_plain_suits_ace_king_queen_jack_then_2_up_to_10(high, low):
    assert head_to_head(H, "H", high, low) == 3


def test_a_smaller_number_wins_in_black_the_2_of_clubs_beats_the_10_of_clubs():
    assert head_to_head(H, "D", "2C", "10C") == 3
    assert head_to_head(H, "D", "10S", "2S") == 2


def test_a_bigger_number_wins_in_red():
    assert head_to_head(H, "C", "10D", "2D") == 3
    assert head_to_head(H, "C", "2H", "10H") == 2


def test_hearts_as_a_plain_suit_king_high():
    assert head_to_head(H, "S", "KH", "QH") == 3


def test_a_card_not_of_the_suit_led_and_not_a_trump_cannot_win_the_trick():
    g = ready(
        H,
        {2: "2D 3C 4C 6C 7C", 3: "AC KC QC JC 8C", 0: "AS KS QS JS 2S", 1: "9C 10C 3S 4S 6S"},
        bidder=1,
        value=20,
        suit="H",
        kitty="7S 8S 9S",
    )
    assert trick(g, "2D", "AC", "AS", "9C") == 2  # the 2 of diamonds led wins against three higher cards


def test_the_5_is_an_ordinary_small_card_in_a_plain_suit():
    assert head_to_head(H, "S", "6D", "5D") == 3
    assert head_to_head(H, "S", "4C", "5C") == 3


# --- Plain aces low (house rule, off to start) ----------------------------------------------------------------
def test_plain_aces_low_off_an_ace_that_is_not_trump_is_the_best_card_of_its_suit():
    assert head_to_head(H, "H", "AC", "KC") == 3
    assert head_to_head(H, "H", "AD", "KD") == 3


LOW = {"plain_aces_low": True}


def test_plain_aces_low_on_an_ace_in_clubs_and_spades_counts_as_one_below_the_jack():
    for suit in "CS":
        assert head_to_head(H, "D", f"J{suit}", f"A{suit}", LOW) == 3
        assert head_to_head(H, "D", f"A{suit}", f"2{suit}", LOW) == 3  # one beats two in black
        assert head_to_head(H, "D", f"K{suit}", f"A{suit}", LOW) == 3


def test_plain_aces_low_on_the_ace_of_diamonds_is_the_lowest_diamond():
    assert head_to_head(H, "S", "2D", "AD", LOW) == 3
    assert head_to_head(H, "S", "KD", "QD", LOW) == 3


def test_plain_aces_low_never_touches_the_ace_of_trumps_or_the_ace_of_hearts():
    assert head_to_head(H, "C", "AC", "KC", LOW) == 3  # the ace of trumps is still 4th
    assert head_to_head(H, "D", "AD", "KD", LOW) == 3
    assert head_to_head(H, "S", "AH", "AS", LOW) == 3


def test_plain_aces_low_shows_in_the_rules_line_and_the_view_settings():
    g = new_game(H, settings=LOW)
    assert g.view(0)["settings"]["plain_aces_low"] is True
    assert "K Q J A 2..10 in black, K Q J 10..2 A in diamonds" in g.rules.describe()
