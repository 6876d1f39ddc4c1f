"""Spades, "At the online table": what each seat sees, why a card cannot be played, the pencil tick (the
suggested bid), the timeout's safe card and the bot."""

import json

import pytest

from fairdeal.core.cards import card_from_str
from fairdeal.core.games import make_rules
from fairdeal.core.games.base import FirstChoiceRng, IllegalMove, MalformedMove, Move, NotYourTurn
from fairdeal.core.games.spades import suggested_bid
from tests.games.randomness import PickRng

from .helpers import MIXED, bid, new_game, play, view_for

RULES = make_rules("spades")
EVEN = {0: 3, 1: 3, 2: 3, 3: 3}


def cards_of(text):
    return [card_from_str(c) for c in text.split()]


def snapshot(game):
    return [game.view(s) for s in (None, 0, 1, 2, 3)]


# --------------------------------------------------------------------------------------------- views


def test_a_seat_sees_its_own_hand_and_the_public_table_only():
    game = new_game(MIXED)
    bid(game, {1: 4, 2: 0, 3: 5, 0: 3})
    play(game, "AH", "2H", "8S", "4H", "2D")
    view = game.view(0)
    for key in ("rule_set", "seat", "players", "to_move", "phase", "dealer", "hand", "scores"):
        assert key in view
    assert (view["rule_set"], view["seat"], view["players"], view["phase"]) == ("spades", 0, 4, "play")
    assert set(view["hand"]) == set(MIXED[0].split()) - {"4H"}
    assert view["bids"] == [3, 4, 0, 5] and view["tricks_taken"] == [0, 0, 0, 1]
    assert view["tricks"][0]["winner"] == 3 and view["tricks"][0]["plays"][2] == [3, "8S"]
    assert view["trick"]["plays"] == [[3, "2D"]] and view["spades_broken"] is True
    assert view["hand_sizes"] == [12, 12, 12, 11]
    assert {m["card"] for m in view["legal"]} == {"JD", "QD"}
    public = set(view["hand"]) | {"AH", "2H", "8S", "4H", "2D"}
    text = json.dumps(view)
    for seat in (1, 2, 3):
        for card in MIXED[seat].split():
            if card not in public:
                assert f'"{card}"' not in text


def test_a_spectator_sees_no_hand():
    game = new_game(MIXED)
    view = game.view(None)
    assert view["hand"] is None and view["seat"] is None and "legal" not in view
    text = json.dumps(view)
    assert not any(f'"{c}"' in text for hand in MIXED.values() for c in hand.split())


def test_legal_moves_are_listed_only_for_the_seat_to_move():
    game = new_game(MIXED)
    assert "legal" in game.view(1) and "legal" not in game.view(2)
    assert game.legal_moves(2) == []


# ------------------------------------------------------------------------------------------- why not


def test_why_a_card_cannot_be_played_now():
    game = new_game(MIXED)
    bid(game, EVEN)
    play(game, "AH")
    assert game.why_not(3, Move.play(card_from_str("2D"))) == "It is not your turn: seat 2 is to play a card."
    assert game.why_not(2, Move.play(card_from_str("AS"))) == "You do not hold the Ace of spades."
    assert game.why_not(2, Move.bid(3)) == "The bidding is over: play a card."
    with pytest.raises(MalformedMove, match="A play move's 'card' is a card"):
        Move("play")  # a play names its card, a Card (not text)
    with pytest.raises(MalformedMove, match="A play move's 'card' is a card"):
        Move("play", card="2H")
    assert game.why_not(7, Move.play(card_from_str("2H"))) == "There is no seat 7 at this table; the seats are 0 to 3."
    assert game.why_not(2, Move.play(card_from_str("2H"))) is None


def test_an_illegal_move_raises_and_changes_nothing():
    game = new_game(MIXED)
    bid(game, EVEN)
    before = snapshot(game)
    with pytest.raises(NotYourTurn):
        game.apply(2, Move.play(card_from_str("2H")))
    with pytest.raises(IllegalMove, match="Spades are not broken yet."):
        game.apply(1, Move.play(card_from_str("2S")))
    with pytest.raises(IllegalMove, match="You do not hold"):
        game.apply(1, Move.play(card_from_str("AS")))
    assert snapshot(game) == before


def test_every_card_of_the_hand_is_either_legal_or_has_a_sentence():
    game = new_game(MIXED)
    bid(game, EVEN)
    play(game, "AH")
    legal = {m.card for m in game.legal_moves(2)}
    for card in cards_of(MIXED[2]):
        reason = game.why_not(2, Move.play(card))
        assert (reason is None) == (card in legal)
        assert reason in (None, "You must follow hearts.")


# ---------------------------------------------------------------------------------------- describe


def test_describe_states_the_rules_and_the_reminder_is_empty():
    text = RULES.describe()
    for phrase in (
        "four players",
        "0 (nil) to 13",
        "spades are always trump",
        "500",
        "-200",
        "10 bags",
        "no blind nil",
        "tie plays one more hand",
    ):
        assert phrase in text
    assert RULES.reminder() == ""


# ------------------------------------------------------------------------------------ suggested bid


