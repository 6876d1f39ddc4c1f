"""Bot and timeout moves are always legal and are pure functions of a seat's view (and, for a bot, its Rng): at
random positions of any rule set, table size and settings, every bot move (whatever its Rng picks), the timeout
move and the table's suggestion pass why_not, asked again on a copy of the view they answer the same, and they
leave the view as it was (the verifier recomputes them from the view alone)."""
import copy

from hypothesis import given, settings, strategies as st

from tests.games.conformance.play import play, policy_moves
from tests.games.conformance.tables import any_table


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
