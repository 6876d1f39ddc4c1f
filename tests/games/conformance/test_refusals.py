"""Refusals change nothing: at a random position of any rule set, table size and settings, every legal move is
allowed (why_not says None), and every other move is refused with the sentence why_not gives — a move the rules do
not allow now, a move out of turn, a seat that is not at the table, something that is not a Move — and leaves
every view, the turn, the moves of the seat to move and the deals as they were. `apply` takes a quick path for a
plainly legal move of the seat to move (base.GameState.apply); this is where it is shown to agree with why_not."""

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairdeal.core.games.base import GameError, MalformedMove, NoSuchSeat
from tests.games.conformance.play import PACKS, candidate_moves, play, seats, snapshot
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
