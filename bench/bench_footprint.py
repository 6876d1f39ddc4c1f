"""What a finished game costs: bytes in Redis per game, and a worker's memory after N games.

1. Redis (a throwaway redis-server this script starts): N games are played through the app in this process (one
   human seat moving with an Idempotency-Key each time, as real clients do, and bots), then each game's keys are
   weighed with MEMORY USAGE (exact: SAMPLES 0) when it has just finished, after its idempotency keys expired
   (FAIRDEAL_IDEMPOTENCY_TTL, set short here), and after retention archived it (FAIRDEAL_ARCHIVE) and deleted it;
   the archive's bytes per game beside them. Redis's used_memory before and after is the cross-check.
2. A worker's memory (VmRSS) after N games, each setting in its own fresh process: the replay cache bounded by
   bytes (FAIRDEAL_CACHE_BYTES, default and small) against the baseline of no bound (every game kept).

    python bench/bench_footprint.py [--games 60] [--rule-set spades] [--memory-games 150]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from bench.bench_service import start_redis, stop  # noqa: E402

KINDS = ("table", "log", "logmeta", "idem", "secret")


def make_app(data: str, redis_url: str | None, **cfg):
    from fairdeal.service.app import create_app
    from fairdeal.service.config import Config

    return create_app(
        Config(
            data_dir=data,
            redis_url=redis_url,
            rate_limits=False,
            log_level="WARNING",
            card_clock=None,
            other_clock=None,
            **cfg,
        )
    )


def play_games(app, n: int, rule_set: str, on_end=None) -> list[str]:
    """n games of one human seat (the suggested move, each with an Idempotency-Key) and bots, to their end;
    `on_end(game_id)` as each one ends."""
    import uuid

    c = app.test_client()
    p = c.post("/players", json={"name": "bench"}).get_json()
    h = {"Authorization": "Bearer " + p["token"]}
    ids = []
    for _ in range(n):
        gid = c.post("/tables", json={"rule_set": rule_set, "clocks": "off"}, headers=h).get_json()["id"]
        c.post(f"/tables/{gid}/start", headers=h)
        while True:
            v = c.get(f"/games/{gid}", headers=h).get_json()
            if v["status"] == "over":
                break
            move = v["suggested"] if v["suggested"] in v["legal_moves"] else v["legal_moves"][0]
            c.post(
                f"/games/{gid}/moves",
                json={"seq": v["seq"], "move": move},
                headers={**h, "Idempotency-Key": uuid.uuid4().hex},
            )
        ids.append(gid)
        if on_end:
            on_end(gid)
    return ids


def weigh_one(r, game_id: str) -> dict[str, int]:
    """One game's bytes by key kind (MEMORY USAGE, exact)."""
    from fairdeal.service.store import keys

    names = {
        "table": lambda g: keys.doc("table", g),
        "log": keys.log,
        "logmeta": keys.log_meta,
        "idem": keys.idem,
        "secret": keys.secret,
    }
    return {k: r.memory_usage(names[k](game_id), samples=0) or 0 for k in KINDS}


def mean(weights: list[dict[str, int]]) -> dict[str, float]:
    out = {k: sum(w[k] for w in weights) / len(weights) for k in KINDS}
    out["total"] = sum(out[k] for k in KINDS)
    return out


def weigh(r, ids: list[str]) -> dict[str, float]:
    """Mean bytes per game by key kind, and their total."""
    return mean([weigh_one(r, g) for g in ids])


def salt_share(r, ids: list[str]) -> float:
    """The part of the stored log text that is the records' salts (what dropping them from the stored form,
    recomputed from the game seed on read, would save)."""
    total = salt = 0
    for g in ids:
        for text in r.lrange(f"fd:{{{g}}}:log", 0, -1):
            total += len(text)
            salt += len(b',"salt":"') + 64 + 1 if b'"salt":"' in text else 0
    return salt / total


