"""Audit throughput of `fairdeal-verify audit`, next to python-chess and to the stdlib floor, measured in the same run.

What is timed: the audit of an export (JSON Lines, one signed transcript a line) of games of every rule set, made
first with fairdeal.core.selfplay (not timed): reading each line, parsing it, every check of docs/verify.md
(signatures, commitment, client seeds, hash chain, and the replay that re-derives every deal and recomputes every
bot and timeout move). Once on one core (in process) and once on two processes (`--jobs 2`).

The baselines: (a) python-chess validated replay (bench/chess_baseline.py, shared with bench_engine.py, in its fair
form: pre-parsed moves, `is_legal` + `push`); (b) python-chess random play, printed for information. And the floor
the targets are judged against: the same transcripts through json.loads, canonical json.dumps, hashlib.sha256,
hmac.digest and the four Ed25519 verifies a game (three signed headers and the final signature, with the same
`cryptography` library the verifier uses) alone: each line parsed, every record and header hashed, one HMAC a move
as its salt, the signed body encoded, hashed and verified: what reading, hashing and checking the signatures of
the log costs at all, before any rule is checked.

Targets (issue 25): audit moves per CPU second on one core >= 0.65x the floor with signatures (median of the
per-round ratios); two processes >= 1.8x one core's wall-clock speed (the median of the per-round speed-ups, each
two-process round against the one-core round beside it; the cores' worth of CPU the two processes got is printed
beside it, since a shared machine may not give them two cores). Timing as bench/measure.py says: CPU time,
alternating rounds, median and spread, load before and after.

A process's layout moves these ratios (bench/README.md, 2026-12-04): `--processes N` runs the whole measurement in
N fresh processes one after the other and judges each target by the median of the processes' median ratios.

Run: python bench/bench_audit.py [--games N] [--rounds R] [--processes N]    (about a minute a process; exits 0
whether or not a target is met)
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import hmac
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import chess_baseline as cb  # noqa: E402
import measure as ms  # noqa: E402
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey  # noqa: E402

from fairdeal.core.games import available  # noqa: E402
from fairdeal.core.keys import private_key_from_hex, public_key_text  # noqa: E402
from fairdeal.core.selfplay import selfplay  # noqa: E402
from fairdeal.verify.audit import default_jobs, find_items, run_checks  # noqa: E402
from fairdeal.verify.auditpool import PoolCpu  # noqa: E402

TARGET_FLOOR = 0.65  # one core against the floor with signatures
TARGET_SPEEDUP = 1.8  # two processes against one
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


def time_audit(path: str, jobs: int, workers: PoolCpu | None = None) -> tuple[float, float, float]:
    """One whole audit of the export on `jobs` processes: (this process's CPU seconds, wall seconds, CPU seconds
    of this process and its workers). The pool's workers have exited when run_checks returns, so getrusage
    counts them; `workers` gets each process's CPU seconds on its tasks (this one checks items too)."""
    items = find_items([path], [])
    cpu0, all0, start = ms.cpu(), ms.cpu_with_children(), time.perf_counter()
    outcomes = run_checks(items, public_key_text(KEY), {}, jobs, cpu=workers)
    wall = time.perf_counter() - start
    used = ms.cpu() - cpu0, wall, ms.cpu_with_children() - all0
    bad = [o for o in outcomes if o.status != "passed"]
    if bad:
        raise SystemExit(f"the benchmark's own games do not verify: {bad[0].to_json()}")
    return used


@dataclass
class TwoRound:
    """One round of the two-process audit beside the one-core round before it."""

    one_cpu: float  # the one-core audit's CPU seconds
    one_wall: float
    wall: float
    main_cpu: float  # the main process's CPU seconds in the two-process audit (its own tasks and handing out)
    workers: list[float]  # each process's CPU seconds on its tasks (the main process's and its worker's), largest first
    all_cpu: float  # the CPU seconds of the main process and its worker together
    load: float  # the 1-minute load average after the round

    def text(self) -> str:
        return (
            f"  1 core {self.one_wall:6.3f} s wall ({self.one_cpu:.3f} s CPU) | {JOBS} processes {self.wall:6.3f} s "
            f"wall: speed-up {self.one_wall / self.wall:4.2f}; the processes' CPU on their tasks "
            + " + ".join(f"{w:.3f}" for w in self.workers)
            + f" s, main in all {self.main_cpu:.3f} s ({self.all_cpu / self.wall:.2f} cores' worth); 1 core's CPU / "
            f"the busiest process's {self.one_cpu / max(self.workers):.2f}; load {self.load:.1f}"
        )


