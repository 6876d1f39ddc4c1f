"""Audit throughput of `fairdeal-verify audit`, next to both python-chess baselines measured in the same run.

What is timed: the audit of an export (JSON Lines, one signed transcript a line) of games of every rule set, made
first with fairdeal.verifier.selfplay (not timed): reading each line, parsing it, every check of docs/verify.md (signatures,
commitment, client seeds, hash chain, and the replay that re-derives every deal and recomputes every bot and
timeout move). Once on one core (in process) and once on every core (`--jobs` = the cores here).

The baselines (bench/chess_baseline.py, shared with bench_engine.py): (a) python-chess validated replay, random
games made first (not timed) and replayed from their move lists with `Board.push_uci`, which parses each move and
refuses an illegal one; (b) python-chess random play, the same games played by generating the legal moves,
choosing one and pushing it with `push_uci`. An audit replays stored moves, so it is compared with (a); the ratio
to (b) is printed for information.

Targets (the project issue): audit moves per second on one core at least 3x python-chess's (validated replay, (a)),
and close to linear scaling on two cores. The script prints the figures and says plainly whether each target is met.
Every figure is the fastest of --rounds rounds, the rounds of all the measurements alternating.

Run: python bench/bench_audit.py [--games N]    (about 30-60 s; exits 0 whether or not a target is met)
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import chess_baseline as cb  # noqa: E402

from fairdeal.verifier.audit import default_jobs, find_items, run_checks  # noqa: E402
from fairdeal.verifier.games import available  # noqa: E402
from fairdeal.verifier.keys import private_key_from_hex, public_key_text  # noqa: E402
from fairdeal.verifier.selfplay import selfplay  # noqa: E402

TARGET_RATIO = 3.0
TARGET_SCALING = 0.8          # "close to linear": at least 80% of the ideal speed-up
KEY = private_key_from_hex("5e" * 32)


def make_export(path: str, per_rule_set: int) -> tuple[int, int]:
    """Selfplayed games of every rule set, one transcript a line. Returns (games, moves)."""
    games = moves = 0
    with open(path, "w", encoding="utf-8") as fh:
        for rule_set in available():
            for i in range(per_rule_set):
                seed = bytes([i % 256, i // 256]) + rule_set.encode()[:30].ljust(30, b".")
                t = selfplay(rule_set, KEY, seed, bots=(1, 3), timeout_every=4, variety_every=3)
                fh.write(json.dumps(t, separators=(",", ":")) + "\n")
                games += 1
                moves += len(t["records"])
    return games, moves


CPU_USED: dict[int, tuple[float, float]] = {}   # jobs -> (CPU seconds, wall seconds) of the fastest round


def _cpu() -> float:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def time_audit(path: str, jobs: int) -> float:
    items = find_items([path], [])
    cpu0, start = _cpu(), time.perf_counter()
    outcomes = run_checks(items, public_key_text(KEY), {}, jobs)
    seconds = time.perf_counter() - start
    if seconds < CPU_USED.get(jobs, (0.0, float("inf")))[1]:
        CPU_USED[jobs] = (_cpu() - cpu0, seconds)
    bad = [o for o in outcomes if o.status != "passed"]
    if bad:
        raise SystemExit(f"the benchmark's own games do not verify: {bad[0].to_json()}")
    return seconds


def breakdown(path: str) -> list[tuple[str, float]]:
    """Where one core's time goes, phase by phase, over the same games (each phase timed alone)."""
    from fairdeal.verifier import keys
    from fairdeal.verifier.checks import _walk
    from fairdeal.verifier.integrity import check_chain, check_salts, game_seed_of
    from fairdeal.verifier.reader import parse_transcript
    from fairdeal.verifier.transcript import transcript_body
    with open(path, "rb") as fh:
        lines = [line for line in fh.read().split(b"\n") if line.strip()]
    out = []
    start = time.perf_counter()
    ts = [parse_transcript(line) for line in lines]
    out.append(("read and parse the transcript", time.perf_counter() - start))
    start = time.perf_counter()
    for t in ts:
        keys.verify(t["commit"]["key"], transcript_body(t, parsed=True), t["signature"])
    out.append(("signatures (canonical JSON + Ed25519)", time.perf_counter() - start))
    seeds = [game_seed_of(t) for t in ts]
    start = time.perf_counter()
    for t, seed in zip(ts, seeds):
        check_chain(t, parsed=True)
        check_salts(seed, t["records"])
    out.append(("hash chain and salts", time.perf_counter() - start))
    start = time.perf_counter()
    for t, seed in zip(ts, seeds):
        _walk(t["start"], seed, t["records"], policies=False)
    plain = time.perf_counter() - start
    out.append(("replay: deals and legality", plain))
    start = time.perf_counter()
    for t, seed in zip(ts, seeds):
        _walk(t["start"], seed, t["records"], policies=True)
    out.append(("replay: bot and timeout policies recomputed", time.perf_counter() - start - plain))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=16, help="games per rule set (default 16)")
    parser.add_argument("--rounds", type=int, default=3, help="best of this many timed rounds")
    args = parser.parse_args()
    if not cb.installed():
        print("python-chess is not installed (pip install '.[dev]'): no baseline, nothing measured")
        return 1

    cores = default_jobs()
    load = os.getloadavg()[0]
    print(f"{cores} core(s); load average {load:.2f} before the run"
          + (" (other processes compete for the cores: the figures are lower than on an idle machine)"
             if load > 0.5 else ""))
    with tempfile.TemporaryDirectory() as tmp:
        export = os.path.join(tmp, "export.jsonl")
        t0 = time.perf_counter()
        games, moves = make_export(export, args.games)
        made = time.perf_counter() - t0
        chess = cb.Baselines()
        print(f"setup (not timed): {games} games of {len(available())} rule sets, {moves} moves, in {made:.1f} s; "
              f"{len(chess.logs)} random chess games, {chess.moves} moves (at most {cb.MAX_PLIES} plies)")

        phases = breakdown(export)
        # Alternate the measurements, best of N each, so that machine load hits them alike.
        one = many = float("inf")
        for _ in range(args.rounds):
            chess.measure()
            one = min(one, time_audit(export, 1))
            if cores > 1:
                many = min(many, time_audit(export, cores))

    audit_one = cb.Rate(moves, games, one)
    print()
    print(cb.header())
    print(cb.row(cb.REPLAY, chess.replay))
    print(cb.row(cb.RANDOM_PLAY, chess.random_play))
    print(cb.row("audit, 1 core", audit_one))
    if cores > 1:
        print(cb.row(f"audit, {cores} cores", cb.Rate(moves, games, many)))
    print()
    total = sum(t for _, t in phases)
    print("where one core's time goes:")
    for name, t in phases:
        print(f"  {name:46}{100 * t / total:5.0f} %   ({moves / t:>9.0f} moves/s alone)")
    print()
    print(cb.verdict("audit moves/s on one core", audit_one, chess.replay, cb.REPLAY, TARGET_RATIO)[0])
    print(cb.verdict("audit moves/s on one core", audit_one, chess.random_play, cb.RANDOM_PLAY, None)[0])
    if cores > 1:
        scaling = one / many
        ok = "met" if scaling >= TARGET_SCALING * cores else "NOT met"
        print(f"speed-up on {cores} cores = {scaling:.2f} x one core (ideal {cores}.00, target >= "
              f"{TARGET_SCALING * cores:.2f}): {ok}")
        cpu, wall = CPU_USED[cores]
        got = cpu / wall
        print(f"  (the {cores} workers got {got:.2f} cores' worth of CPU time during the fastest {cores}-core round; "
              f"a figure well below {cores} means other processes held the cores, not that the work did not "
              f"split)")
    else:
        print("one core only here: no scaling figure")
    return 0


if __name__ == "__main__":
    sys.exit(main())
