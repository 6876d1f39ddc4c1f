"""The eight variants, each a table setting, off by default: each shown on and off."""

import pytest

from fairdeal.core.games.base import Move

from .deals import KING_AND_TEN
from .helpers import (
    answer_stay,
    deck_for,
    exchange_nothing,
    game,
    hand,
    name_trump,
    play,
    to_play,
    walkover_deal,
)

# Dealer 0, trump spades: seat 1 leads AS, seat 2 must follow with JS; then seat 2 holds K, Q, A of clubs.
JACK_AND_ACE = deck_for(
    0,
    first={1: "AS 7C", 2: "JS 8C", 3: "7D 8D", 0: "7H 8H"},
    second={1: "9C 10C JC", 2: "QC KC AC", 3: "9D 10D JD", 0: "9H 10H JH"},
)


# --- Jass order --------------------------------------------------------------------------------------


@pytest.mark.parametrize("jass, winner", [(True, 2), (False, 1)])
def test_jass_order_puts_the_jack_of_trumps_above_the_ace(jass, winner):
    state = game(JACK_AND_ACE, jass_order=jass)
    to_play(state, "S")
    play(state, "AS", "JS", "7D", "7H")
    assert state.tricks.done[0].winner == winner


def test_jass_order_leaves_the_other_suits_as_normal():
    state = game(JACK_AND_ACE, jass_order=True)
    to_play(state, "S")
    play(state, "AS", "JS", "7D", "7H", "KC", "9D", "9H", "JC")
    assert state.tricks.done[1].winner == 2


# --- standard order ----------------------------------------------------------------------------------


@pytest.mark.parametrize("standard, winner", [(True, 1), (False, 2)])
def test_standard_order_puts_the_ten_below_the_jack(standard, winner):
    state = game(KING_AND_TEN, standard_order=standard)
    to_play(state, "C")
    play(state, "KH", "10H", "7D", "7S")
    assert state.tricks.done[0].winner == winner


# --- three first cards -------------------------------------------------------------------------------

THREE_FIRST = deck_for(
    0,
    first={1: "7S 8S 9S", 2: "7C 8C 9C", 3: "7D 8D 9D", 0: "KH QH JH"},
    second={1: "AH 7H", 2: "10C JC", 3: "10D JD", 0: "10S JS"},
)
SEVENS_AND_EIGHTS = deck_for(0, first={1: "7S 8S 7C"})


def test_three_first_cards_deals_three_each_then_two():
    state = game(THREE_FIRST, three_first_cards=True)
    assert hand(state, 2) == {"7C", "8C", "9C"}
    name_trump(state, "S")
    assert hand(state, 1) == {"7S", "8S", "9S", "AH", "7H"}
    assert hand(state, 0) == {"KH", "QH", "JH", "10S", "JS"}


def test_without_three_first_cards_there_is_no_next_blind_or_new_deal():
    state = game(THREE_FIRST)
    assert hand(state, 1) == {"7S", "8S"}
    assert state.why_not(1, Move.trump("next")) == '"Next" is only played with three first cards.'
    assert state.why_not(1, Move.trump("blind")) == "Blind trumps are only played with three first cards."
    assert state.why_not(1, Move("newdeal")) == "A new deal may only be demanded with three first cards."


def test_blind_is_chosen_before_the_trump_maker_sees_any_card():
    state = game(THREE_FIRST, three_first_cards=True)
    view = state.view(1)
    assert view["phase"] == "blind" and view["hand"] is None and view["hand_hidden"]
    assert "7S" not in str(view)
    assert hand(state, 2) == {"7C", "8C", "9C"}  # the others see their own cards
    assert set(state.legal_moves(1)) == {Move("pass"), Move.trump("blind")}
    assert (
        state.why_not(1, Move.trump("S"))
        == 'Before naming trumps, choose blind (trump "blind") or look at your cards (pass).'
    )
    state.apply(1, Move("pass"))
    assert hand(state, 1) == {"7S", "8S", "9S"}
    assert state.why_not(1, Move.trump("blind")) == "Blind trumps are chosen before looking at your cards."


