"""Every rule set at every table size (and its main settings variants), several seeded games each, played to the
end by a mix of random legal moves, bots and timeouts: every card of the pack is somewhere exactly once after every
move, only the seat to move has moves, the bots', timeout's and suggested moves are legal, the end has a result,
and replaying the move list on a fresh state gives the same game."""

import pytest

from fairdeal.core.games.base import GameOver, Move
from tests.games.conformance.play import PACKS, all_views, new_game, play, policy_moves, seats, snapshot
from tests.games.conformance.tables import TABLE_IDS, TABLES

GAMES = 3  # seeded games per table
MAX_MOVES = 6000  # a 120s game by this mix of moves takes some 100 to 2 000


def check_position(rules, state):
    if state.is_over:
        return
    cards = state.all_cards()
    assert len(cards) == len(set(cards)) and frozenset(cards) in PACKS, "a card is lost, doubled or foreign"
    seat = state.to_move
    legal = state.legal_moves(seat)
    assert legal, "the seat to move has a move"
    for other in seats(state)[1:]:
        if other != seat:
            assert state.legal_moves(other) == []
    view = state.view(seat)
    for name, move in policy_moves(rules, view):
        if move is None:
            continue
        assert state.why_not(seat, move) is None, (name, move, state.why_not(seat, move))
        assert move.kind == "throw" or move in legal, (name, move)


@pytest.mark.parametrize("table", TABLES, ids=TABLE_IDS)
def test_seeded_games_play_to_the_end_with_every_card_kept_and_every_policy_move_legal(table):
    for seed in range(GAMES):
        rules, state, log = play(table, seed, MAX_MOVES, check_position)
        assert state.is_over, f"seed {seed}: not over after {len(log)} moves"
        assert state.to_move is None and state.legal_moves(0) == []
        result = state.result
        sides = rules.sides.to_json()
        assert len(result["scores"]) == (len(sides) if sides else rules.players)
        assert result["winners"] and set(result["winners"]) <= set(range(rules.players))
        assert all(view["result"] == result for view in all_views(state))


@pytest.mark.parametrize("table", TABLES, ids=TABLE_IDS)
def test_after_the_end_every_move_is_refused_and_changes_nothing(table):
    rules, state, log = play(table, 0, MAX_MOVES)
    assert state.is_over
    before = snapshot(state)
    for seat in seats(state)[1:]:
        for move in (log[-1][1], Move.pass_(), Move.bid(20)):
            with pytest.raises(GameOver):
                state.apply(seat, move)
            assert state.why_not(seat, move) == "The game is over."
    assert snapshot(state) == before


@pytest.mark.parametrize("table", TABLES, ids=TABLE_IDS)
def test_replaying_a_finished_game_gives_the_live_game(table):
    _, live, log = play(table, 1, MAX_MOVES)
    _, again = new_game(table, 1)
    for seat, move in log:
        again.apply(seat, Move.from_json(move.to_json()))
    assert all_views(again) == all_views(live)
    assert again.result == live.result and again.deals == live.deals
