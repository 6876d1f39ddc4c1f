"""Results (docs/tournaments.md, "Scoring"): each deal's score per side at a table, matchpoints across the tables
of a round, the round points and the standings with their tie-breaks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fairdeal.core.fairness import game_seed, server_seed_from_hex
from fairdeal.core.replay import LiveGame, read_move

# Rule sets whose scores count down (the lowest score wins): a deal is better the more it takes off.
LOWER_IS_BETTER = frozenset({"twenty-down"})
BYE_POINTS = 5000  # a bye, or a table with nobody to compare with: half of the 10000 a round is worth
ROUND_POINTS = 10000


def _scores(game: LiveGame) -> list[int]:
    """The sides' scores now: every engine's state keeps them, but GameState does not declare them (yet)."""
    return list(game.state.scores)  # type: ignore[attr-defined]


def deal_scores(transcript: Mapping[str, Any], board_seed: bytes) -> list[list[int]]:
    """[deal k's score change for side 0, side 1, ...] for every deal of a started, ended game, replayed from its
    records: the change is what the side's score moved from the start of deal k to the start of deal k+1 (the end
    of the game for the last deal); signs are turned for rule sets that count down, so higher is always better."""
    start, end = transcript["start"], transcript["end"]
    seeds = [s["client_seed"] for s in start["seats"]]
    game = LiveGame(start, game_seed(server_seed_from_hex(end["server_seed"]), seeds, start["protocol"]), board_seed)
    marks = [_scores(game)]
    for record in transcript["records"]:
        before = len(game.state.deals)
        game.state.apply(record["seat"], read_move(record, start["protocol"]))
        for _ in range(len(game.state.deals) - before):
            marks.append(_scores(game))
    marks.append(_scores(game))
    sign = -1 if start["rules"]["id"] in LOWER_IS_BETTER else 1
    return [[sign * (b - a) for a, b in zip(marks[k], marks[k + 1], strict=True)] for k in range(len(marks) - 1)]


def matchpoints(tables: Sequence[list[list[int]]]) -> list[list[tuple[int, int]]]:
    """For each table and side: (matchpoints, the most it could have had). Deal k of side i at a table is compared
    with deal k of side i at every other table that played deal k: 2 for more, 1 for the same, 0 for less."""
    out = []
    for t, deals in enumerate(tables):
        sides = len(deals[0]) if deals else 0
        row = []
        for side in range(sides):
            got = most = 0
            for k, scores in enumerate(deals):
                for u, other in enumerate(tables):
                    if u == t or k >= len(other):
                        continue
                    mine, theirs = scores[side], other[k][side]
                    got += 2 if mine > theirs else 1 if mine == theirs else 0
                    most += 2
            row.append((got, most))
        out.append(row)
    return out


def round_points(got: int, most: int) -> int:
    """The share of a round's 10000 points: floor(10000 * got / most), or half when there was nothing to compare."""
    return BYE_POINTS if most == 0 else ROUND_POINTS * got // most


def standings(entries: int, order: Sequence[int], rounds: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The standings after the rounds given: each round as {"tables": [[entry by side]], "byes": [entries],
    "results": {entry: (got, most)}}. Ranked by points, then matchpoints, then Buchholz (the sum of the points of
    every entry met), then the seeded order."""
    points = [0] * entries
    mps = [0] * entries
    met: list[list[int]] = [[] for _ in range(entries)]
    for rnd in rounds:
        for e in rnd["byes"]:
            points[e] += BYE_POINTS
        for table in rnd["tables"]:
            for e in table:
                got, most = rnd["results"][e]
                points[e] += round_points(got, most)
                mps[e] += got
                met[e].extend(x for x in table if x != e)
    buchholz = [sum(points[x] for x in met[e]) for e in range(entries)]
    place = {e: i for i, e in enumerate(order)}
    ranked = sorted(range(entries), key=lambda e: (-points[e], -mps[e], -buchholz[e], place[e]))
    return [
        {"rank": i + 1, "entry": e, "points": points[e], "matchpoints": mps[e], "buchholz": buchholz[e]}
        for i, e in enumerate(ranked)
    ]
