"""A 64-team Swiss of 5 rounds of Spades played by bots on one box, and `fairdeal-verify tournament` of it.

What is timed: (1) play: fairdeal.core.tournament.play.play_tournament — the commitment, the tournament seed,
five Swiss pairings, 32 tables a round (160 games) each played to its end by the policies and signed, the per-deal
scoring, matchpoints and standings after every round, every record signed; (2) check: verify_tournament of that
export — every signature, the seeds, every pairing, every game verified as `fairdeal-verify` does under its
round's board seed, the seats, the standings recomputed.

The baseline, doing the same game work in its fairest form: the same 160 games (same ids, seats, bots and server
seeds, read from the export) played by selfplay alone, dealt from their own seeds (no tournament around them), and
each verified by verify_transcript alone. The ratio tournament / baseline is the tournament machinery's cost.

CPU time is process_time (the machine is shared); each figure is the median of --rounds rounds, the rounds of
tournament and baseline alternating, with the spread (min-max); the load average is printed before and after.

Run: python bench/bench_tournament.py [--teams 64] [--rounds-played 5] [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from fairdeal.core.checks import verify_transcript  # noqa: E402
from fairdeal.core.keys import private_key_from_hex, public_key_text  # noqa: E402
from fairdeal.core.selfplay import selfplay  # noqa: E402
from fairdeal.core.tournament.check import verify_tournament  # noqa: E402
from fairdeal.core.tournament.play import play_tournament  # noqa: E402

KEY = private_key_from_hex("7a" * 32)


def entries(n: int) -> list[dict]:
    return [{"name": f"team {i}", "members": [f"t{i}n", f"t{i}s"], "bot": True, "client_seed": None} for i in range(n)]


def timed(fn):
    cpu, wall = time.process_time(), time.perf_counter()
    out = fn()
    return out, time.process_time() - cpu, time.perf_counter() - wall


def tournament_round(teams: int, rounds: int):
    ex, play_cpu, play_wall = timed(
        lambda: play_tournament(KEY, bytes(range(32)), tournament_id="T-bench", entries=entries(teams), rounds=rounds)
    )
    report, check_cpu, check_wall = timed(lambda: verify_tournament(ex, key=public_key_text(KEY)))
    assert report.exit_code == 0, report.checks
    return ex, (play_cpu, play_wall, check_cpu, check_wall)


def baseline_round(ex: dict):
    games = [g for rnd in ex["rounds"] for g in rnd["games"]]

    def play():
        return [
            selfplay(
                "spades",
                KEY,
                bytes.fromhex(g["end"]["server_seed"]),
                game_id=g["commit"]["game_id"],
                names=[s["name"] for s in g["start"]["seats"]],
                bots=[s["seat"] for s in g["start"]["seats"] if s["bot"]],
                variety_every=7,
            )
            for g in games
        ]

    played, play_cpu, play_wall = timed(play)

    def check():
        return all(verify_transcript(g, key=public_key_text(KEY)).ok for g in played)

    ok, check_cpu, check_wall = timed(check)
    assert ok
    return (play_cpu, play_wall, check_cpu, check_wall)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--teams", type=int, default=64)
    ap.add_argument("--rounds-played", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    print(f"load average before: {os.getloadavg()}")
    tour, base = [], []
    ex = None
    for _ in range(args.rounds):
        ex, figures = tournament_round(args.teams, args.rounds_played)
        tour.append(figures)
        base.append(baseline_round(ex))
    games = sum(len(r["games"]) for r in ex["rounds"])
    moves = sum(len(g["records"]) for r in ex["rounds"] for g in r["games"])
    print(
        f"{args.teams} teams, Swiss of {args.rounds_played} rounds: {games} games, {moves} moves; "
        f"{args.rounds} alternating rounds"
    )
    names = ("play CPU s", "play wall s", "check CPU s", "check wall s")
    print(f"{'':14} {'tournament (median, min-max)':>32} {'baseline (median, min-max)':>32} {'ratio':>6}")
    for i, name in enumerate(names):
        t, b = [r[i] for r in tour], [r[i] for r in base]
        tm, bm = statistics.median(t), statistics.median(b)
        print(
            f"{name:14} {tm:10.2f} ({min(t):.2f}-{max(t):.2f}){'':12} {bm:10.2f} ({min(b):.2f}-{max(b):.2f})"
            f"{'':12} {tm / bm:6.2f}"
        )
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
