"""The 120s engine against python-chess, like with like, every figure measured in the same run.

For each available 120s rule set (games from seeded random deals):
  - engine random play: every move chosen at random from `legal_moves(seat)` by a seeded random.Random and
    applied with `apply`, which checks its legality again; compared with (b) python-chess random play;
  - engine validated replay: the same kind of random games, recorded first (not timed), then replayed from their
    move logs with `apply`, which checks every move's legality; compared with (a) python-chess validated replay.
The two python-chess baselines are defined once, in bench/chess_baseline.py (also used by bench_audit.py).
Target: at least 3x python-chess's moves per second, for each comparison. The script says plainly which are met.

Random bidding rarely makes its bids, so a random 120s game can wander below zero for a long time: a game is
abandoned after MAX_MOVES moves; its moves count, and games/s counts finished games only. For whole games the
bench also plays bot games (every seat the table's bot, its view built for every move, each move
legality-checked by apply), which finish: shown for information, not part of the target.

Timing (bench/measure.py): CPU time (process_time) of each round; ROUNDS rounds, the rounds of all the
measurements alternating so that other processes on the machine slow them alike; every figure is the median of
its rounds with their spread, every ratio the median of the per-round ratios (engine round i against the
python-chess round i beside it) with its spread; the load average is printed before and after.

Run: python bench/bench_engine.py   (about 1 minute; exits 0 whether or not a target is met)
"""

from __future__ import annotations

import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import chess_baseline as cb  # noqa: E402
import measure as ms  # noqa: E402

from fairdeal.core.games import available, make_rules  # noqa: E402

TARGET = 3.0
ROUNDS = 7
GAMES = 24  # random games per table and round (the same deals and choices every round)
BOT_GAMES = 60  # bot games per table and round
MAX_MOVES = 3000
TABLES = [("120s-auction", 4), ("120s-house", 4), ("120s-house", 3), ("120s-house", 2), ("120s-traditional", 4)]


class SeededChance:
    """Random deals from a seeded random.Random (a bench needs no fairness protocol)."""

    def __init__(self, seed: int):
        self.r = random.Random(seed)

    def first_dealer(self, players):
        return self.r.randrange(players)

    def deck(self, hand, pack):
        d = list(pack)
        self.r.shuffle(d)
        return d

    def reshuffle(self, hand, round, cards):
        c = list(cards)
        self.r.shuffle(c)
        return c


Log = list[tuple[int, object]]


def engine_random_play(rules, seeds: range, record: list[tuple[int, Log]] | None = None) -> tuple[float, int, int]:
    """Random legal games, one per seed (its deal and its choices); with `record`, each game's (seed, moves) is
    appended to it. Returns (CPU seconds, moves, games abandoned at MAX_MOVES)."""
    moves = finished = abandoned = 0
    start = ms.cpu()
    for seed in seeds:
        g = rules.new_game(SeededChance(seed))
        rng = random.Random(seed)
        log: Log | None = [] if record is not None else None
        n = 0
        while not g.is_over and n < MAX_MOVES:
            s = g.to_move
            move = rng.choice(g.legal_moves(s))
            g.apply(s, move)  # checks the move's legality again, as a replay does
            if log is not None:
                log.append((s, move))
            n += 1
        moves += n
        if g.is_over:
            finished += 1
        else:
            abandoned += 1
        if record is not None:
            record.append((seed, log))
    return ms.cpu() - start, moves, abandoned


def engine_replay(rules, logs: list[tuple[int, Log]]) -> tuple[float, int]:
    """Validated replay: the recorded games dealt again and every move applied with `apply`, which checks it.
    Returns (CPU seconds, moves)."""
    moves = finished = 0
    start = ms.cpu()
    for seed, log in logs:
        g = rules.new_game(SeededChance(seed))
        for s, move in log:
            g.apply(s, move)
        moves += len(log)
        finished += g.is_over
    return ms.cpu() - start, moves


class SeededRng:
    def __init__(self, seed: int):
        self.r = random.Random(seed)

    def randbelow(self, n: int) -> int:
        return self.r.randrange(n)


def bot_play(rules, games: int) -> tuple[float, int]:
    """Whole games with every seat played by the bot (its view built for every move, as the service does)."""
    moves = 0
    start = ms.cpu()
    for seed in range(games):
        g = rules.new_game(SeededChance(seed))
        rng = SeededRng(seed)
        while not g.is_over:
            s = g.to_move
            g.apply(s, rules.bot_move(g.view(s), rng))
            moves += 1
    return ms.cpu() - start, moves


class Table:
    """One table's three measurements, one round of each per `measure`."""

    def __init__(self, rule_set: str, players: int):
        self.name = f"{rule_set} ({players} players)"
        self.rules = make_rules(rule_set, {}, players)
        self.logs: list[tuple[int, Log]] = []
        _, moves, self.abandoned = engine_random_play(self.rules, range(GAMES), self.logs)  # setup, not timed
        self.random_play = ms.Series("engine random play", moves)
        self.replay = ms.Series("engine validated replay", moves)
        self.bots = ms.Series("bots on every seat")

    def measure(self) -> None:
        self.random_play.add(engine_random_play(self.rules, range(GAMES))[0])
        self.replay.add(engine_replay(self.rules, self.logs)[0])
        seconds, moves = bot_play(self.rules, BOT_GAMES)
        self.bots.add(seconds, moves)


def main() -> int:
    if not cb.installed():
        print("python-chess is not installed (pip install '.[dev]'): no baseline, nothing measured")
        return 1
    offered = set(available())
    tables = [Table(rs, n) for rs, n in TABLES if rs in offered]
    if not tables:
        print("no 120s rule set is available")
        return 1
    print(f"{ms.load()} before the run")
    chess = cb.Baselines()
    print(
        f"setup (not timed): {len(chess.logs)} random chess games, {chess.moves} moves (at most "
        f"{cb.MAX_PLIES} plies); {GAMES} random games per 120s table; {ROUNDS} alternating rounds, CPU time"
    )
    # Each table's rounds sit between the chess rounds they are compared with: one round of everything in turn.
    ms.alternate(ROUNDS, [chess.measure] + [table.measure for table in tables])
    print(f"{ms.load()} after the run")

    print()
    print(ms.header() + "   (moves per CPU second)")
    print(ms.row(cb.REPLAY, chess.replay))
    print(ms.row(cb.RANDOM_PLAY, chess.random_play))
    verdicts: list[tuple[str, bool]] = []
    for table in tables:
        print()
        print(table.name + f"  ({table.abandoned} of {GAMES} random games abandoned at {MAX_MOVES} moves)")
        print(ms.row("  engine random play", table.random_play))
        print(ms.row("  engine validated replay", table.replay))
        print(ms.row("  bots on every seat (information)", table.bots))
        verdicts.append(
            ms.verdict(
                f"{table.name}: engine random play",
                table.random_play.ratio_to(chess.random_play),
                cb.RANDOM_PLAY,
                TARGET,
            )
        )
        verdicts.append(
            ms.verdict(f"{table.name}: engine validated replay", table.replay.ratio_to(chess.replay), cb.REPLAY, TARGET)
        )
    print()
    for line, _ in verdicts:
        print(line)
    met = sum(ok for _, ok in verdicts)
    print(f"{met} of {len(verdicts)} targets met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
