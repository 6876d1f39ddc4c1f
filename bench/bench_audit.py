"""Audit throughput of `fairdeal-verify audit`, next to python-chess and to the stdlib floor, measured in the same run.

What is timed: the audit of an export (JSON Lines, one signed transcript a line) of games of every rule set, made
first with fairdeal.verifier.selfplay (not timed): reading each line, parsing it, every check of docs/verify.md
(signatures, commitment, client seeds, hash chain, and the replay that re-derives every deal and recomputes every
bot and timeout move). Once on one core (in process) and once on two processes (`--jobs 2`).

The baselines: (a) python-chess validated replay (bench/chess_baseline.py, shared with bench_engine.py): random
games made first (not timed) and replayed from their move lists with `Board.push_uci`, which parses each move and
refuses an illegal one; (b) python-chess random play, printed for information. And the stdlib floor: the same
transcripts through json.loads, canonical json.dumps, hashlib.sha256 and hmac.digest alone (each line parsed,
every record and header hashed, one HMAC a move as its salt, the signed body encoded and hashed): what reading and
hashing the log costs at all, before any check.

Targets (the project issue): audit moves/s on one core at least 0.5x python-chess (a), and at least 1.8x the one-core
figure on two cores. The machine is shared: every figure is the fastest of --rounds rounds, the rounds of all the
measurements alternating, and the load average is printed before and after; compare the ratios of one run.

Run: python bench/bench_audit.py [--games N] [--rounds R]    (about a minute; exits 0 whether or not a target is met)
"""
from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import os
import resource
import sys
import tempfile
import time
from typing import Callable

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import chess_baseline as cb  # noqa: E402

from fairdeal.verifier.audit import default_jobs, find_items, run_checks  # noqa: E402
from fairdeal.verifier.games import available  # noqa: E402
from fairdeal.verifier.keys import private_key_from_hex, public_key_text  # noqa: E402
from fairdeal.verifier.selfplay import selfplay  # noqa: E402

TARGET_RATIO = 0.5
TARGET_SPEEDUP = 1.8          # two processes against one
JOBS = 2
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


def read_lines(path: str) -> list[bytes]:
    with open(path, "rb") as fh:
        return [line for line in fh.read().split(b"\n") if line.strip()]


def stdlib_floor(lines: list[bytes]) -> float:
    """Seconds to put the transcripts through json.loads, canonical json.dumps, hashlib.sha256 and hmac.digest
    only: every line parsed; every header, move and end record encoded and hashed; one HMAC-SHA256 a move record
    (its salt); the signed body encoded and hashed."""
    dumps = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode
    sha256, digest = hashlib.sha256, hmac.digest
    start = time.perf_counter()
    for line in lines:
        t = json.loads(line)
        seed = bytes.fromhex(t["end"]["server_seed"])
        for name in ("commit", "seating", "start"):
            if name in t:
                sha256(dumps(t[name]).encode()).hexdigest()
        for seq, record in enumerate(t["records"], start=1):
            sha256(dumps(record).encode()).hexdigest()
            digest(seed, b"salt/%d\x00\x00\x00\x00\x00" % seq, "sha256").hex()
        sha256(dumps(t["end"]).encode()).hexdigest()
        sha256(dumps({k: v for k, v in t.items() if k != "signature"}).encode()).digest()
    return time.perf_counter() - start


