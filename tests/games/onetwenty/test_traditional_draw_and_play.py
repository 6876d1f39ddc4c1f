"""120s-traditional: drawing, the opening lead, card order, following and reneging with the rules
page's examples (the trump six led; the trump jack led: the holder of the five may renege, the holder of the A of hearts
may not)."""

import pytest

from fairdeal.core.games.base import GameError, Move
from tests.games.onetwenty.helpers import PASS, bid, new_game, pass_round, play, throw, trump
from tests.games.onetwenty.scenes import TRUMPS_HIGHEST_FIRST, adjacent, head_to_head, legal, ready, trick

T = "120s-traditional"
OTHERS = {3: "2S 3S 4S 6S 7S", 0: "8S 9S 10S JS QS", 1: "KS AS 8C 9C 10C"}


def at_lead(hands, value=20, suit="H", kitty="JC QC KC", **kw):
    full = dict(OTHERS)
    full.update(hands)
    return ready(T, full, bidder=1, value=value, suit=suit, kitty=kitty, **kw)


# --- Drawing -------------------------------------------------------------------------------------------------------
def drawing_game(settings=None):
    g = new_game(
        T,
        {1: "5C 2D 3D 4D 6D", 2: "5H JH 2C 3C 4C", 3: "2S 3S 4S 6S 7S", 0: "8S 9S 10S JS QS"},
        kitty="AH KH QH" + (" 9H" if (settings or {}).get("teaser") else ""),
        pack="9D 8D 7D 10D JD QD KD AD",
        settings=settings,
    )
    g.apply(1, PASS)
    g.apply(2, bid(20))
    pass_round(g, 3, 0)
    g.apply(2, trump("H"))
    return g


def test_each_player_discards_as_many_as_he_wishes_and_the_dealer_restores_hands_to_five_from_his_left():
    g = drawing_game()
    assert g.phase == "throw" and g.to_move == 1 and g.options(1) == {"throw_min": 0, "throw_max": 5}
    g.apply(1, throw("2D 3D"))
    assert sorted(map(str, g.hands[1])) == ["4D", "5C", "6D", "8D", "9D"]
    g.apply(2, throw("2C 3C 4C"))  # the bidder, in turn, down from eight
    assert sorted(map(str, g.hands[2])) == ["5H", "AH", "JH", "KH", "QH"]
    g.apply(3, throw("2S 3S 4S 6S 7S"))
    assert sorted(map(str, g.hands[3])) == ["10D", "7D", "JD", "KD", "QD"]
    g.apply(0, throw(""))
    assert [(t["seat"], t["threw"], t["drew"]) for t in g.view(None)["throws"]] == [
        (1, 2, 2),
        (2, 3, 0),
        (3, 5, 5),
        (0, 0, 0),
    ]
    assert g.phase == "play"


def test_the_bidder_takes_the_kitty_and_throws_with_everyone_else_down_from_eight():
    g = drawing_game()
    g.apply(1, throw(""))
    assert g.to_move == 2 and len(g.hands[2]) == 8 and g.options(2) == {"throw_min": 3, "throw_max": 8}
    assert g.view(2)["kitty"] == ["QH", "KH", "AH"] and g.view(1)["kitty"] is None
    assert g.why_not(2, throw("2C 3C")) == "You hold 8 cards and must throw at least 3 to come back down to five."
    g.apply(2, throw("2C 3C 4C QH KH"))  # throwing more than three: dealt back up to five
    assert len(g.hands[2]) == 5 and g.view(None)["throws"][-1] == {"seat": 2, "threw": 5, "drew": 2}


def test_the_player_to_the_left_of_the_winning_bidder_makes_the_opening_lead():
    g = drawing_game()
    while g.phase == "throw":
        s = g.to_move
        g.apply(s, throw(" ".join(map(str, g.kitty_cards))) if s == 2 else throw(""))
    assert g.to_move == 3


def test_the_winner_of_a_trick_leads_the_next():
    g = at_lead({2: "AD 2C 3C 4C 6C", 1: "5H 7D 8C 9C 10C"}, kitty="JC QC KC")
    assert trick(g, "AD", "2S", "8S", "5H") == 1 and g.to_move == 1


# --- Cards and the trick -------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "trump,high,low", [(t, h, lo) for t, o in TRUMPS_HIGHEST_FIRST.items() for h, lo in adjacent(o)]
)
def test_the_highest_trump_is_the_five_second_the_jack_third_the_ace_of_hearts(trump, high, low):
    # the rest of the order: A, K, Q, then red high, black low (docs/rules/120s-traditional.md "Players and cards")
    assert head_to_head(T, trump, high, low) == 3


@pytest.mark.parametrize("trump", "CDS")
def test_the_ace_of_hearts_is_third_no_matter_what_suit_is_trump(trump):
    assert head_to_head(T, trump, "AH", f"A{trump}") == 3
    assert head_to_head(T, trump, f"J{trump}", "AH") == 3


def test_highest_in_red_lowest_in_black():
    assert head_to_head(T, "S", "10D", "9D") == 3
    assert head_to_head(T, "S", "2C", "3C") == 3
    assert head_to_head(T, "H", "2S", "10S") == 3
    assert head_to_head(T, "H", "3S", "4S") == 3  # the black small trumps too:
    assert head_to_head(T, "S", "2S", "3S") == 3


