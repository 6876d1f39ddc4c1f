"""Refusals change nothing: at a random position of any rule set, table size and settings, every legal move is
allowed (why_not says None), and every other move is refused with the sentence why_not gives — a move the rules do
not allow now, a move out of turn, a seat that is not at the table, something that is not a Move — and leaves
every view, the turn, the moves of the seat to move and the deals as they were. `apply` takes a quick path for a
plainly legal move of the seat to move (base.GameState.apply, and 120s' OneTwentyState.apply for a card, a bid or
a throw); this is where it is shown to agree with why_not, and move by move with the general form it stands for."""

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairdeal.core.games.base import GameError, MalformedMove, NoSuchSeat
from tests.games.conformance.play import PACKS, candidate_moves, new_game, play, seats, snapshot
from tests.games.conformance.tables import any_table


def refused(state, seat, move, error=GameError):
    why = state.why_not(seat, move)
    assert isinstance(why, str) and why.endswith(".") and len(why) > 10, (seat, move, why)
    with pytest.raises(error) as raised:
        state.apply(seat, move)
    assert raised.value.message == why
    refusal = state.refusal(seat, move)  # what the service answers with: apply's error, its code and sentence
    assert type(refusal) is type(raised.value) and refusal.code == raised.value.code and refusal.message == why


@settings(max_examples=60, deadline=None)
@given(any_table(), st.integers(0, 2**32 - 1), st.integers(0, 400))
def test_every_legal_move_is_allowed_and_every_other_is_refused_changing_nothing(table, seed, moves):
    _, state, _ = play(table, seed, moves)
    if state.is_over:
        return  # the end's refusals: test_play_to_the_end
    rng = random.Random(seed)
    seat = state.to_move
    legal = state.legal_moves(seat)
    for move in legal:
        assert state.why_not(seat, move) is None and state.is_legal(seat, move) and state.refusal(seat, move) is None
    for move in rng.sample(legal, min(3, len(legal))):  # a legal move applies (on a copy) and keeps every card
        trial = copy.deepcopy(state)
        trial.apply(seat, move)
        cards = trial.all_cards()
        assert trial.is_over or len(cards) == len(set(cards)) and frozenset(cards) in PACKS
    before = snapshot(state)
    for move in candidate_moves(state, seat, rng):
        if state.why_not(seat, move) is None:
            assert move.kind == "throw" or move in legal, move  # why_not and legal_moves agree
            continue
        assert not state.is_legal(seat, move)
        refused(state, seat, move)
    for other in seats(state)[1:]:
        if other != seat:
            for move in legal[:2] + rng.sample(candidate_moves(state, other, rng), 4):
                refused(state, other, move)
    for bad in (-1, state.rules.players, True, "0", None, 1.0):
        refused(state, bad, legal[0], NoSuchSeat)
    for bad in (legal[0].to_json(), str(legal[0]), None):
        refused(state, seat, bad, MalformedMove)
    assert snapshot(state) == before


@settings(max_examples=25, deadline=None)
@given(any_table(), st.integers(0, 2**32 - 1), st.integers(0, 300))
def test_apply_does_what_its_general_form_does_move_by_move(table, seed, moves):
    """apply (a rule set's own, such as 120s' one step for a card, a bid or a throw, or GameState's) against
    GameState.apply_refused_first, the form it stands for, on two states of the same game: before each move of a
    played game, refused moves of every seat (a card not held, another seat's turn, the wrong kind of move) raise
    the same error with the same sentence from both; then the game's move is made on both; the two states stay
    alike throughout."""
    _, _, log = play(table, seed, moves)
    _, fast = new_game(table, seed)
    _, general = new_game(table, seed)
    rng = random.Random(seed)

    def outcome(apply, s, m):
        try:
            apply(s, m)
        except GameError as exc:
            return type(exc), exc.message
        return None

    for seat, move in log:
        for s in range(fast.rules.players):
            for m in rng.sample(candidate_moves(fast, s, rng), 3):
                if fast.why_not(s, m) is not None:
                    got = outcome(fast.apply, s, m)
                    assert got is not None and got == outcome(general.apply_refused_first, s, m), (s, m)
        assert outcome(fast.apply, seat, move) is None and outcome(general.apply_refused_first, seat, move) is None
        assert snapshot(fast) == snapshot(general)
    assert fast.result == general.result and fast.deals == general.deals
