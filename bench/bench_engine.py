"""The 120s engine against python-chess, like with like, every figure measured in the same run.

For each available 120s rule set, GAMES random games are made at set-up (not timed): every move chosen at random
from `legal_moves(seat)` by a seeded random.Random and made with `apply` (which checks it), every deck shuffled by a
seeded random.Random and kept. The timed rounds then measure, like with like:
  - engine random play: the same games played again the way python-chess's lean loop (b) plays: `legal_moves`
    lists every legal move, the seeded random.Random chooses one, `push` makes it (as (b) pushes the move
    python-chess just generated, without a second check); compared with (b);
  - engine validated replay: the recorded games replayed from their move logs with `apply`, which checks every
    move's legality (as (a) checks each with is_legal before its push); compared with (a).
In both the games are dealt the decks recorded at set-up: the rounds time the engine dealing a deck into hands,
not random.shuffle making the deck (a Chance's work, outside the engine; the real one is timed in
bench_shuffle.py and bench_audit.py), as python-chess's rounds have no chance event and get their moves parsed.
The two python-chess baselines are defined once, in bench/chess_baseline.py (also used by bench_audit.py).
Target: at least 3x python-chess's moves per second, for each comparison. The script says plainly which are met.

Random bidding rarely makes its bids, so a random 120s game can wander below zero for a long time: a game is
abandoned after MAX_MOVES moves; its moves count, and games/s counts finished games only. For whole games the
bench also plays bot games (every seat the table's bot, its view built for every move, each move
legality-checked by apply), which finish: shown for information, not part of the target.

Timing (bench/measure.py): CPU time (process_time) of each round; ROUNDS rounds, the rounds of all the
measurements alternating so that other processes on the machine slow them alike, and every engine round timed
right beside a round of its python-chess baseline (chess first, then the engine; the other way round the next
round), so that the two of a pair run under the same load; every figure is the median of its rounds with their
spread, every ratio the median of the per-round ratios (engine round i against the python-chess round beside it)
with its spread; the load average is printed before and after.

A process's layout moves these ratios by up to a third (bench/README.md, 2026-12-04): `--processes N` runs the
whole measurement in N fresh processes one after the other, prints each one's verdicts, and judges each target by
the median of the N processes' median ratios, with their spread.

Run: python bench/bench_engine.py [--processes N]   (about 3 minutes a process; exits 0 whether or not a target is
met)
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from dataclasses import dataclass

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
    """Random deals from a seeded random.Random (a bench needs no fairness protocol). Made at set-up only: the
    timed rounds deal the decks it made again (RecordedChance)."""

    def __init__(self, seed: int):
        self.r = random.Random(seed)
        self.dealer: int | None = None
        self.decks: list[list] = []  # every deck handed out, by hand number
        self.reshuffles: dict[tuple[int, int], list] = {}

    def first_dealer(self, players):
        self.dealer = self.r.randrange(players)
        return self.dealer

    def deck(self, hand, pack):
        d = list(pack)
        self.r.shuffle(d)
        self.decks.append(list(d))
        return d

    def reshuffle(self, hand, round, cards):
        c = list(cards)
        self.r.shuffle(c)
        self.reshuffles[hand, round] = list(c)
        return c


class RecordedChance:
    """A game's deals as SeededChance made them at set-up, handed out again in the same order. The timed rounds
    measure the engine dealing a deck, not random.shuffle making one: the deck is the Chance's, outside the engine
    (the real one, fairdeal.core.fairness, is timed in bench_shuffle.py and bench_audit.py), and python-chess has
    no chance event to pay for. A replayed game's decks are part of what it replays, as its moves are."""

    __slots__ = ("dealer", "decks", "reshuffles")

    def __init__(self, made: SeededChance):
        if made.dealer is None:
            raise ValueError("a SeededChance records its game as the game is dealt")
        self.dealer, self.decks, self.reshuffles = made.dealer, made.decks, made.reshuffles

    def first_dealer(self, players):
        return self.dealer

    def deck(self, hand, pack):
        return list(self.decks[hand])  # a new list each time, as a shuffle's

    def reshuffle(self, hand, round, cards):
        return list(self.reshuffles[hand, round])


Log = list[tuple[int, object]]


@dataclass
class Recorded:
    """One random game made at set-up: its seed (of its choices), the Chance that dealt it (its decks) and its
    moves."""

    seed: int
    chance: SeededChance
    log: Log
    finished: bool


def record_games(rules, seeds: range) -> list[Recorded]:
    """The random games of the rounds, one per seed, made once (not timed): each move chosen at random from
    `legal_moves(seat)` and made with `apply`, which checks it (so a list of moves that held an illegal one fails
    here), each deck shuffled by a SeededChance, which keeps it."""
    games = []
    for seed in seeds:
        chance = SeededChance(seed)
        g = rules.new_game(chance)
        choice = random.Random(seed).choice
        log: Log = []
        while not g.is_over and len(log) < MAX_MOVES:
            s = g.to_move
            move = choice(g.legal_moves(s))
            g.apply(s, move)
            log.append((s, move))
        games.append(Recorded(seed, chance, log, g.is_over))
    return games


def engine_random_play(rules, games: list[Recorded]) -> tuple[float, int]:
    """Random play, python-chess's lean loop (b) move for move: `legal_moves(seat)` lists every legal move, the
    seeded random.Random chooses one, `push` makes it without checking it again (as (b) pushes the move
    python-chess just generated). Each game is dealt its recorded decks, so it is the recorded game again (the
    moves are counted, and must be as many). Returns (CPU seconds, moves)."""
    moves = 0
    start = ms.cpu()
    for game in games:
        g = rules.new_game(RecordedChance(game.chance))
        choice = random.Random(game.seed).choice
        legal, push = g.legal_moves, g.push
        n = 0
        while not g.is_over and n < MAX_MOVES:
            s = g.to_move
            push(s, choice(legal(s)))
            n += 1
        moves += n
    seconds = ms.cpu() - start
    if moves != sum(len(game.log) for game in games):
        raise RuntimeError("random play did not play the recorded games again")
    return seconds, moves


