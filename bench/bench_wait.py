"""What FAIRDEAL_REDIS_WAIT_REPLICAS=1 costs: acknowledged appends through the store's compare-and-append
(RedisStore.append, the service's write path) followed by `WAIT 1 <timeout>`, against the same appends without
WAIT (the baseline), on a throwaway primary with one throwaway replica that this script starts (both on this
machine, so the replication round trip is loopback's: across a network add its round trip to every append).

One client (the latency of one acknowledged move) and --threads clients. The two settings alternate round by
round so that other load on the machine hits both; each figure is the median round. Exits by itself.

    python bench/bench_wait.py [--seconds 3] [--rounds 3] [--threads 16]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from bench.bench_aof import load  # noqa: E402
from bench.bench_service import free_port, start_redis, stop  # noqa: E402

SETTINGS = {"no WAIT": 0, "WAIT 1": 1}  # name -> RedisStore(wait_replicas=...)


def start_pair(folder: str) -> tuple[list[subprocess.Popen], int]:
    """A primary and its replica (no AOF on either: only the replication's cost is measured); the primary's port
    once the replica is in sync."""
    import redis

    ports = [free_port(), free_port()]
    procs = []
    for name, port in zip(("primary", "replica"), ports, strict=True):
        d = os.path.join(folder, name)
        os.makedirs(d)
        extra = ["--replicaof", "127.0.0.1", str(ports[0])] if name == "replica" else []
        procs.append(start_redis(d, *extra, port=port)[0])
    replica = redis.Redis(port=ports[1], decode_responses=True)
    for _ in range(400):
        try:
            if replica.info("replication").get("master_link_status") == "up":
                return procs, ports[0]
        except redis.ConnectionError:
            pass
        time.sleep(0.05)
    stop(procs)
    raise SystemExit("the replica did not sync")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="per phase")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", type=int, default=16)
    args = ap.parse_args()
    if not shutil.which("redis-server"):
        print("redis-server is not installed", file=sys.stderr)
        return 2
    tmp = tempfile.mkdtemp(prefix="fairdeal-wait-")
    procs: list[subprocess.Popen] = []
    try:
        procs, port = start_pair(tmp)
        load_before = os.getloadavg()[0]
        rounds: dict[tuple[str, int], list[dict]] = {}
        for _ in range(args.rounds):
            for name, replicas in SETTINGS.items():
                for threads in (1, args.threads):
                    rounds.setdefault((name, threads), []).append(
                        load(port, threads, args.seconds, wait_replicas=replicas, wait_timeout=1.0)
                    )
        print(
            f"primary + 1 replica on loopback, {args.rounds} rounds of {args.seconds:g} s per setting and client "
            f"count (median round), load {load_before:.2f} before, {os.getloadavg()[0]:.2f} after"
        )
        print(f"{'setting':8} {'clients':>7} {'appends/s':>10} {'p50 ms':>8} {'p99 ms':>8} {'vs no WAIT':>11}")
        for threads in (1, args.threads):
            median = {
                name: sorted(rounds[(name, threads)], key=lambda r: r["rate"])[args.rounds // 2] for name in SETTINGS
            }
            for name, r in median.items():
                print(
                    f"{name:8} {threads:>7} {r['rate']:>10.0f} {r['p50']:>8.3f} {r['p99']:>8.3f} "
                    f"{100 * r['rate'] / median['no WAIT']['rate']:>10.0f}%"
                )
        return 0
    finally:
        stop(procs)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