@pytest.mark.parametrize(
    "hand, worth",
    [
        ("AS KS QS JS 10S AC AH KH 2H AD 2D 3D 4D", 9),  # 3 spade honours + 2 long, 4 aces, a guarded king
        ("2S 3S 4S 5S 6S 2D 2H 3H 4H 5H 6H 7H 8H", 5),  # 2 long spades; void clubs ruffs twice, 2D once
        ("AH 2H 3H 4H 5H 6H AD 2D 2C 3C 4C 5C 6C", 2),  # a long suit's ace is half: 1.5 rounds up
        ("KS 2S 2C 3C 4C 5C 6C 2D 3D 4D 5D 2H 3H", 1),  # a guarded KS
    ],
)
def test_suggested_bid_evaluates_the_hand(hand, worth):
    assert suggested_bid(cards_of(hand)) == worth


def test_the_suggestion_is_never_nil():
    worthless = "2C 3C 4C 5C 2D 3D 4D 5D 2H 3H 4H 5H 6H"
    assert suggested_bid(cards_of(worthless)) == 1
    assert suggested_bid(cards_of("KS 2C 3C 4C 5C 6C 2D 3D 4D 5D 2H 3H 4H")) == 1  # an unguarded KS is not


def test_suggest_timeout_and_bot_bid_what_the_hand_is_worth():
    game = new_game(MIXED)
    view = game.view(1)
    expected = Move.bid(suggested_bid(cards_of(MIXED[1])))
    assert RULES.suggest(view) == expected
    assert RULES.timeout_move(view) == expected
    assert RULES.bot_move(view, FirstChoiceRng()) == expected
    assert RULES.suggest(game.view(None)) is None


# --------------------------------------------------------------------------------------- safe card


def test_safe_card_partner_winning_plays_the_lowest_card():
    view = view_for(0, "2H 9H KH 3S", plays=[(2, "QH"), (3, "5H")])
    assert RULES.timeout_move(view) == Move.play(card_from_str("2H"))


def test_safe_card_partner_winning_a_void_seat_keeps_its_spades():
    view = view_for(1, "2S 5D", plays=[(2, "3H"), (3, "AH")])  # partner 3 wins with AH
    assert RULES.timeout_move(view) == Move.play(card_from_str("5D"))


def test_safe_card_wins_as_cheaply_as_it_can():
    view = view_for(0, "2H 9H KH AH", plays=[(1, "10H")])
    assert RULES.timeout_move(view) == Move.play(card_from_str("KH"))
    void = view_for(0, "2C 5D 3S 9S", plays=[(1, "AH"), (2, "KH")])
    assert RULES.timeout_move(void) == Move.play(card_from_str("3S"))


def test_safe_card_that_cannot_win_is_the_lowest_and_keeps_the_spades():
    view = view_for(0, "9C 5D 2S", plays=[(1, "AH"), (2, "3S")])  # 2S is too low to win anyway
    assert RULES.timeout_move(view) == Move.play(card_from_str("5D"))
    lead = view_for(0, "2S 5D 9C", spades_broken=True)
    assert RULES.timeout_move(lead) == Move.play(card_from_str("5D"))


def test_safe_card_for_a_nil_bidder_is_the_highest_that_does_not_take_the_trick():
    view = view_for(0, "2H 9H KH", plays=[(1, "10H")], bids=(0, 3, 3, 3))
    assert RULES.timeout_move(view) == Move.play(card_from_str("9H"))


# ------------------------------------------------------------------------------------------------ bot


def test_bot_covers_its_partners_nil():
    view = view_for(0, "3H 9H KH", plays=[(1, "2H"), (2, "5H")], bids=(3, 3, 0, 3))
    assert RULES.bot_move(view, FirstChoiceRng()) == Move.play(card_from_str("9H"))


def test_bot_keeps_its_own_nil():
    view = view_for(0, "2H 9H KH", plays=[(1, "10H")], bids=(0, 3, 3, 3))
    assert RULES.bot_move(view, FirstChoiceRng()) == Move.play(card_from_str("9H"))


def test_bot_leads_a_card_that_cannot_be_beaten_in_its_suit():
    view = view_for(0, "KD 4D 7C 8C", tricks=[[(1, "AD"), (2, "2D"), (3, "3D"), (0, "5D")]], taken=(0, 1, 0, 0))
    assert RULES.bot_move(view, FirstChoiceRng()) == Move.play(card_from_str("KD"))


def test_bot_ducks_once_its_contract_is_in():
    view = view_for(0, "2H 9H KH", plays=[(1, "10H")], bids=(1, 3, 1, 3), taken=(2, 0, 0, 0))
    assert RULES.bot_move(view, FirstChoiceRng()) == Move.play(card_from_str("9H"))


def test_bot_leaves_a_trick_its_partner_has_won():
    view = view_for(0, "2H 9H KH", plays=[(1, "5H"), (2, "AH"), (3, "3H")])
    assert RULES.bot_move(view, FirstChoiceRng()) == Move.play(card_from_str("2H"))


def test_bot_breaks_ties_with_the_seeded_rng():
    view = view_for(0, "2C 2D 9H 10H")
    assert RULES.bot_move(view, PickRng(0)) == Move.play(card_from_str("2C"))
    assert RULES.bot_move(view, PickRng(1)) == Move.play(card_from_str("2D"))
