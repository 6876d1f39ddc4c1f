"""At the table: views, refusals, suggestions, bots and timeouts, the rules text."""

import json

import pytest

from fairdeal.core.cards import card_from_str, cards_from_str
from fairdeal.core.games import make_rules
from fairdeal.core.games.base import BadSettings, FirstChoiceRng, IllegalMove, MalformedMove, Move, NotYourTurn
from tests.games.randomness import PickRng

from .deals import DEAL
from .helpers import answer_stay, deck_for, exchange_nothing, game, name_trump, play, to_play


def rules(**settings):
    return make_rules("twenty-down", settings)


# --- views -------------------------------------------------------------------------------------------


def test_view_has_the_shared_keys_and_only_the_own_hand():
    state = game(DEAL)
    name_trump(state, "S")
    view = state.view(2)
    for key in ("rule_set", "seat", "players", "to_move", "phase", "dealer", "hand", "scores"):
        assert key in view
    assert view["rule_set"] == "twenty-down" and view["seat"] == 2 and view["players"] == 4
    assert set(view["hand"]) == {"7C", "8C", "9C", "10C", "JC"}
    text = json.dumps(view)
    for card in ("AS", "JH", "9D", "7S"):  # another hand, the stock
        assert f'"{card}"' not in text


def test_spectator_view_is_the_public_part():
    state = game(DEAL)
    name_trump(state, "S")
    view = state.view(None)
    assert view["hand"] is None and view["seat"] is None
    assert view["trump"] == "S" and view["stock"] == 12
    assert [p["cards"] for p in view["seats"]] == [5, 5, 5, 5]


def test_view_shows_stays_drops_exchanges_tricks_and_the_last_hand():
    state = game(DEAL)
    name_trump(state, "S")
    state.apply(1, Move.throw(cards_from_str("KS")))
    exchange_nothing(state)
    answer_stay(state, drops=[2])
    play(state, "AS", "9D", "JH")
    view = state.view(3)
    assert [p["status"] for p in view["seats"]] == ["in", "in", "out", "in"]
    assert [p["exchanged"] for p in view["seats"]] == [0, 1, 0, 0]
    assert view["tricks"] == [
        {"leader": 1, "plays": [[1, "AS"], [3, "9D"], [0, "JH"]], "winner": 1, "winning_card": "AS"}
    ]
    assert view["trick"] == {"leader": 1, "plays": [], "winner": None, "winning_card": None}
    assert view["seats"][1]["tricks"] == 1
    play(state, "10S", "10D", "QH", "7S", "JD", "KH", "QS", "QD", "AH", "JS", "KD", "7H")
    last = state.view(None)["last_hand"]
    assert last["counted_deal"] == 1 and last["hand_number"] == 0 and last["trump"] == "S" and last["dropped"] == [2]
    assert last["changes"] == [5, -5, 0, 5] and len(last["tricks"]) == 5


# --- refusals ----------------------------------------------------------------------------------------


def test_a_move_out_of_turn_is_refused_with_not_your_turn():
    state = game(DEAL)
    with pytest.raises(NotYourTurn, match="It is not your turn: seat 1 is to name trumps."):
        state.apply(0, Move.trump("S"))


def test_a_move_of_the_wrong_kind_names_the_decision():
    state = game(DEAL)
    assert state.why_not(1, Move("stay")) == "Now you name trumps."


def test_a_move_with_a_field_it_does_not_use_is_refused():
    state = game(DEAL)
    name_trump(state, "S")
    exchange_nothing(state)
    with pytest.raises(MalformedMove, match='A stay move has no \'value\'; its form is {"kind":"stay"}.'):
        Move("stay", value=1)
    with pytest.raises(MalformedMove, match="A drop move has no 'card'"):
        Move("drop", card=card_from_str("7C"))
    with pytest.raises(MalformedMove, match="A stay move has no 'value'"):
        Move.from_json({"kind": "stay", "value": 1})
    assert state.why_not(2, Move("stay")) is None


def test_an_unknown_seat_is_refused():
    assert game(DEAL).why_not(7, Move.trump("S")) == "There is no seat 7 at this table; the seats are 0 to 3."


def test_an_illegal_card_changes_nothing():
    state = game(DEAL)
    to_play(state, "S")
    play(state, "AS")
    before = [state.view(s) for s in (None, 0, 1, 2, 3)]
    with pytest.raises(IllegalMove, match="You do not hold AH."):
        state.apply(2, Move.play(card_from_str("AH")))
    assert [state.view(s) for s in (None, 0, 1, 2, 3)] == before


# --- suggestions, bots, timeouts (docs/rules/twenty-down.md "Suggestions, bots and timeouts") --------


@pytest.mark.parametrize("first, suit", [("7S 9S", "S"), ("AH 7S", "H"), ("KC 9D", "C")])
def test_bot_names_the_suit_of_two_cards_or_of_an_ace(first, suit):
    state = game(deck_for(0, {1: first}))
    assert rules().bot_move(state.view(1), FirstChoiceRng()) == Move.trump(suit)
    assert rules().suggest(state.view(1)) == Move.trump(suit)


