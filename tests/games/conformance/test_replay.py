"""Replay equals live: the moves of a game, read back from their JSON form and applied to a fresh state from the
same seed, give the same views for every seat and the spectator, the same result and the same deals (any rule
set, table size and settings; the game stopped anywhere)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from fairdeal.core.games.base import Move
from tests.games.conformance.play import all_views, new_game, play
from tests.games.conformance.tables import any_table


@settings(max_examples=60, deadline=None)
@given(any_table(), st.integers(0, 2**32 - 1), st.integers(0, 600))
def test_replaying_the_moves_on_a_fresh_state_gives_the_live_game(table, seed, moves):
    _, live, log = play(table, seed, moves)
    _, again = new_game(table, seed)
    for seat, move in log:
        again.apply(seat, Move.from_json(move.to_json()))
    assert all_views(again) == all_views(live)
    assert again.result == live.result and again.deals == live.deals and again.to_move == live.to_move
