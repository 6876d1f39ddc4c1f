"""120s-traditional: the rules line and reminder, the table's suggestion, the bots and the timeout
policy within the traditional bids (Mine, raises, and never a 25 or 30 without a five)."""

from fairdeal.core.games import make_rules
from fairdeal.core.games.base import FirstChoiceRng, Move
from tests.games.onetwenty.helpers import PASS, bid, new_game, pass_round, play, trump
from tests.games.onetwenty.scenes import bots_play_to_the_end, ready
from tests.games.randomness import RandomChance

T = "120s-traditional"
MINE = Move("mine")
BOT = FirstChoiceRng()
STRONG = "5H JH AH 2C 3D"  # worth 25, holds a five
NO_FIVE_25 = "JH AH KH QH AD"  # worth 25, no five
THIRTY = "5H JH AH KH QH"
WEAK = "2C 3C 4D 6S 7S"


def everyone(g, seat):
    """The suggestion, the bot's move and the timeout move for `seat` now."""
    v = g.view(seat)
    return g.rules.suggest(v), g.rules.bot_move(v, BOT), g.rules.timeout_move(v)


# --- The rules line and the reminder -----------------------------------------------------------------------------
def test_the_rules_line_states_the_traditional_game():
    text = make_rules(T).describe()
    for part in (
        "120s (Traditional). 4 players in two sides of two, partners opposite",
        "then 3 to the kitty",
        "One round of bidding from the dealer's left, the dealer last: 20, 25 or 30",
        "To bid 25 or 30 (Mine and raises included) you must hold a five.",
        "The dealer may say Mine to take the high bid at the same amount; the holder may then raise or "
        "give it up, and the dealer may take each raise again or pass.",
        "If everybody passes, the hand is thrown in and the deal moves on to the next player.",
        "each player throws away any number of cards and is dealt back up to five",
        "the bidder must throw at least 3",
        "The player to the bidder's left leads",
        "with none of it play any card",
        "may be kept back against a lower trump led",
        "A made 30 scores 60.",
        "The first side to reach 120 at the end of a hand wins; if both do, the bidder wins.",
        "Table settings: Need a five to bid 25 or 30: on; Teaser (4 in the kitty, one face up): off.",
    ):
        assert part in text, part
    for absent in ("drumpf", "Bid to go out", "On a bid of 30 the first lead", "Stick the dealer", "15"):
        assert absent not in text, absent


def test_the_rules_line_follows_the_variants():
    text = make_rules(T, {"teaser": True, "need_a_five": False}).describe()
    assert "then 4 to the kitty" in text and "lies face up for everyone" in text
    assert "the bidder must throw at least 4" in text and "must hold a five" not in text


def test_the_reminder_names_only_the_variants_that_differ_from_the_text():
    assert make_rules(T).reminder() == ""
    assert make_rules(T, {"teaser": True}).reminder() == "Teaser (4 in the kitty, one face up): on"
    assert make_rules(T, {"need_a_five": False}).reminder() == "Need a five to bid 25 or 30: off"


def test_settings_are_data_the_same_engine_as_the_other_rule_sets():
    from fairdeal.core.games.onetwenty import OneTwentyState, TraditionalRules

    r = TraditionalRules.preset("teaser")
    assert r.variant.kitty_size == 4 and r.variant.dealer_mine == "traditional"
    assert isinstance(r.new_game(RandomChance(1)), OneTwentyState)


# --- Suggestion, bot and timeout in the bidding --------------------------------------------------------------------
def test_they_open_at_20_the_lowest_bid():
    g = new_game(T, {1: STRONG})
    assert everyone(g, 1) == (bid(20), bid(20), bid(20))
    g = new_game(T, {1: WEAK})
    assert everyone(g, 1) == (PASS, PASS, PASS)


def test_a_bot_never_bids_25_without_a_five():
    g = new_game(T, {1: "2D 3D 4D 6D 7D", 2: NO_FIVE_25})
    g.apply(1, bid(20))
    assert everyone(g, 2) == (PASS, PASS, PASS)
    g = new_game(T, {1: "2D 3D 4D 6D 7D", 2: NO_FIVE_25}, settings={"need_a_five": False})
    g.apply(1, bid(20))
    assert everyone(g, 2) == (bid(25), bid(25), bid(25))