def test_bot_breaks_a_tie_between_suits_with_its_rng():
    state = game(deck_for(0, {1: "7C 7D"}))
    assert rules().bot_move(state.view(1), FirstChoiceRng()) == Move.trump("C")
    assert rules().bot_move(state.view(1), PickRng(-1)) == Move.trump("D")


def test_bot_exchanges_low_side_cards_boldly():
    state = game(deck_for(0, {1: "AS 7C"}, {1: "8D AH QC"}))
    name_trump(state, "S")
    assert rules().bot_move(state.view(1), FirstChoiceRng()) == Move.throw(cards_from_str("7C 8D QC"))


WEAK_AND_STRONG = deck_for(0, {1: "AS 7C", 2: "8C 8D", 3: "KS QS"}, {2: "9H QC JD", 3: "7H 8H 10H"})


def test_bot_drops_out_with_a_weak_hand_and_stays_with_a_trick():
    state = game(WEAK_AND_STRONG)
    name_trump(state, "S")
    exchange_nothing(state)
    assert rules().bot_move(state.view(2), FirstChoiceRng()) == Move("drop")
    state.apply(2, Move("drop"))
    assert rules().bot_move(state.view(3), FirstChoiceRng()) == Move("stay")


@pytest.mark.parametrize("suit, move", [("H", "drop"), ("C", "stay")])
def test_bot_wants_more_to_stay_in_with_hearts_trumps(suit, move):
    state = game(deck_for(0, {1: "AS 7C", 3: "KH KC"}, {3: "7S 8S 9D"}))  # one sure trick either way
    name_trump(state, suit)
    exchange_nothing(state)
    state.apply(2, Move("stay"))
    assert rules().bot_move(state.view(3), FirstChoiceRng()) == Move(move)


def test_bot_leads_a_side_ace_and_follows_with_the_cheapest_winner():
    state = game(deck_for(0, {1: "AH 7S", 2: "KH 10H"}, {1: "8S 9S 7C", 2: "7D 8D 9D"}))
    to_play(state, "S")
    assert rules().bot_move(state.view(1), FirstChoiceRng()) == Move.play(card_from_str("AH"))
    state2 = game(deck_for(0, {1: "9H 7S", 2: "KH 10H"}, {1: "8S 9S 7C", 2: "AH 8D 9D"}))
    to_play(state2, "S")
    play(state2, "9H")
    assert rules().bot_move(state2.view(2), FirstChoiceRng()) == Move.play(card_from_str("KH"))


def test_timeout_keeps_every_card_and_plays_the_lowest_legal_card():
    state = game(DEAL)
    name_trump(state, "S")
    assert rules().timeout_move(state.view(1)) == Move.throw(())
    exchange_nothing(state)
    answer_stay(state)
    play(state, "JS")
    assert rules().timeout_move(state.view(2)) == Move.play(card_from_str("7C"))


def test_timeout_looks_instead_of_going_blind_and_never_asks_for_a_new_deal():
    r = rules(three_first_cards=True)
    state = r.new_game(game(deck_for(0, {1: "7S 8S 7C"})).chance)
    assert r.timeout_move(state.view(1)) == Move("pass")
    state.apply(1, Move("pass"))
    assert r.bot_move(state.view(1), FirstChoiceRng()) == Move("newdeal")
    assert r.timeout_move(state.view(1)).kind == "trump"


def test_timeout_after_blind_names_spades():
    r = rules(three_first_cards=True)
    state = r.new_game(game(DEAL).chance)
    state.apply(1, Move.trump("blind"))
    assert r.timeout_move(state.view(1)) == Move.trump("S")


def test_suggest_only_for_the_seat_to_move():
    state = game(DEAL)
    assert rules().suggest(state.view(2)) is None
    assert rules().suggest(state.view(None)) is None


# --- rules text and settings -------------------------------------------------------------------------


def test_describe_states_the_table_rules():
    assert "A 10 K Q J 9 8 7" in rules().describe()
    assert "diamonds trumps keep everyone in" in rules().describe()
    text = rules(standard_order=True, jass_order=True, clubs_force_stay=True, no_endgame=True).describe()
    assert "A K Q J 10 9 8 7" in text and "trumps J 9 A 10 K Q 8 7" in text
    assert "clubs trumps keep everyone in" in text and "no endgame" in text


def test_reminder_names_only_the_differences_from_the_defaults():
    assert rules().reminder() == ""
    assert rules(jass_order=True).reminder() == "Jass order in trumps (J 9 A 10 K Q 8 7): on"


def test_settings_and_table_size_are_checked():
    with pytest.raises(BadSettings):
        make_rules("twenty-down", {"jass": True})
    with pytest.raises(BadSettings):
        make_rules("twenty-down", {"jass_order": "yes"})
    with pytest.raises(BadSettings, match="played by 4 players"):
        make_rules("twenty-down", {}, players=3)
