"""The python-chess baselines of bench_engine.py and bench_audit.py, one definition for both, each in its fairest
form, measured in the caller's own run (never a stored figure).

(a) validated replay: random games made first (not timed) and kept as python-chess `Move` objects (parsed before
    the clock starts, as the engine's replay gets its stored move objects); each is checked with
    `Board.is_legal` (a replay refuses an illegal move) and played with `Board.push`; whether the game is over is
    asked once, after its last move.
(b) random play, the lean loop: `list(board.legal_moves)` generates the moves, a seeded random.Random chooses
    one, `Board.push` plays it (no re-parse, no second legality check of a move python-chess just generated).
    The game is over when no move is legal (checkmate or stalemate: the generation already tells) or after
    MAX_PLIES plies; `outcome()` is not asked every move (it generates the moves again). Draws python-chess
    would only find through `outcome()` (insufficient material, repetition, the 75-move rule) are not claimed:
    those games play on to the ply cap, which costs the baseline nothing extra per move.

(a) replays exactly the games (b) plays with the same seed, so the two differ only by move generation.
Compare like with like: a replay of stored moves (the audit, the engine replaying move logs) with (a); play that
generates its moves (the engine choosing random legal moves) with (b).

Timing (bench/measure.py): CPU time, each call one round; the caller alternates rounds with its own work.
"""

from __future__ import annotations

import random

from measure import Series, cpu

MAX_PLIES = 300
REPLAY = "python-chess validated replay (a)"
RANDOM_PLAY = "python-chess random play (b)"


def installed() -> bool:
    try:
        import chess  # noqa: F401
    except ImportError:
        return False
    return True


def random_play(games: int, seed: int = 1, record: list[list] | None = None) -> tuple[float, int]:
    """(b): `games` random games; returns (CPU seconds, moves). With `record`, each game's Move list is appended
    to it (for (a))."""
    import chess

    rng = random.Random(seed)
    moves = 0
    start = cpu()
    for _ in range(games):
        board = chess.Board()
        push, choice = board.push, rng.choice
        log: list | None = [] if record is not None else None
        for _ply in range(MAX_PLIES):
            legal = list(board.legal_moves)
            if not legal:
                break
            move = choice(legal)
            push(move)
            if log is not None:
                log.append(move)
        moves += board.ply()
        if record is not None:
            record.append(log)
    return cpu() - start, moves


def replay(games: list[list]) -> tuple[float, int]:
    """(a): replay stored Move objects, each checked with is_legal (refused if illegal) and played with push.
    Returns (CPU seconds, moves)."""
    import chess

    moves = 0
    start = cpu()
    for log in games:
        board = chess.Board()
        is_legal, push = board.is_legal, board.push
        for move in log:
            if not is_legal(move):
                raise ValueError(f"illegal move {move.uci()}")
            push(move)
        board.is_game_over()
        moves += len(log)
    return cpu() - start, moves


class Baselines:
    """Both baselines over one set of games; call `measure` once a round, between the caller's own rounds."""

    def __init__(self, games: int = 100, seed: int = 1):
        self.games, self.seed = games, seed
        self.logs: list[list] = []
        random_play(games, seed, self.logs)
        self.replay = Series(REPLAY, self.moves)
        self.random_play = Series(RANDOM_PLAY, self.moves)

    @property
    def moves(self) -> int:
        return sum(len(log) for log in self.logs)

    def measure(self) -> None:
        self.replay.add(replay(self.logs)[0])
        self.random_play.add(random_play(self.games, self.seed)[0])
