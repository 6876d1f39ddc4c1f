"""The two makers of the 120s policies' Position (bots.py) read the same facts: at every decision of whole seeded
games of every 120s table, the position made from the state's own objects (StatePosition, the audit's fast path)
equals the one made from the seat's view (ViewPosition, the general path), fact by fact for the phase; and reading
every fact changes neither the state nor the view. The conformance suite checks the moves chosen
(tests/games/conformance/test_policies.py); this checks what they are chosen from."""

import copy

import pytest

from fairdeal.core.games.base import GameState
from fairdeal.core.games.onetwenty.bots import Position, StatePosition, ViewPosition
from tests.games.conformance.play import all_views, play
from tests.games.conformance.tables import TABLE_IDS, TABLES
from tests.games.randomness import PickRng

TABLES_120 = [(t, i) for t, i in zip(TABLES, TABLE_IDS, strict=True) if t[0].startswith("120s")]
PHASES_SEEN: set[str] = set()


def _positions_agree(rules, state):
    if state.is_over:
        return
    seat = state.to_move
    before = all_views(state)
    view = state.view(seat)
    kept = copy.deepcopy(view)
    from_state, from_view = StatePosition(state, seat), ViewPosition(view)
    assert from_state.facts().keys() == {"phase", "seat", "trump", "bidder", *Position.PHASE_FACTS[state.phase]}
    assert from_state == from_view, (from_state, from_view)
    assert all_views(state) == before and view == kept, "reading a position changed the state or the view"
    PHASES_SEEN.add(state.phase)


@pytest.mark.parametrize("table", [t for t, _ in TABLES_120], ids=[i for _, i in TABLES_120])
def test_the_state_and_the_view_make_the_same_position_at_every_decision(table):
    for seed in range(2):
        play(table, seed, 10_000, each=_positions_agree)
    assert {"bidding", "trump", "throw", "play"} <= PHASES_SEEN


def test_positions_differing_in_one_fact_are_not_equal():
    rules, state, _ = play(("120s-house", 3, {}), 0, 0)
    seat = state.to_move
    view = state.view(seat)
    assert StatePosition(state, seat) == ViewPosition(view)
    other = dict(view, hand=view["hand"][1:])
    assert StatePosition(state, seat) != ViewPosition(other)
    assert StatePosition(state, seat) != object()


def _outcome(ask):
    try:
        return ask()
    except Exception as exc:  # the audit reports a policy that cannot run by its exception's text
        return type(exc), str(exc)


def _other_seats_fail_alike(rules, state):
    """A seat not to move, or no seat (only a tampered transcript asks for its bot or timeout move), gets the
    general path's answer or error, word for word (the audit's report names it): GameState's bot_move and
    timeout_move, the rule set's policy on the seat's view (which has an answer in some phases: naming the trump
    suit reads only the hand)."""
    for seat in [*range(rules.players), rules.players, -1, True, None]:
        if seat == state.to_move and seat.__class__ is int:
            continue
        general = (
            _outcome(lambda seat=seat: GameState.bot_move(state, seat, PickRng(0))),
            _outcome(lambda seat=seat: GameState.timeout_move(state, seat)),
        )
        fast = (
            _outcome(lambda seat=seat: state.bot_move(seat, PickRng(0))),
            _outcome(lambda seat=seat: state.timeout_move(seat)),
        )
        assert fast == general, (seat, fast, general)


@pytest.mark.parametrize("table", [t for t, _ in TABLES_120], ids=[i for _, i in TABLES_120])
def test_a_seat_not_to_move_gets_the_views_answer_or_error(table):
    play(table, 0, 400, each=_other_seats_fail_alike)