def test_a_trick_is_won_by_the_highest_trump_played_on_it():
    g = at_lead({2: "AD 2C 3C 4C 6C", 3: "2H 2S 3S 4S 6S", 0: "3H 9S 10S JS QS", 1: "KS AS 8C 9C 10C"})
    assert trick(g, "AD", "2H", "3H", "KS") == 0  # hearts are red: the 3 of trumps beats the 2


def test_or_by_the_highest_card_of_the_suit_led_if_no_trump_is_present():
    g = at_lead({2: "QD 2C 3C 4C 6C", 3: "KD 2S 3S 4S 6S", 0: "AC 9S 10S JS QS", 1: "JD AS 8C 9C 10C"})
    assert trick(g, "QD", "KD", "AC", "JD") == 3  # the ace of clubs was not the suit led


# --- Following and reneging ----------------------------------------------------------------------------------------
def test_a_hand_must_follow_suit_to_a_lead_if_that_suit_is_the_trump():
    g = at_lead({2: "KH 2C 3C 4C 6C", 3: "4H 2D 3D 4D 6D"})
    g.apply(2, play("KH"))
    assert legal(g) == ["4H"]
    assert g.why_not(3, play("2D")) == "You must play a trump: a trump was led and you hold the 4 of trumps."


def test_a_non_trump_lead_must_be_followed_or_trumped():
    g = at_lead({2: "KD 2C 3C 4C 6C", 3: "4D 7H 2S 3S 4S"})
    g.apply(2, play("KD"))
    assert legal(g) == ["4D", "7H"]
    assert g.why_not(3, play("2S")) == (
        "You must follow diamonds or play a trump: diamonds were led and you hold the 4 of diamonds."
    )


def test_even_though_able_to_follow_to_a_non_trump_lead_a_player_may_trump_if_he_pleases():
    g = at_lead({2: "KD 2C 3C 4C 6C", 3: "4D 7H 2S 3S 4S"})
    assert trick(g, "KD", "7H", "8S", "KS") == 3


def test_void_in_a_non_trump_suit_led_any_card_may_be_played():
    # docs/rules/120s-traditional.md "Play": following only; a player with none of the suit need not trump
    g = at_lead({2: "KD 2C 3C 4C 6C", 3: "7H 4H 2S 3S 4S"})
    g.apply(2, play("KD"))
    assert legal(g) == ["2S", "3S", "4H", "4S", "7H"]


def test_the_three_highest_trumps_may_renege_when_a_lower_trump_is_led():
    # "if the trump six is led, a player holding any of these three top trumps without lower trumps may discard"
    for big in ("5H", "JH", "AH"):
        g = at_lead({2: "6H 2C 3C 4C 6C", 3: f"{big} 2D 3D 4D 6D"})
        g.apply(2, play("6H"))
        assert legal(g) == sorted([big, "2D", "3D", "4D", "6D"]), big


def test_if_he_has_lower_trump_also_he_must_play_a_trump():
    g = at_lead({2: "6H 2C 3C 4C 6C", 3: "JH 4H 2D 3D 4D"})
    g.apply(2, play("6H"))
    assert legal(g) == ["4H", "JH"]
    assert g.why_not(3, play("2D")) == "You must play a trump: a trump was led and you hold the 4 of trumps."


def test_the_trump_jack_led_the_holder_of_the_five_may_renege_but_not_the_holder_of_the_ace_of_hearts():
    g = at_lead({2: "JH 2C 3C 4C 6C", 3: "AH 2D 3D 4D 6D", 0: "5H 8S 9S 10S QS"})
    g.apply(2, play("JH"))
    assert legal(g) == ["AH"]  # no reneging against a higher trump
    assert g.why_not(3, play("2D")) == "You must play a trump: a trump was led and you hold the Ace of hearts."
    g.apply(3, play("AH"))
    assert legal(g) == ["10S", "5H", "8S", "9S", "QS"]  # the five may renege
    g.apply(0, play("8S"))


def test_the_same_example_with_clubs_trump():
    g = at_lead(
        {2: "JC 2D 3D 4D 6D", 3: "AH 2S 3S 4S 6S", 0: "5C 8S 9S 10S QS", 1: "KS AS 7D 8D 9D"},
        suit="C",
        kitty="7H 8H 9H",
    )
    g.apply(2, play("JC"))
    assert legal(g) == ["AH"]
    g.apply(3, play("AH"))
    assert "8S" in legal(g)


def test_the_ace_of_trumps_is_not_one_of_the_three_and_cannot_renege():
    g = at_lead({2: "6C 2D 3D 4D 6D", 3: "AC 2S 3S 4S 6S", 1: "KS AS 7D 8D 9D"}, suit="C", kitty="7H 8H 9H")
    g.apply(2, play("6C"))
    assert legal(g) == ["AC"]


def test_on_a_30_the_first_lead_is_free():
    # the rule that an opponent's first lead against 30 must be a trump is 120s-house's, not 120s-traditional's
    g = at_lead({1: "5H JH AH KH QH", 2: "4H AC KC 2C 3C"}, value=30, kitty="7D 8D 9D")
    assert legal(g) == ["2C", "3C", "4H", "AC", "KC"]


def test_a_card_not_held_or_not_allowed_is_refused_and_changes_nothing():
    g = at_lead({2: "KH 2C 3C 4C 6C", 3: "4H 2D 3D 4D 6D"})
    g.apply(2, play("KH"))
    before = g.view(3)
    for m in (play("2D"), play("AC"), Move.pass_()):
        with pytest.raises(GameError):
            g.apply(3, m)
    assert g.view(3) == before