def test_after_blind_there_is_no_next_and_no_new_deal_and_the_cards_stay_hidden():
    state = game(SEVENS_AND_EIGHTS, three_first_cards=True)
    state.apply(1, Move.trump("blind"))
    assert state.view(1)["hand"] is None and state.phase == "trump"
    assert state.why_not(1, Move.trump("next")) == "With blind trumps there is no next."
    assert state.why_not(1, Move("newdeal")) == "With blind trumps there is no new deal."
    assert {m.value for m in state.legal_moves(1)} == {"C", "D", "H", "S"}
    assert state.why_not(1, Move.trump("blind")) == "You chose blind: now name the suit."
    state.apply(1, Move.trump("H"))
    assert len(state.view(1)["hand"]) == 5 and state.view(None)["blind"]


@pytest.mark.parametrize("suit, off", [("H", 20), ("S", 10)])
def test_blind_doubles_all_scores_for_that_deal_on_top_of_hearts(suit, off):
    state = game(THREE_FIRST, three_first_cards=True)
    state.apply(1, Move.trump("blind"))
    state.apply(1, Move.trump(suit))
    exchange_nothing(state)
    answer_stay(state, drops=[2, 3, 0])
    assert state.scores == [20, 20 - off, 20, 20]


def test_blind_doubles_the_penalty_for_no_trick():
    state = game(JACK_AND_ACE, three_first_cards=True)
    state.apply(1, Move.trump("blind"))
    state.apply(1, Move.trump("S"))
    while not (state.deal_no == 2):
        seat = state.to_move
        state.apply(seat, Move("stay") if state.phase == "stay" else state.rules.timeout_move(state.view(seat)))
    won, changes = state.last_hand["tricks_won"], state.last_hand["changes"]
    assert changes == [-2 * w if w else 10 for w in won]


def test_next_turns_up_the_fourth_card_which_names_trumps_and_stays_in_hand():
    state = game(THREE_FIRST, three_first_cards=True)
    state.apply(1, Move("pass"))
    state.apply(1, Move.trump("next"))
    assert state.trump == "H"
    assert state.view(None)["turned_up"] == "AH"
    assert "AH" in hand(state, 1) and len(hand(state, 1)) == 5


def test_only_sevens_and_eights_may_demand_a_new_deal_by_the_same_dealer():
    state = game(SEVENS_AND_EIGHTS, THREE_FIRST, three_first_cards=True)
    state.apply(1, Move("pass"))
    assert state.view(1)["newdeal_allowed"]
    state.apply(1, Move("newdeal"))
    assert state.dealer == 0 and state.deal_no == 1 and state.hand_number == 1
    assert state.phase == "blind"
    state.apply(1, Move("pass"))
    assert hand(state, 1) == {"7S", "8S", "9S"}  # the second deck: a new shuffle


def test_a_new_deal_is_refused_with_any_card_above_eight():
    state = game(THREE_FIRST, three_first_cards=True)
    state.apply(1, Move("pass"))
    assert (
        state.why_not(1, Move("newdeal"))
        == "You may demand a new deal only when your three first cards are all 7s and 8s."
    )


def test_a_new_deal_is_not_counted_as_one_of_the_eight():
    state = game(SEVENS_AND_EIGHTS, three_first_cards=True)
    state.apply(1, Move("pass"))
    state.apply(1, Move("newdeal"))
    for _ in range(8):
        walkover_deal(state, "S")
    assert state.deal_no == 9 and state.hand_number == 9
    assert state.trump == "H" and state.phase == "exchange"  # from the ninth deal: no choice at all, no blind


# --- drop out first ----------------------------------------------------------------------------------


def test_drop_out_first_decides_before_exchanging_and_only_those_in_exchange():
    state = game(KING_AND_TEN, drop_out_first=True)
    name_trump(state, "C")
    assert state.phase == "stay" and state.to_move == 2
    answer_stay(state, drops=[2])
    assert state.phase == "exchange"
    seen = []
    while state.phase == "exchange":
        seen.append(state.to_move)
        state.apply(state.to_move, Move.throw(()))
    assert seen == [1, 3, 0] and state.phase == "play"
    assert state.view(None)["seats"][2]["exchanged"] is None


