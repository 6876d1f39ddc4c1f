"""120s-house: the rules line and reminder, settings kept as data, the table's suggestion, the
bots ("computer players fill any empty seat") and the timeout policy, each within the house bids."""

import pytest

from fairdeal.core.games import make_rules
from fairdeal.core.games.base import FirstChoiceRng, Move
from tests.games.onetwenty.helpers import PASS, bid, cards, new_game, pass_round, trump

from .scenes import bots_play_to_the_end, ready

H = "120s-house"
MINE = Move("mine")
BOT = FirstChoiceRng()
STRONG = "5H JH AH 2C 3D"  # worth 25 at four players: opens at 20
WEAK = "2C 3C 4D 6S 7S"
THIRTY = "5H JH AH KH QH"


# --- The rules line and the reminder ----------------------------------------------------------------------------
def test_the_rules_line_states_the_whole_house_game_in_trump_words():
    text = make_rules(H).describe()
    for part in (
        "120s (House rules). 4 players in two sides of two, partners opposite",
        "then 3 to the kitty",
        "until one bidder is left: 20, 25 or 30",
        "a pass is final for the hand",
        "Stick the dealer: if everyone else passes, the dealer must bid 20.",
        "The bidder throws away 3 to get back to five.",
        "everyone but the bidder may throw away any cards",
        "The player to the bidder's left leads",
        "On a bid of 30 the first lead must be a trump",
        "with none of it you must play a trump if you hold one",
        "the A of trumps (when trumps are not hearts) never",
        "the other side keeps what it took",
        "A made 30 scores 60.",
        "Scores can go below zero.",
        "with 100 or more at the start of a hand",
        "otherwise it stops at 115",
        "The first side to reach 120",
    ):
        assert part in text, part
    assert "drumpf" not in text


def test_the_rules_line_names_every_house_rule_and_its_value():
    text = make_rules(H).describe()
    assert text.endswith(
        "Table settings: Throw away and draw: on; Dealer can take it: off; Stick the dealer: on; "
        "Plain aces low: off; Bid and make it to go out: on; 30 for 60: on; Game to: 120."
    )


def test_the_rules_line_follows_each_house_rule_switched():
    off = make_rules(
        H,
        {
            "throw_and_draw": False,
            "stick_the_dealer": False,
            "bid_to_go_out": False,
            "thirty_for_sixty": False,
            "dealer_can_take_it": True,
            "plain_aces_low": True,
        },
    )
    text = off.describe()
    assert "Nobody else throws or draws." in text
    assert "If everybody passes, the hand is thrown in and the same dealer deals again." in text
    assert "Bid to go out" not in text and "A made 30 scores 30." in text
    assert (
        "Dealer can take it: the dealer may take the bid at the same amount, except at 30, and the bidding goes "
        "on around the table."
    ) in text
    assert "(plain aces low)" in text


@pytest.mark.parametrize("players", [2, 3])
def test_the_rules_line_for_two_or_three_players_each_alone(players):
    text = make_rules(H, {}, players).describe()
    assert f"{players} players, each playing alone with an own score." in text
    assert "The first player to reach 120 at the end of a hand wins; the bidder wins if among them." in text
    assert "partners" not in text and " side" not in text
    assert "A bidding player that makes its bid scores all it took" in text and "the others keep what they took" in text
    assert "a player goes out only by winning the bid and making it" in text


def test_the_reminder_names_only_the_house_rules_that_differ_from_the_text():
    assert make_rules(H).reminder() == ""
    assert make_rules(H, {"dealer_can_take_it": True, "thirty_for_sixty": False}).reminder() == (
        "Dealer can take it: on; 30 for 60: off"
    )
    assert make_rules(H, {"throw_and_draw": True}).reminder() == ""  # a default chosen is no difference


def test_a_players_choice_is_kept_as_settings_for_the_next_table():
    chosen = make_rules(H, {"plain_aces_low": True, "game_target": 90}, 3)
    again = make_rules(H, chosen.to_json()["settings"], chosen.to_json()["players"])
    assert again.variant == chosen.variant and again.describe() == chosen.describe()


# --- The suggestion --------------------------------------------------------------------------------------------
def test_the_suggestion_opens_at_the_lowest_house_bid_the_hand_is_worth():
    g = new_game(H, {1: STRONG})
    assert g.rules.suggest(g.view(1)) == bid(20)
    g = new_game(H, {1: WEAK})
    assert g.rules.suggest(g.view(1)) == PASS


