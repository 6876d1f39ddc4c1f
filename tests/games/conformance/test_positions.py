"""Every rule set's policies read one Position type (fairdeal.core.games.base.Position), made by two makers: from
the seat's view (Position.of_view: the general path, and all a bot has at a table whose server keeps no deal) and
from the state (Position.of_state: the fast path the audit replays with). At every decision of whole seeded games
of every table the conformance suite plays, the two make the same position, fact by fact; reading every fact
changes neither the state nor the view; and a policy run on the position made from the view alone (no state at
hand) chooses what the state's answer is."""

import copy

import pytest

from fairdeal.core.games.base import Position
from tests.games.conformance.play import all_views, play
from tests.games.conformance.tables import TABLE_IDS, TABLES
from tests.games.randomness import PickRng

POSITIONS_SEEN: dict[str, int] = {}


def _positions_agree(rules, state):
    if state.is_over:
        return
    seat = state.to_move
    before = all_views(state)
    view, lazy = state.view(seat), state.policy_view(seat)
    kept = copy.deepcopy(view)
    maker = rules.position
    assert maker is not Position and issubclass(maker, Position), "each rule set declares its own Position"
    from_state, from_view, from_lazy = maker.of_state(state, seat), maker.of_view(view), maker.of_view(lazy)
    assert isinstance(from_state, maker) and isinstance(from_view, maker)
    assert from_state.facts() == from_view.facts() == from_lazy.facts(), (from_state, from_view)
    assert from_state == from_view
    assert all_views(state) == before and view == kept, "reading a position changed the state or the view"
    # the bot and the timeout from the view alone: what the state answers
    assert rules.bot_choice(maker.of_view(kept), PickRng(0)) == state.bot_move(seat, PickRng(0))
    assert rules.timeout_choice(maker.of_view(kept)) == state.timeout_move(seat)
    POSITIONS_SEEN[rules.id] = POSITIONS_SEEN.get(rules.id, 0) + 1


@pytest.mark.parametrize("table", TABLES, ids=TABLE_IDS)
def test_the_state_and_the_view_make_the_same_position_at_every_decision(table):
    for seed in range(2):
        game = play(table, seed, 10_000, each=_positions_agree)
        assert game.state.is_over  # whole games: every kind of decision met
    assert POSITIONS_SEEN[table[0]] > 50


@pytest.mark.parametrize("table", TABLES, ids=TABLE_IDS)
def test_positions_that_differ_in_a_fact_are_not_equal(table):
    """The comparison can fail: a view with one card fewer in the hand makes another position."""
    checked = []

    def spoil(rules, state):
        if state.is_over or checked:
            return
        seat = state.to_move
        view = state.view(seat)
        if not view.get("hand"):
            return
        other = dict(view, hand=view["hand"][1:])
        assert rules.position.of_state(state, seat) != rules.position.of_view(other)
        assert rules.position.of_state(state, seat) != object()
        checked.append(seat)

    play(table, 0, 200, each=spoil)
    assert checked