def test_drop_out_first_with_all_others_out_nobody_exchanges():
    state = game(KING_AND_TEN, drop_out_first=True)
    name_trump(state, "C")
    answer_stay(state, drops=[2, 3, 0])
    assert state.last_hand["walkover"] and state.scores == [20, 15, 20, 20]
    assert state.deal_no == 2


def test_without_drop_out_first_everyone_exchanges_before_deciding():
    state = game(KING_AND_TEN)
    name_trump(state, "C")
    assert state.phase == "exchange"


# --- clubs instead of diamonds -----------------------------------------------------------------------


def test_clubs_instead_of_diamonds_force_everyone_to_stay_in():
    state = game(KING_AND_TEN, clubs_force_stay=True)
    name_trump(state, "C")
    exchange_nothing(state)
    assert state.phase == "play" and state.status == ["in"] * 4
    assert state.why_not(2, Move("drop")) == "With clubs trumps everyone stays in."


def test_clubs_instead_of_diamonds_lets_diamonds_players_drop():
    state = game(KING_AND_TEN, clubs_force_stay=True)
    name_trump(state, "D")
    exchange_nothing(state)
    assert state.phase == "stay" and state.why_not(2, Move("drop")) is None


def test_without_the_clubs_variant_clubs_do_not_force_anyone():
    state = game(KING_AND_TEN)
    name_trump(state, "C")
    exchange_nothing(state)
    assert state.phase == "stay"


# --- at least two players ----------------------------------------------------------------------------


def test_at_least_two_players_the_dealer_must_stay_if_all_others_drop():
    state = game(KING_AND_TEN, at_least_two=True)
    to_play(state, "C", drops=[2, 3, 0])
    assert state.status == ["in", "in", "out", "out"] and state.forced[0]
    assert state.tricks.seats == [1, 0]


def test_at_least_two_players_dealer_asked_and_may_drop_when_seat_three_stays():
    state = game(KING_AND_TEN, at_least_two=True)
    name_trump(state, "C")
    exchange_nothing(state)
    state.apply(2, Move("drop"))
    state.apply(3, Move("stay"))
    assert state.to_move == 0 and state.why_not(0, Move("drop")) is None


def test_without_at_least_two_players_all_others_may_drop():
    state = game(KING_AND_TEN)
    name_trump(state, "C")
    exchange_nothing(state)
    answer_stay(state, drops=[2, 3, 0])
    assert state.last_hand["walkover"]


# --- no dropping twice in a row, nor at 5 or less ----------------------------------------------------


def test_no_dropping_out_twice_in_a_row():
    state = game(KING_AND_TEN, no_drop_twice=True)
    walkover_deal(state, "C")  # seats 2, 3 and 0 drop out of deal 1
    name_trump(state, "S")  # deal 2: dealer 1, trump maker 2
    exchange_nothing(state)
    assert state.why_not(3, Move("drop")) == "You dropped out last deal: you may not drop out twice in a row."
    assert state.phase == "stay" and state.to_move == 1  # seats 3 and 0 stay without being asked
    assert state.status[3] == "in" and state.status[0] == "in"


def test_a_forced_stay_counts_as_staying():
    state = game(KING_AND_TEN, no_drop_twice=True)
    walkover_deal(state, "C")
    name_trump(state, "S")
    exchange_nothing(state)
    state.apply(1, Move("drop"))
    while state.deal_no == 2:  # play deal 2 out; seats 3 and 0 were forced in
        seat = state.to_move
        state.apply(seat, state.rules.timeout_move(state.view(seat)))
    name_trump(state, "S")  # deal 3: dealer 2, trump maker 3; asked: 0, 1, 2
    exchange_nothing(state)
    assert state.to_move == 0 and state.why_not(0, Move("drop")) is None
    assert state.why_not(1, Move("drop")) == "You dropped out last deal: you may not drop out twice in a row."