def test_the_suggestion_raises_by_the_smallest_step_in_the_second_round_too():
    g = new_game(H, {1: STRONG, 2: "5D JD AD 4S 3S"})
    g.apply(1, bid(20))
    g.apply(2, bid(25))
    pass_round(g, 3, 0)
    assert g.rules.suggest(g.view(1)) == PASS  # worth 25: it does not go to 30
    g = new_game(H, {1: THIRTY})
    g.apply(1, bid(20))
    g.apply(2, bid(25))
    pass_round(g, 3, 0)
    assert g.rules.suggest(g.view(1)) == bid(30)  # a hand that sees every trick


def test_the_suggestion_for_a_stuck_dealer_is_the_20_it_must_bid():
    g = new_game(H, {0: WEAK})
    pass_round(g, 1, 2, 3)
    assert g.rules.suggest(g.view(0)) == bid(20)
    assert g.rules.bot_move(g.view(0), BOT) == bid(20)
    assert g.rules.timeout_move(g.view(0)) == bid(20)


def test_dealer_can_take_it_the_suggestion_takes_at_the_same_amount():
    g = new_game(H, {0: STRONG}, settings={"dealer_can_take_it": True})
    g.apply(1, bid(20))
    pass_round(g, 2, 3)
    assert g.rules.suggest(g.view(0)) == MINE
    assert g.rules.bot_move(g.view(0), BOT) == MINE


def test_dealer_can_take_it_off_the_suggestion_never_says_mine():
    g = new_game(H, {0: STRONG})
    g.apply(1, bid(20))
    pass_round(g, 2, 3)
    assert g.rules.suggest(g.view(0)) == bid(25)


def test_the_suggestion_names_the_best_trump_suit():
    g = new_game(H, {1: "5S JS AH 2C 3D"})
    g.apply(1, bid(20))
    pass_round(g, 2, 3, 0)
    assert g.rules.suggest(g.view(1)) == trump("S")


# --- The bots --------------------------------------------------------------------------------------------------
def test_the_bot_never_bids_30():
    g = new_game(H, {1: THIRTY})
    assert g.rules.bot_move(g.view(1), BOT) == bid(20)
    g.apply(1, bid(20))
    g.apply(2, bid(25))
    pass_round(g, 3, 0)
    assert g.rules.bot_move(g.view(1), BOT) == PASS
    assert g.rules.timeout_move(g.view(1)) == bid(30)  # the timeout bids what the table suggests


def test_the_bot_throws_exactly_three_after_taking_the_kitty_keeping_its_trumps():
    g = new_game(H, {1: "5H JH 2C 3C 4S"}, kitty="AH KH 9D")
    g.apply(1, bid(20))
    pass_round(g, 2, 3, 0)
    g.apply(1, trump("H"))
    m = g.rules.bot_move(g.view(1), BOT)
    assert m == Move.throw(cards("3C 4S 9D"))  # keeps its four trumps and its best plain card (2C)
    assert g.rules.timeout_move(g.view(1)) == m
    g.apply(1, m)
    assert sorted(map(str, g.hands[1])) == ["2C", "5H", "AH", "JH", "KH"]


def test_the_bot_and_the_timeout_lead_a_trump_on_an_opponents_first_lead_against_30():
    g = ready(H, {1: THIRTY, 2: "4H AC KC 2C 3C"}, value=30, kitty="7D 8D 9D")
    for m in (g.rules.bot_move(g.view(2), BOT), g.rules.timeout_move(g.view(2))):
        assert str(m.card) == "4H"


def test_the_timeout_plays_the_safe_card_the_lowest_legal_one():
    g = ready(H, {2: "KD 2C 3C 4C 6C", 3: "4D 6D 7H AS QS"}, kitty="7D 8D 9D")
    g.apply(2, Move.play(g.hands[2][-1]))  # the king of diamonds
    assert str(g.rules.timeout_move(g.view(3)).card) == "4D"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_computer_players_can_fill_every_seat(players):
    from tests.games.randomness import RandomChance

    rules = make_rules(H, {"dealer_can_take_it": True}, players)
    assert bots_play_to_the_end(rules, RandomChance(players)).is_over