def read_lines(path: str) -> list[bytes]:
    with open(path, "rb") as fh:
        return [line for line in fh.read().split(b"\n") if line.strip()]


def _raw_key(text: str) -> Ed25519PublicKey:
    return Ed25519PublicKey.from_public_bytes(base64.urlsafe_b64decode(text.split(":", 1)[1] + "="))


def _sig(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def stdlib_floor(lines: list[bytes]) -> float:
    """CPU seconds to put the transcripts through json.loads, canonical json.dumps, hashlib.sha256, hmac.digest
    and Ed25519 only: every line parsed; every header, move and end record encoded and hashed; one HMAC-SHA256 a
    move record (its salt); each signed header's signature verified; the signed body encoded, hashed and its
    signature verified (raises if one does not verify: the floor does the same work as the audit, not less)."""
    dumps = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode
    sha256, digest = hashlib.sha256, hmac.digest
    start = ms.cpu()
    for line in lines:
        t = json.loads(line)
        key = _raw_key(t["commit"]["key"])
        seed = bytes.fromhex(t["end"]["server_seed"])
        for name in ("commit", "seating", "start"):
            if name in t:
                header = dumps(t[name]).encode()
                sha256(header).hexdigest()
                key.verify(_sig(t[name + "_signature"]), header)
        for seq, record in enumerate(t["records"], start=1):
            sha256(dumps(record).encode()).hexdigest()
            digest(seed, b"salt/%d\x00\x00\x00\x00\x00" % seq, "sha256").hex()
        sha256(dumps(t["end"]).encode()).hexdigest()
        body = dumps({k: v for k, v in t.items() if k not in ("signature", "log")}).encode()
        sha256(body).digest()
        key.verify(_sig(t["signature"]), body)
    return ms.cpu() - start


def breakdown(path: str, rounds: int = 3) -> list[tuple[str, float]]:
    """Where one core's time goes, phase by phase, over the same games: each phase timed alone (the fastest of
    `rounds`), with the functions the audit runs."""
    from fairdeal.core.checks import _walk
    from fairdeal.core.integrity import check_chain, check_salts, check_signatures, game_seed_of
    from fairdeal.core.reader import keys_written, read_transcript
    from fairdeal.core.transcript import parsed_body_and_hashes

    lines = read_lines(path)
    ts = [read_transcript(line)[0] for line in lines]
    made = [parsed_body_and_hashes(t) for t in ts]
    seeds = [game_seed_of(t) for t in ts]

    def fastest(work: Callable[[], object]) -> float:
        """The median CPU time of `rounds` rounds (shares of a whole: the median is enough)."""
        return statistics.median(ms.timed(work)[0] for _ in range(rounds))

    plain = fastest(
        lambda: [_walk(t["start"], seed, t["records"], policies=False) for t, seed in zip(ts, seeds, strict=True)]
    )
    policies = fastest(
        lambda: [_walk(t["start"], seed, t["records"], policies=True) for t, seed in zip(ts, seeds, strict=True)]
    )
    return [
        ("read and parse the transcript", fastest(lambda: [read_transcript(line) for line in lines])),
        (
            "canonical JSON + SHA-256 of every record",
            fastest(lambda: [keys_written(t, parsed_body_and_hashes(t)[0]) for t in ts]),
        ),
        (
            "signatures (Ed25519)",
            fastest(
                lambda: [
                    check_signatures(t, t["commit"]["key"], None, body) for t, (body, _) in zip(ts, made, strict=True)
                ]
            ),
        ),
        (
            "hash chain links and salts",
            fastest(
                lambda: [
                    (check_chain(t, parsed=True, hashes=hashes), check_salts(seed, t["records"]))
                    for t, seed, (_, hashes) in zip(ts, seeds, made, strict=True)
                ]
            ),
        ),
        ("replay: deals and legality", plain),
        ("replay: bot and timeout policies recomputed", policies - plain),
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=32, help="games per rule set (default 32)")
    parser.add_argument("--rounds", type=int, default=7, help="alternating timed rounds (default 7)")
    parser.add_argument("--processes", type=int, default=1, help="fresh processes to measure in, one after another")
    parser.add_argument("--ratios-line", action="store_true", help=argparse.SUPPRESS)  # a child of --processes
    args = parser.parse_args()
    if args.processes > 1:
        return across_processes(args)
    if not cb.installed():
        print("python-chess is not installed (pip install '.[dev]'): no baseline, nothing measured")
        return 1

    cores = default_jobs()
    print(f"{cores} core(s) here; {ms.load()} before the run")
    with tempfile.TemporaryDirectory() as tmp:
        export = os.path.join(tmp, "export.jsonl")
        t0 = time.perf_counter()
        games, moves = make_export(export, args.games)
        made = time.perf_counter() - t0
        chess = cb.Baselines()
        lines = read_lines(export)
        print(
            f"setup (not timed): {games} games of {len(available())} rule sets, {moves} moves, in {made:.1f} s; "
            f"{len(chess.logs)} random chess games, {chess.moves} moves (at most {cb.MAX_PLIES} plies)"
        )

        phases = breakdown(export)
        floor = ms.Series("floor: json, sha256, hmac, Ed25519 only", moves)
        one = ms.Series("audit, 1 core (CPU time)", moves)
        one_wall = ms.Series("audit, 1 core (wall)", moves)
        two_wall = ms.Series(f"audit, {JOBS} processes (wall)", moves)
        cores_used: list[float] = []
        two_rounds: list[TwoRound] = []

        def audit_one() -> None:
            cpu, wall, _ = time_audit(export, 1)
            one.add(cpu)
            one_wall.add(wall)

        def audit_two() -> None:
            workers = PoolCpu()
            main_cpu, wall, cpu_all = time_audit(export, JOBS, workers)
            two_wall.add(wall)
            cores_used.append(cpu_all / wall)
            two_rounds.append(
                TwoRound(
                    one.seconds[-1], one_wall.seconds[-1], wall, main_cpu, workers.seconds, cpu_all, os.getloadavg()[0]
                )
            )

        ms.alternate(args.rounds, [chess.measure, lambda: floor.add(stdlib_floor(lines)), audit_one, audit_two])
        load_after = ms.load()

    print()
    print(ms.header(48) + "   (moves per second)")
    print(ms.row(cb.REPLAY + ", CPU", chess.replay, 48))
    print(ms.row(cb.RANDOM_PLAY + ", CPU", chess.random_play, 48))
    print(ms.row(floor.name + ", CPU", floor, 48))
    print(ms.row(one.name, one, 48))
    print(ms.row(one_wall.name, one_wall, 48))
    print(ms.row(two_wall.name, two_wall, 48))
    print()
    total = sum(t for _, t in phases)
    print("where one core's CPU time goes:")
    for name, t in phases:
        print(f"  {name:46}{100 * t / total:5.0f} %   ({moves / t:>9.0f} moves/s alone)")
    print()
    ratios = [
        ("audit moves/s on one core", one.ratio_to(floor), "the floor with signatures", TARGET_FLOOR),
        ("audit moves/s on one core", one.ratio_to(chess.replay), cb.REPLAY, None),
        ("the floor", floor.ratio_to(chess.replay), cb.REPLAY, None),
        (f"speed-up on {JOBS} processes", two_wall.ratio_to(one_wall), "one core (wall clock)", TARGET_SPEEDUP),
    ]
    for what, ratio, baseline, target in ratios:
        print(ms.verdict(what, ratio, baseline, target)[0])
    print(
        f"  (the {JOBS} processes got {statistics.median(cores_used):.2f} cores' worth of CPU time in the median "
        f"round, {min(cores_used):.2f} to {max(cores_used):.2f}; well below {JOBS} means other processes held "
        f"the cores{'' if cores >= JOBS else '; this machine has one'})"
    )
    print(
        f"  each round of the {JOBS} processes beside the one-core round before it (the busiest process's CPU against "
        f"one core's is what the speed-up would be with a core each and nothing else running):"
    )
    for r in two_rounds:
        print(r.text())
    critical = [r.one_cpu / max(r.workers) for r in two_rounds]
    print(
        f"  1 core's CPU / the busiest process's CPU: {statistics.median(critical):.2f} in the median round "
        f"({min(critical):.2f} to {max(critical):.2f}; for information: the target is the wall-clock speed-up)"
    )
    print(f"{load_after} at the end of the timed rounds")
    if args.ratios_line:
        print(ms.ratios_line(ratios))
    return 0


def across_processes(args: argparse.Namespace) -> int:
    child = ["--games", str(args.games), "--rounds", str(args.rounds), "--ratios-line"]
    keep = (" = ", "cores' worth", "load average")
    ms.across_processes(
        os.path.abspath(__file__),
        child,
        args.processes,
        lambda x: any(k in x for k in keep) and not x.startswith("  1 core "),  # not each round's line
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
