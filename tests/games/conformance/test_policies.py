"""Bot and timeout moves are always legal and are pure functions of a seat's view (and, for a bot, its Rng): at
random positions of any rule set, table size and settings, every bot move (whatever its Rng picks), the timeout
move and the table's suggestion pass why_not, asked again on a copy of the view they answer the same, and they
leave the view as it was (the verifier recomputes them from the view alone). And the state's own answers
(GameState.bot_move / timeout_move, where an engine keeps a fast path) are the view's at every decision."""

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.conformance.play import all_views, play, policy_moves
from tests.games.conformance.tables import TABLE_IDS, TABLES, any_table
from tests.games.randomness import PickRng, SeededRng


@settings(max_examples=60, deadline=None)
@given(any_table(), st.integers(0, 2**32 - 1), st.integers(0, 400))
def test_bot_timeout_and_suggested_moves_are_legal_pure_functions_of_the_view(table, seed, moves):
    rules, state, _ = play(table, seed, moves)
    if state.is_over:
        return
    seat = state.to_move
    view = state.view(seat)
    kept = copy.deepcopy(view)
    answers = policy_moves(rules, view)
    assert view == kept, "a policy changed the view it was given"
    assert policy_moves(rules, copy.deepcopy(view)) == answers
    for name, move in answers:
        if move is not None:
            assert state.why_not(seat, move) is None, (name, move, state.why_not(seat, move))


def _answers_from_the_state(state, seat):
    """policy_moves's bot and timeout answers, asked of the state (GameState.bot_move / timeout_move: an engine's
    fast path, or the base's general one)."""
    return [
        (f"bot rng {k}", state.bot_move(seat, rng))
        for k, rng in (("seeded", SeededRng(len(str(state.view(seat))))), ("first", PickRng(0)), ("last", PickRng(-1)))
    ] + [("timeout", state.timeout_move(seat))]


def _state_agrees_with_the_view(rules, state):
    if state.is_over:
        return
    seat = state.to_move
    before = all_views(state)
    from_state = _answers_from_the_state(state, seat)
    assert all_views(state) == before, "a policy asked of the state changed the state"
    from_view = policy_moves(rules, state.view(seat))[: len(from_state)]
    assert from_state == from_view, (state.view(seat), from_state, from_view)


@pytest.mark.parametrize("table", TABLES, ids=TABLE_IDS)
def test_the_state_answers_every_policy_decision_as_the_view_does(table):
    """At every decision of whole seeded games of every table, the state's bot and timeout moves (each engine's
    fast path, which the audit replays with) are the ones the seat's view gives."""
    for seed in range(2):
        play(table, seed, 10_000, each=_state_agrees_with_the_view)


@settings(max_examples=40, deadline=None)
@given(any_table(), st.integers(0, 2**32 - 1), st.integers(0, 400))
def test_the_state_answers_as_the_view_does_at_any_table(table, seed, moves):
    rules, state, _ = play(table, seed, moves)
    _state_agrees_with_the_view(rules, state)