def test_the_dealer_takes_a_bid_it_is_worth_with_mine():
    g = new_game(T, {0: STRONG, 1: "5C 2D 4D 6D 7D"})
    g.apply(1, bid(20))
    pass_round(g, 2, 3)
    assert everyone(g, 0) == (MINE, MINE, MINE)


def test_the_dealer_without_a_five_does_not_take_a_25():
    g = new_game(T, {0: NO_FIVE_25, 1: "5C 2D 4D 6D 7D"})
    g.apply(1, bid(25))
    pass_round(g, 2, 3)
    assert everyone(g, 0) == (PASS, PASS, PASS)


def test_after_mine_the_holder_raises_by_the_smallest_step_if_worth_it_else_gives_it_up():
    g = new_game(T, {0: STRONG, 1: "5C JC AC KC 2D"})
    g.apply(1, bid(20))
    pass_round(g, 2, 3)
    g.apply(0, MINE)
    assert everyone(g, 1) == (bid(25), bid(25), bid(25))
    g = new_game(T, {0: STRONG, 1: "5C 2D 4D 6D 7D"})
    g.apply(1, bid(20))
    pass_round(g, 2, 3)
    g.apply(0, MINE)
    assert everyone(g, 1) == (PASS, PASS, PASS)


def test_the_dealer_takes_a_raise_again_only_if_worth_it():
    g = new_game(T, {0: "5H JH 2C 3D 4S", 1: "5C JC AC KC 2D"})  # the dealer is worth 20
    g.apply(1, bid(20))
    pass_round(g, 2, 3)
    g.apply(0, MINE)
    g.apply(1, bid(25))
    assert everyone(g, 0) == (PASS, PASS, PASS)


def test_the_bot_never_bids_or_takes_30_the_suggestion_and_timeout_may_with_a_hand_that_sees_every_trick():
    g = new_game(T, {0: THIRTY, 1: "5C 2D 4D 6D 7D"})
    g.apply(1, bid(30))
    pass_round(g, 2, 3)
    assert everyone(g, 0) == (MINE, PASS, MINE)


def test_the_suggestion_names_the_best_trump_suit():
    g = new_game(T, {1: "5S JS AH 2C 3D"})
    g.apply(1, bid(20))
    pass_round(g, 2, 3, 0)
    assert everyone(g, 1) == (trump("S"), trump("S"), trump("S"))


# --- Throwing and playing ----------------------------------------------------------------------------------------
def test_the_bidder_bot_throws_at_least_three_from_eight_keeps_its_trumps_and_draws():
    g = new_game(T, {1: "5H JH 2C 3C 4S"}, kitty="AH KH 9D")
    g.apply(1, bid(20))
    pass_round(g, 2, 3, 0)
    g.apply(1, trump("H"))
    m = g.rules.bot_move(g.view(1), BOT)
    assert m.kind == "throw" and len(m.cards) >= 3 and not {"5H", "JH", "AH", "KH"} & set(map(str, m.cards))
    g.apply(1, m)
    assert len(g.hands[1]) == 5


def test_void_in_the_suit_led_the_timeout_discards_rather_than_trumps():
    g = ready(
        T, {2: "KD 2C 3C 4C 6C", 3: "7H 4H 2S 3S 6S", 0: "8S 9S 10S JS QS", 1: "KS AS 8C 9C 10C"}, kitty="7D 8D 9D"
    )
    g.apply(2, play("KD"))
    assert str(g.rules.timeout_move(g.view(3)).card) == "6S"  # its lowest card; a trump is not required
    g = ready(
        "120s-house",
        {2: "KD 2C 3C 4C 6C", 3: "7H 4H 2S 3S 6S", 0: "8S 9S 10S JS QS", 1: "KS AS 8C 9C 10C"},
        kitty="7D 8D 9D",
    )
    g.apply(2, play("KD"))
    assert str(g.rules.timeout_move(g.view(3)).card) == "4H"  # the house rules make it trump


def test_bots_fill_every_seat_and_finish_the_game():
    for variant in ({}, {"teaser": True}, {"need_a_five": False}):
        assert bots_play_to_the_end(make_rules(T, variant), RandomChance(5)).is_over
