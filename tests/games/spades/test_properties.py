"""Invariants of Spades over seeded random games: 13 tricks a hand and the end as the rule says, replay keeps the
hand history, bots and timeouts never bid nil, four bots finish. Cards kept, hidden cards, refusals and the
policies' legality are every rule set's: tests/games/conformance."""

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from fairdeal.core.games import make_rules
from fairdeal.core.games.base import Move
from fairdeal.core.games.spades import game_ends
from tests.games.randomness import PickRng, RandomChance

RULES = make_rules("spades")
SEEDS = st.integers(min_value=0, max_value=2**32)
FAST = settings(max_examples=30, deadline=None)


def choose(game, rnd):
    """A random legal move, the bot's or the timeout's."""
    seat = game.to_move
    view = game.view(seat)
    kind = rnd.randrange(4)
    if kind == 0:
        return seat, RULES.bot_move(view, PickRng(rnd.randrange(4)))
    if kind == 1:
        return seat, RULES.timeout_move(view)
    moves = game.legal_moves(seat)
    return seat, moves[rnd.randrange(len(moves))]


def run(seed, rnd, max_moves, check=lambda game: None):
    game = RULES.new_game(RandomChance(seed))
    log = []
    while not game.is_over and len(log) < max_moves:
        check(game)
        seat, move = choose(game, rnd)
        game.apply(seat, move)
        log.append((seat, move))
    check(game)
    return game, log


@FAST
@given(SEEDS, st.randoms(use_true_random=False))
def test_every_hand_has_13_tricks_and_the_end_follows_the_rule(seed, rnd):
    game, _ = run(seed, rnd, 400)
    scores = [0, 0]
    tie = False
    for summary in game.history:
        assert sum(summary["tricks_taken"]) == 13
        assert [t["points"] for t in summary["teams"]] == [summary["scores"][i] - scores[i] for i in (0, 1)]
        scores = summary["scores"]
        last = summary is game.history[-1]
        assert game_ends(scores, tie) == (last and game.is_over)
        tie = tie or (scores[0] == scores[1] and any(s >= 500 or s <= -200 for s in scores))
    if game.is_over:
        best = max(game.result["scores"])
        assert game.result["winners"] == [[0, 2], [1, 3]][game.result["scores"].index(best)]


@FAST
@given(SEEDS, st.randoms(use_true_random=False))
def test_replaying_the_log_gives_the_live_state(seed, rnd):
    live, log = run(seed, rnd, 200)
    again = RULES.new_game(RandomChance(seed))
    for seat, move in log:
        again.apply(seat, Move.from_json(move.to_json()))
    assert [again.view(s) for s in (None, 0, 1, 2, 3)] == [live.view(s) for s in (None, 0, 1, 2, 3)]
    assert again.history == live.history and again.result == live.result


@FAST
@given(SEEDS, st.randoms(use_true_random=False))
def test_bots_and_timeouts_are_always_legal(seed, rnd):
    def check(game):
        if game.is_over:
            return
        seat = game.to_move
        view = game.view(seat)
        for move in (RULES.timeout_move(view), RULES.bot_move(view, PickRng(0)), RULES.bot_move(view, PickRng(3))):
            assert game.why_not(seat, move) is None
            assert not (move.kind == "bid" and move.value == 0)  # never nil
        # pure functions of the view (and the rng): asked again, on a copy, they answer the same
        assert RULES.bot_move(copy.deepcopy(view), PickRng(3)) == RULES.bot_move(view, PickRng(3))
        assert RULES.timeout_move(copy.deepcopy(view)) == RULES.timeout_move(view)

    run(seed, rnd, 150, check)


@settings(max_examples=8, deadline=None)
@given(SEEDS)
def test_four_bots_finish_a_game(seed):
    game = RULES.new_game(RandomChance(seed))
    moves = 0
    while not game.is_over:
        seat = game.to_move
        game.apply(seat, RULES.bot_move(game.view(seat), PickRng(moves % 3)))
        moves += 1
        assert moves < 56 * 60
    assert game.result["winners"] in ([0, 2], [1, 3])
    assert max(game.result["scores"]) >= 500 or min(game.result["scores"]) <= -200