def engine_replay(rules, games: list[Recorded]) -> tuple[float, int]:
    """Validated replay: the recorded games dealt their recorded decks again and every move made with `apply`,
    which checks it (python-chess's (a): is_legal, then push). Returns (CPU seconds, moves)."""
    moves = 0
    start = ms.cpu()
    for game in games:
        g = rules.new_game(RecordedChance(game.chance))
        apply = g.apply
        for s, move in game.log:
            apply(s, move)
        moves += len(game.log)
        g.is_over  # noqa: B018  # asked once, after the last move, as (a) asks python-chess
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
    """One table's measurements, one round of each per `measure`. Each engine round is timed right beside a round of
    the python-chess baseline it is compared with (the order swapped every other round), so a per-round ratio
    compares two measurements that ran under the same load."""

    def __init__(self, rule_set: str, players: int, chess: cb.Baselines):
        self.name = f"{rule_set} ({players} players)"
        self.rules = make_rules(rule_set, {}, players)
        self.chess = chess
        self.games = record_games(self.rules, range(GAMES))  # setup, not timed
        self.abandoned = sum(not game.finished for game in self.games)
        moves = sum(len(game.log) for game in self.games)
        self.random_play = ms.Series("engine random play", moves)
        self.replay = ms.Series("engine validated replay", moves)
        self.chess_random_play = ms.Series(cb.RANDOM_PLAY, chess.moves)  # the rounds beside this table's
        self.chess_replay = ms.Series(cb.REPLAY, chess.moves)
        self.bots = ms.Series("bots on every seat")
        self.rounds = 0

    def measure(self) -> None:
        chess, swap = self.chess, self.rounds % 2 == 1
        self.rounds += 1
        pairs = [
            ((self.chess_replay, chess.replay), lambda: cb.replay(chess.logs)[0]),
            ((self.replay,), lambda: engine_replay(self.rules, self.games)[0]),
            ((self.chess_random_play, chess.random_play), lambda: cb.random_play(chess.games, chess.seed)[0]),
            ((self.random_play,), lambda: engine_random_play(self.rules, self.games)[0]),
        ]
        for i in (1, 0, 3, 2) if swap else (0, 1, 2, 3):
            series, work = pairs[i]
            seconds = work()
            for one in series:
                one.add(seconds)
        seconds, moves = bot_play(self.rules, BOT_GAMES)
        self.bots.add(seconds, moves)


def main() -> int:
    parser = argparse.ArgumentParser(description="The 120s engine against python-chess, like with like.")
    parser.add_argument("--processes", type=int, default=1, help="fresh processes to measure in, one after another")
    parser.add_argument("--ratios-line", action="store_true", help=argparse.SUPPRESS)  # a child of --processes
    args = parser.parse_args()
    if args.processes > 1:
        return across_processes(args.processes)
    return measure_here(args.ratios_line)


def across_processes(n: int) -> int:
    verdicts = ms.across_processes(
        os.path.abspath(__file__), ["--ratios-line"], n, lambda x: " = " in x or x.startswith("load average")
    )
    print(f"{sum(ok for _, ok in verdicts)} of {len(verdicts)} targets met (by the median of the processes)")
    return 0


def measure_here(ratios_line: bool = False) -> int:
    if not cb.installed():
        print("python-chess is not installed (pip install '.[dev]'): no baseline, nothing measured")
        return 1
    offered = set(available())
    print(f"{ms.load()} before the run")
    chess = cb.Baselines()  # its series gather every table's chess rounds (the rows printed first)
    tables = [Table(rs, n, chess) for rs, n in TABLES if rs in offered]
    if not tables:
        print("no 120s rule set is available")
        return 1
    print(
        f"setup (not timed): {len(chess.logs)} random chess games, {chess.moves} moves (at most "
        f"{cb.MAX_PLIES} plies); {GAMES} random games per 120s table; {ROUNDS} alternating rounds, CPU time; "
        "each engine round beside a python-chess round"
    )
    ms.alternate(ROUNDS, [table.measure for table in tables])
    print(f"{ms.load()} after the run")

    print()
    print(ms.header() + "   (moves per CPU second)")
    print(ms.row(cb.REPLAY + ", all rounds", chess.replay))
    print(ms.row(cb.RANDOM_PLAY + ", all rounds", chess.random_play))
    ratios: list[tuple[str, tuple[float, float, float], str, float | None]] = []
    for table in tables:
        print()
        print(table.name + f"  ({table.abandoned} of {GAMES} random games abandoned at {MAX_MOVES} moves)")
        print(ms.row("  engine random play", table.random_play))
        print(ms.row("  engine validated replay", table.replay))
        print(ms.row("  bots on every seat (information)", table.bots))
        random_play = table.random_play.ratio_to(table.chess_random_play)
        ratios.append((f"{table.name}: engine random play", random_play, cb.RANDOM_PLAY, TARGET))
        ratios.append(
            (f"{table.name}: engine validated replay", table.replay.ratio_to(table.chess_replay), cb.REPLAY, TARGET)
        )
    verdicts = [ms.verdict(*r) for r in ratios]
    print()
    for line, _ in verdicts:
        print(line)
    met = sum(ok for _, ok in verdicts)
    print(f"{met} of {len(verdicts)} targets met")
    if ratios_line:
        print(ms.ratios_line(ratios))
    return 0


if __name__ == "__main__":
    sys.exit(main())
