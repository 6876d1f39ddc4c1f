"""What `appendfsync always` costs against `everysec` (and against no append-only file at all): acknowledged
moves appended through the store's compare-and-append (RedisStore.append, the service's write path), each
setting on its own throwaway redis-server with deploy/redis.conf's durability lines, its files in --dir (put
that on the disk Redis will use in production: a RAM disk measures nothing).

One client (the latency of one acknowledged move, an fsync each with `always`) and --threads clients (Redis
fsyncs once per event-loop turn for every write of that turn, so concurrent writers share a flush). The
settings alternate round by round so that other load on the machine hits all of them; each figure is the
median round. Exits by itself.

    python bench/bench_aof.py [--seconds 3] [--rounds 3] [--threads 16] [--dir DIR]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from bench.bench_service import free_port, stop  # noqa: E402
from fairdeal.service.store.redis import RedisStore  # noqa: E402

SETTINGS = {  # name -> redis-server arguments
    "no AOF": ["--appendonly", "no"],
    "everysec": ["--appendonly", "yes", "--appendfsync", "everysec"],
    "always": ["--appendonly", "yes", "--appendfsync", "always"],
}
RECORD = '{"by":"player","move":{"card":"10H","kind":"play"},"prev":"' + "ab" * 32 + '","seat":2,"seq":%d}'


def filesystem(path: str) -> str:
    """The type of the filesystem `path` is on (from /proc/mounts; "?" elsewhere)."""
    best, kind = "", "?"
    try:
        with open("/proc/mounts") as f:
            for line in f:
                _, mount, fstype, *_ = line.split()
                if os.path.realpath(path).startswith(mount) and len(mount) > len(best):
                    best, kind = mount, fstype
    except OSError:
        pass
    return kind


def start(name: str, folder: str) -> tuple[subprocess.Popen, int]:
    port = free_port()
    os.makedirs(folder, exist_ok=True)
    proc = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", folder, *SETTINGS[name]],
        stdout=subprocess.DEVNULL,
    )
    store = RedisStore(f"redis://127.0.0.1:{port}/0")
    for _ in range(100):
        try:
            store.ping()
            return proc, port
        except Exception:  # not up yet
            time.sleep(0.05)
    proc.kill()
    raise SystemExit(f"redis-server for {name} did not start")


def load(port: int, threads: int, seconds: float, **store_options) -> dict:
    """Each thread appends to its own game, one acknowledged append after another, for `seconds`
    (`store_options`: RedisStore's, e.g. wait_replicas)."""
    lat: list[list[float]] = [[] for _ in range(threads)]
    stop = time.perf_counter() + seconds

    def worker(i: int) -> None:
        store = RedisStore(f"redis://127.0.0.1:{port}/0", **store_options)
        gid, n = uuid.uuid4().hex[:16], 0
        while time.perf_counter() < stop:
            t0 = time.perf_counter()
            res = store.append(gid, n, RECORD % n, time.time(), uuid.uuid4().hex, "h")
            lat[i].append(time.perf_counter() - t0)
            if res.status != "ok":
                raise RuntimeError(res)
            n += 1

    ts = [threading.Thread(target=worker, args=(i,)) for i in range(threads)]
    t0 = time.perf_counter()
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    wall = time.perf_counter() - t0
    flat = sorted(x for xs in lat for x in xs)
    return {
        "rate": len(flat) / wall,
        "p50": 1000 * statistics.median(flat),
        "p99": 1000 * flat[min(len(flat) - 1, int(0.99 * len(flat)))],
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="per phase")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", type=int, default=16)
    ap.add_argument("--dir", default=None, help="where the AOF files go (default: a temp dir)")
    args = ap.parse_args()
    if not shutil.which("redis-server"):
        print("redis-server is not installed", file=sys.stderr)
        return 2
    tmp = tempfile.mkdtemp(prefix="fairdeal-aof-", dir=args.dir)
    servers = {}
    try:
        for name in SETTINGS:
            servers[name] = start(name, os.path.join(tmp, name.replace(" ", "-")))
        rounds: dict[tuple[str, int], list[dict]] = {}
        for _ in range(args.rounds):
            for name, (_, port) in servers.items():
                for threads in (1, args.threads):
                    rounds.setdefault((name, threads), []).append(load(port, threads, args.seconds))
        out = os.popen("redis-server --version").read().split()
        print(
            f"{out[2] if len(out) > 2 else 'redis-server'}, AOF files on {filesystem(tmp)} ({tmp}), "
            f"{args.rounds} rounds of {args.seconds:g} s per setting and client count (median round), "
            f"load {os.getloadavg()[0]:.2f}"
        )
        print(f"{'setting':10} {'clients':>7} {'appends/s':>10} {'p50 ms':>8} {'p99 ms':>8} {'vs everysec':>12}")
        for threads in (1, args.threads):
            base = sorted(rounds[("everysec", threads)], key=lambda r: r["rate"])[args.rounds // 2]
            for name in SETTINGS:
                r = sorted(rounds[(name, threads)], key=lambda r: r["rate"])[args.rounds // 2]
                print(
                    f"{name:10} {threads:>7} {r['rate']:>10.0f} {r['p50']:>8.3f} {r['p99']:>8.3f} "
                    f"{100 * r['rate'] / base['rate']:>11.0f}%"
                )
        return 0
    finally:
        stop([proc for proc, _ in servers.values()])
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