def breakdown(path: str, rounds: int = 3) -> list[tuple[str, float]]:
    """Where one core's time goes, phase by phase, over the same games: each phase timed alone (the fastest of
    `rounds`), with the functions the audit runs."""
    from fairdeal.verifier.checks import _walk
    from fairdeal.verifier.integrity import check_chain, check_salts, check_signatures, game_seed_of
    from fairdeal.verifier.reader import keys_written, read_transcript
    from fairdeal.verifier.transcript import parsed_body_and_hashes
    lines = read_lines(path)
    ts = [read_transcript(line)[0] for line in lines]
    made = [parsed_body_and_hashes(t) for t in ts]
    seeds = [game_seed_of(t) for t in ts]

    def fastest(work: Callable[[], object]) -> float:
        best = float("inf")
        for _ in range(rounds):
            start = time.perf_counter()
            work()
            best = min(best, time.perf_counter() - start)
        return best

    plain = fastest(lambda: [_walk(t["start"], seed, t["records"], policies=False) for t, seed in zip(ts, seeds)])
    policies = fastest(lambda: [_walk(t["start"], seed, t["records"], policies=True) for t, seed in zip(ts, seeds)])
    return [
        ("read and parse the transcript", fastest(lambda: [read_transcript(line) for line in lines])),
        ("canonical JSON + SHA-256 of every record", fastest(lambda: [keys_written(t, parsed_body_and_hashes(t)[0])
                                                                      for t in ts])),
        ("signatures (Ed25519)", fastest(lambda: [check_signatures(t, t["commit"]["key"], None, body)
                                                  for t, (body, _) in zip(ts, made)])),
        ("hash chain links and salts", fastest(lambda: [(check_chain(t, parsed=True, hashes=hashes),
                                                         check_salts(seed, t["records"]))
                                                        for t, seed, (_, hashes) in zip(ts, seeds, made)])),
        ("replay: deals and legality", plain),
        ("replay: bot and timeout policies recomputed", policies - plain),
    ]


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (5 min {five:.2f})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=32, help="games per rule set (default 32)")
    parser.add_argument("--rounds", type=int, default=5, help="best of this many timed rounds (default 5)")
    args = parser.parse_args()
    if not cb.installed():
        print("python-chess is not installed (pip install '.[dev]'): no baseline, nothing measured")
        return 1

    cores = default_jobs()
    print(f"{cores} core(s) here; {_load()} before the run")
    with tempfile.TemporaryDirectory() as tmp:
        export = os.path.join(tmp, "export.jsonl")
        t0 = time.perf_counter()
        games, moves = make_export(export, args.games)
        made = time.perf_counter() - t0
        chess = cb.Baselines()
        lines = read_lines(export)
        print(f"setup (not timed): {games} games of {len(available())} rule sets, {moves} moves, in {made:.1f} s; "
              f"{len(chess.logs)} random chess games, {chess.moves} moves (at most {cb.MAX_PLIES} plies)")

        phases = breakdown(export)
        # Alternate the measurements, best of N each, so that machine load hits them alike.
        one = two = floor = float("inf")
        for _ in range(args.rounds):
            chess.measure()
            floor = min(floor, stdlib_floor(lines))
            one = min(one, time_audit(export, 1))
            two = min(two, time_audit(export, JOBS))
        load_after = _load()

    audit_one, audit_two = cb.Rate(moves, games, one), cb.Rate(moves, games, two)
    floor_rate = cb.Rate(moves, games, floor)
    print()
    print(cb.header())
    print(cb.row(cb.REPLAY, chess.replay))
    print(cb.row(cb.RANDOM_PLAY, chess.random_play))
    print(cb.row("stdlib floor (json, sha256, hmac only)", floor_rate))
    print(cb.row("audit, 1 core", audit_one))
    print(cb.row(f"audit, {JOBS} processes", audit_two))
    print()
    total = sum(t for _, t in phases)
    print("where one core's time goes:")
    for name, t in phases:
        print(f"  {name:46}{100 * t / total:5.0f} %   ({moves / t:>9.0f} moves/s alone)")
    print()
    print(cb.verdict("audit moves/s on one core", audit_one, chess.replay, cb.REPLAY, TARGET_RATIO)[0])
    print(cb.verdict(f"audit moves/s on {JOBS} processes", audit_two, chess.replay, cb.REPLAY, None)[0])
    print(cb.verdict("audit moves/s on one core", audit_one, chess.random_play, cb.RANDOM_PLAY, None)[0])
    print(f"audit moves/s on one core = {audit_one.moves_per_s / floor_rate.moves_per_s:.2f} x the stdlib floor "
          f"(the floor is {floor_rate.moves_per_s / chess.replay.moves_per_s:.2f} x {cb.REPLAY})")
    speedup = one / two
    ok = "met" if speedup >= TARGET_SPEEDUP else "NOT met"
    print(f"speed-up on {JOBS} processes = {speedup:.2f} x one core (target >= {TARGET_SPEEDUP:.1f}): {ok}")
    cpu, wall = CPU_USED[JOBS]
    print(f"  (the {JOBS} processes got {cpu / wall:.2f} cores' worth of CPU time during the fastest round; well "
          f"below {JOBS} means other processes held the cores{'' if cores >= JOBS else '; this machine has one'})")
    print(f"{load_after} at the end of the timed rounds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
