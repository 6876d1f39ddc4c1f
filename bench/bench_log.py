"""The transparency log's cost (docs/log.md): the service with its log against the same service with the log
switched off (FAIRDEAL_TRANSPARENCY_LOG=off), both measured in this run under gunicorn (2 gevent workers) on one
throwaway redis-server, with a sweeper (`fairdeal sweep`, which sequences the log and signs its heads) running.

  - moves: bench_service.py's load (each connection plays its own spades game, four human seats, clocks off:
    GET the mover's view, POST its move). Moves write nothing to the log, so the target is the issue's: the
    move throughput with the log within 10 % of the figure without it.
  - tables: each connection creates a table, reads it (with the log on, its answer carries the commitment's
    inclusion proof against a signed head: the on-demand sequencing and signing) and cancels it (the ending
    leaf). This is where every leaf is written; no target, the cost is shown.
  - the sequencer alone, in-process: leaves queued by N games on Redis, then sequenced and a head signed.

The phases alternate (off, on, off, on, ...) so that other load on the machine hits both; each figure is the
median round's. The machine's load average is printed beside the figures.

    python bench/bench_log.py [--connections 16] [--seconds 4] [--rounds 3] [--leaves 5000]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.bench_service import (  # noqa: E402
    ROOT,
    Conn,
    ServiceGame,
    free_port,
    run_load,
    start_gunicorn,
    start_redis,
    stop,
    wait_http,
)

MODES = ("off", "on")


class TableLife:
    """One table's life, as the step of run_load: create it, read it, cancel it."""

    def __init__(self, conn: Conn):
        self.conn = conn
        _, p = conn.call("POST", "/players", {"name": "t"})
        self.h = {"Authorization": "Bearer " + p["token"]}

    def step(self) -> tuple[float, bool]:
        t0 = time.perf_counter()
        status, t = self.conn.call("POST", "/tables", {"rule_set": "spades", "clocks": "off"}, self.h)
        if status != 201:
            raise RuntimeError(f"table refused: {status} {t}")
        self.conn.call("GET", f"/tables/{t['id']}", None, self.h)
        status, r = self.conn.call("POST", f"/tables/{t['id']}/cancel", None, self.h)
        if status != 200:
            raise RuntimeError(f"cancel refused: {status} {r}")
        return time.perf_counter() - t0, True


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def sequencer(redis_url: str, data_dir: str, n: int) -> dict:
    """Queue the commitment leaves of `n` games (as table creations do), then time sequencing them and signing
    a head over the log, in this process."""
    from fairdeal.service.config import Config
    from fairdeal.service.signing import KeyRing
    from fairdeal.service.store.redis import RedisStore
    from fairdeal.service.translog import TransLog

    store = RedisStore(redis_url)
    translog = TransLog(store, KeyRing(data_dir), Config(data_dir=data_dir, redis_url=redis_url), time.time)
    translog.tick()  # the log so far: sequenced, its tree read, a head signed
    before = store.tlog_size()
    for _ in range(n):
        g = uuid.uuid4().hex[:16]
        store.append_with_leaf(g, 0, "{}", time.time(), "commitment", f'{{"game_id":"{g}","type":"commitment"}}')
    t0 = time.perf_counter()
    size = store.tlog_sequence(limit=n)
    t1 = time.perf_counter()
    head = translog.sign_head(size)
    t2 = time.perf_counter()
    store.close()
    return {"leaves": size - before, "sequence_s": t1 - t0, "head_s": t2 - t1, "size": head["size"]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--connections", type=int, default=16)
    ap.add_argument("--seconds", type=float, default=4.0, help="per phase")
    ap.add_argument("--rounds", type=int, default=3, help="alternating off/on phases per load")
    ap.add_argument("--leaves", type=int, default=5000, help="games queued for the sequencer alone")
    args = ap.parse_args()
    if not shutil.which("redis-server"):
        print("redis-server is not installed", file=sys.stderr)
        return 2
    tmp = tempfile.mkdtemp(prefix="fairdeal-bench-log-")
    redis_proc, rport = start_redis(tmp)
    procs = [redis_proc]
    try:
        url = f"redis://127.0.0.1:{rport}/0"
        env = dict(
            os.environ,
            FAIRDEAL_REDIS_URL=url,
            FAIRDEAL_DATA=tmp,
            PYTHONPATH=ROOT,
            FAIRDEAL_RATE_LIMITS="off",
            FAIRDEAL_LOG_LEVEL="WARNING",
        )
        ports = {}
        for mode in MODES:
            ports[mode] = free_port()
            proc = start_gunicorn(
                "fairdeal.service.wsgi:app",
                ports[mode],
                dict(env, FAIRDEAL_TRANSPARENCY_LOG=mode),
                os.path.join(tmp, f"{mode}.log"),
            )
            procs.append(proc)
            wait_http(ports[mode], "/healthz", proc)
        procs.append(
            subprocess.Popen(
                [sys.executable, "-m", "fairdeal.cli", "sweep"],
                cwd=ROOT,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=open(os.path.join(tmp, "sweep.log"), "wb"),
            )
        )
        print(f"before: {load()}")
        results = {}
        for what, game_cls in (("moves", ServiceGame), ("tables", TableLife)):
            rounds: dict[str, list[dict]] = {m: [] for m in MODES}
            for _ in range(args.rounds):
                for mode in MODES:
                    rounds[mode].append(run_load(ports[mode], game_cls, args.connections, args.seconds, 100_000))
            results[what] = {m: sorted(rs, key=lambda r: r["throughput"])[len(rs) // 2] for m, rs in rounds.items()}
            for mode in MODES:
                print(f"{what} log {mode} rounds (per s): " + ", ".join(f"{r['throughput']:.0f}" for r in rounds[mode]))
            print(f"after {what}: {load()}")
        print(
            f"gunicorn 2 gevent workers per service, {args.connections} connections, {args.rounds} rounds of "
            f"{args.seconds:.0f} s per mode (median shown), loopback, one redis-server, a sweeper running"
        )
        print(f"{'':18} {'count':>7} {'per s':>9} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7}")
        for what in ("moves", "tables"):
            for mode in MODES:
                r = results[what][mode]
                print(
                    f"{what + ', log ' + mode:18} {r['moves']:>7} {r['throughput']:>9.1f} {r['p50_ms']:>8.2f} "
                    f"{r['p99_ms']:>8.2f} {r['errors']:>7}"
                )
        moves = results["moves"]["on"]["throughput"] / results["moves"]["off"]["throughput"]
        tables = results["tables"]["on"]["throughput"] / results["tables"]["off"]["throughput"]
        ok = moves >= 0.90
        print(f"moves with the log / without: {100 * moves:.0f}% (target >= 90%: {'met' if ok else 'NOT met'})")
        print(f"table lives (create, read with proof, cancel) with the log / without: {100 * tables:.0f}% (no target)")
        s = sequencer(url, tmp, args.leaves)
        print(
            f"sequencer alone: {s['leaves']} queued leaves sequenced in {s['sequence_s'] * 1000:.0f} ms "
            f"({s['leaves'] / s['sequence_s']:.0f} leaves/s); a head over {s['size']} leaves signed in "
            f"{s['head_s'] * 1000:.1f} ms; {load()}"
        )
        for what in ("moves", "tables"):
            for mode in MODES:
                if results[what][mode]["first_error"]:
                    print(f"{what} log {mode} first error: {results[what][mode]['first_error']}")
        return 0
    finally:
        stop(procs)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
