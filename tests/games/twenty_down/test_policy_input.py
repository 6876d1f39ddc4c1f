"""The Twenty Down policies' one typed input (Seen) made from the state (the audit's fast path) is the one made
from the seat's view (the general path), for every seat at every decision of whole seeded games of each table the
conformance suite plays; and it is the state's copy, so a policy may change it without changing the game."""

import pytest

from fairdeal.core.games.twenty_down import Seen
from tests.games.conformance.play import all_views, play
from tests.games.conformance.tables import TABLE_IDS, TABLES

TWENTY_DOWN = [(t, i) for t, i in zip(TABLES, TABLE_IDS, strict=True) if t[0] == "twenty-down"]


def _inputs_agree(rules, state):
    for seat in range(rules.players):
        from_state, from_view = Seen.of_state(state, seat), Seen.of(state.view(seat))
        assert from_state == from_view, (seat, from_state, from_view)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("table", [t for t, _ in TWENTY_DOWN], ids=[i for _, i in TWENTY_DOWN])
def test_the_input_made_from_the_state_is_the_one_made_from_the_view(table, seed):
    game = play(table, seed, 10_000, each=_inputs_agree)
    assert game.state.is_over


def test_changing_the_input_made_from_the_state_changes_nothing_in_the_game():
    def spoil(rules, state):
        if state.is_over:
            return
        before = all_views(state)
        seen = Seen.of_state(state, state.to_move)
        seen.hand.clear()
        seen.plays.clear()
        assert all_views(state) == before

    play(TWENTY_DOWN[0][0], 0, 10_000, each=spoil)