def test_no_dropping_out_at_five_or_less():
    state = game(KING_AND_TEN, no_drop_twice=True)
    state.scores = [20, 20, 5, 6]  # as if earlier deals had brought seat 2 to 5
    name_trump(state, "S")
    exchange_nothing(state)
    assert state.why_not(2, Move("drop")) == "With 5 points or less you may not drop out."
    assert state.to_move == 3 and state.status[2] == "in" and state.forced[2]
    assert state.why_not(3, Move("drop")) is None


def test_without_the_variant_a_player_may_drop_twice_and_at_five():
    state = game(KING_AND_TEN)
    walkover_deal(state, "C")
    state.scores[3] = 5
    name_trump(state, "S")
    exchange_nothing(state)
    assert state.to_move == 3 and state.why_not(3, Move("drop")) is None


# --- no endgame --------------------------------------------------------------------------------------


def test_no_endgame_keeps_choosing_trumps_and_dropping_after_eight_deals():
    state = game(no_endgame=True)
    for _ in range(8):
        walkover_deal(state, "S")
    assert state.deal_no == 9 and not state.view(None)["endgame"]
    assert state.phase == "trump"
    name_trump(state, "S")
    exchange_nothing(state)
    assert state.phase == "stay" and state.why_not(state.to_move, Move("drop")) is None


# --- variants together -------------------------------------------------------------------------------


def test_drop_out_first_with_at_least_two_the_dealer_stays_and_only_the_two_in_exchange():
    state = game(KING_AND_TEN, drop_out_first=True, at_least_two=True)
    name_trump(state, "C")
    state.apply(2, Move("drop"))
    state.apply(3, Move("drop"))
    assert state.status == ["in", "in", "out", "out"] and state.forced[0]  # the dealer was not asked
    seen = []
    while state.phase == "exchange":
        seen.append(state.to_move)
        state.apply(state.to_move, Move.throw(()))
    assert seen == [1, 0] and state.tricks.seats == [1, 0]


def test_clubs_instead_of_diamonds_in_the_endgame_hearts_are_trumps_and_nobody_drops():
    state = game(clubs_force_stay=True)
    for _ in range(8):
        walkover_deal(state, "S")
    assert state.deal_no == 9 and state.trump == "H" and state.phase == "exchange"
    exchange_nothing(state)
    assert state.phase == "play" and state.status == ["in"] * 4
    assert state.why_not(2, Move("drop")) == "After eight deals nobody may drop out."


def test_drop_out_first_in_the_endgame_nobody_is_asked_and_everyone_exchanges():
    state = game(drop_out_first=True)
    for _ in range(8):
        walkover_deal(state, "S")
    assert state.deal_no == 9 and state.phase == "exchange" and state.status == ["in"] * 4
    exchange_nothing(state)
    assert state.phase == "play"


def test_next_turning_up_a_diamond_keeps_everyone_in():
    deck = deck_for(0, first={1: "7S 8S 9S"}, second={1: "AD 7H"})
    state = game(deck, three_first_cards=True)
    state.apply(1, Move("pass"))
    state.apply(1, Move.trump("next"))
    assert state.trump == "D" and state.view(None)["turned_up"] == "AD"
    exchange_nothing(state)
    assert state.phase == "play" and state.status == ["in"] * 4


def test_blind_clubs_with_the_clubs_variant_keeps_everyone_in_and_doubles():
    state = game(THREE_FIRST, three_first_cards=True, clubs_force_stay=True)
    state.apply(1, Move.trump("blind"))
    state.apply(1, Move.trump("C"))
    exchange_nothing(state)
    assert state.phase == "play" and state.status == ["in"] * 4
    while state.deal_no == 1:
        seat = state.to_move
        state.apply(seat, state.rules.timeout_move(state.view(seat)))
    last = state.last_hand
    assert last["multiplier"] == 2 and last["changes"] == [-2 * w if w else 10 for w in last["tricks_won"]]