def redis_footprint(args, tmp: str) -> None:
    import redis

    from fairdeal.service import retention

    proc, port = start_redis(os.path.join(tmp, "redis"))
    url = f"redis://127.0.0.1:{port}/0"
    try:
        r = redis.Redis.from_url(url)
        r.ping()
        archive = os.path.join(tmp, "archive")
        app = make_app(os.path.join(tmp, "data"), url, idem_ttl=args.idem_ttl, archive_dir=archive, retention=0.0)
        services = app.extensions["fairdeal"]
        before = r.info("memory")["used_memory"]
        t0 = time.perf_counter()
        at_end = []  # each game weighed as it ends, within its idempotency TTL
        ids = play_games(app, args.games, args.rule_set, lambda g: at_end.append(weigh_one(r, g)))
        played = time.perf_counter() - t0
        after = r.info("memory")["used_memory"]
        rows = [("just finished", mean(at_end))]
        entries = sum(r.llen(f"fd:{{{g}}}:log") for g in ids) / len(ids)
        text = sum(sum(len(t) for t in r.lrange(f"fd:{{{g}}}:log", 0, -1)) for g in ids) / len(ids)
        share = salt_share(r, ids)
        time.sleep(args.idem_ttl + 0.5)
        rows.append((f"idempotency TTL ({args.idem_ttl:g} s) passed", weigh(r, ids)))
        n = retention.run_all(services)
        rows.append(("archived and deleted", weigh(r, ids)))
        size = sum(os.path.getsize(os.path.join(archive, f)) for f in os.listdir(archive))
        print(
            f"Redis: {args.games} {args.rule_set} games (1 human seat, bots), played in {played:.1f} s; "
            f"{entries:.0f} log entries and {text / 1024:.1f} KiB of log text per game; "
            f"load {os.getloadavg()[0]:.2f}"
        )
        print(
            f"used_memory grew {(after - before) / len(ids) / 1024:.1f} KiB per game while they were played "
            f"(indexes, players and allocator overhead included)"
        )
        print(f"{'state':32} " + " ".join(f"{k:>9}" for k in (*KINDS, "total")) + "   (bytes per game, MEMORY USAGE)")
        for name, w in rows:
            print(f"{name:32} " + " ".join(f"{w[k]:>9.0f}" for k in (*KINDS, "total")))
        print(f"archive: {n} games, {size / n / 1024:.1f} KiB per game of JSON Lines on disk")
        print(
            f"the records' salts are {100 * share:.0f} % of the stored log text (not dropped: see docs/operations.md)"
        )
    finally:
        stop([proc])


def worker_memory(games: int, rule_set: str, cache_bytes: int, cache_games: int) -> None:
    """(In a fresh process.) Play `games` games on the embedded store; print VmRSS in MiB now and then."""
    tmp = tempfile.mkdtemp(prefix="fairdeal-rss-")
    try:
        app = make_app(tmp, None, cache_bytes=cache_bytes, cache_size=cache_games)
        games_ = app.extensions["fairdeal"].games
        marks = []
        step = max(1, games // 4)
        for i in range(0, games, step):
            play_games(app, min(step, games - i), rule_set)
            marks.append(
                (i + min(step, games - i), rss_mib(), games_.cache.cached_bytes / 2**20, len(games_.cache.entries))
            )
        print(json.dumps(marks))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def rss_mib() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def memory_table(args) -> None:
    settings = [
        ("no bound (baseline)", 2**62, 10**9),
        ("FAIRDEAL_CACHE_BYTES 16 MiB (default)", 16 << 20, 512),
        (f"FAIRDEAL_CACHE_BYTES {args.small_cache >> 20} MiB", args.small_cache, 512),
    ]
    print(
        f"\nworker memory after N {args.rule_set} games (one process, embedded store; VmRSS MiB / cached log "
        f"MiB / games cached), load {os.getloadavg()[0]:.2f}"
    )
    for name, cache_bytes, cache_games in settings:
        out = subprocess.run(
            [
                sys.executable,
                __file__,
                "--worker",
                str(args.memory_games),
                args.rule_set,
                str(cache_bytes),
                str(cache_games),
            ],
            capture_output=True,
            text=True,
            timeout=1800,
        )
        if out.returncode != 0:
            print(f"{name}: failed: {out.stderr[-500:]}")
            continue
        marks = json.loads(out.stdout.strip().splitlines()[-1])
        print(f"{name:38} " + "  ".join(f"{n} games: {rss:.0f} / {c:.1f} / {k}" for n, rss, c, k in marks))
    print(f"load {os.getloadavg()[0]:.2f} after")


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        worker_memory(int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=60, help="games weighed in Redis")
    ap.add_argument("--rule-set", default="spades")
    ap.add_argument("--idem-ttl", type=float, default=3.0, help="the idempotency TTL for part 1, seconds")
    ap.add_argument("--memory-games", type=int, default=150, help="games per worker-memory run (0: skip)")
    ap.add_argument("--small-cache", type=int, default=4 << 20, help="the small byte bound, bytes")
    args = ap.parse_args()
    if not shutil.which("redis-server"):
        print("redis-server is not installed", file=sys.stderr)
        return 2
    tmp = tempfile.mkdtemp(prefix="fairdeal-footprint-")
    os.makedirs(os.path.join(tmp, "redis"))
    try:
        redis_footprint(args, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if args.memory_games:
        memory_table(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
