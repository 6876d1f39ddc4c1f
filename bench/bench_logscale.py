"""The transparency log at scale (issue 23, section 3): memory that does not grow with history.

For each size (default 10 k and 1 M leaves; `--sizes 10000,1000000,10000000` for the issue's 10 M) and each store
(SQLite, Redis: one throwaway redis-server), a synthetic log is set up, then measured:

  - append leaves/s: games' commitment leaves through the store's own append (SQLite: append_with_leaf, one
    transaction each; Redis: append_with_leaf, then the sweeper's sequencing round every 100 leaves), hashes
    stored as they go;
  - inclusion and consistency proof latency (p50/p99 over random leaves and sizes), through TransLog (the
    head, the leaf and one batched read of stored hashes from the store);
  - per process, in a fresh child process: the time from its start to its first proof answered (imports
    included, and the log part alone) and its RSS after answering proofs;
  - the watcher (`fairdeal-verify log`'s logwatch.watch_source) for 1,000 new leaves, from the state it kept at
    the old size (a checkpoint and a compact range), fetching from the service's TransLog in-process.

Baseline, in the same run: the implementation before stored hashes (bench/baseline_translog.py and
bench/baseline_logwatch.py, verbatim from commit 8cc9849): each process builds the tree of every leaf in memory;
the watcher's state is every leaf, re-read and re-hashed each run. Measured up to `--old-max` leaves (it cannot
hold the largest logs: that is the point).

Set-up writes the leaves and their stored hashes in bulk, straight into the store's tables/keys (SQLite with
synchronous=OFF; Redis pipelines), for speed; the hashes are made by fairdeal.core.storedhash.Appender, the
very code the store's append and fill use (merkle.leaf_hash, storedhash.hashes_for_append), and the root they give
is checked against an independent compact range (compact.py) before anything is measured.

Latencies are wall-clock (what a client waits); CPU time (process_time) is printed beside them, with the load.

    python bench/bench_logscale.py [--sizes 10000,1000000] [--stores sqlite,redis] [--old-max 1000000]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.bench_service import start_redis, stop  # noqa: E402
from fairdeal.core import merkle, storedhash  # noqa: E402
from fairdeal.core.compact import CompactRange  # noqa: E402

TARGETS = {"rss_mb": 20.0, "proof_p99_ms": 5.0, "start_s": 1.0, "watch_s": 1.0}
BATCH = 20_000


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def leaf_text(i: int) -> str:
    """Leaf i of the synthetic log: game i // 2's commitment (even i) or ending (odd i), canonical JSON of the
    size of real ones (about 230 bytes)."""
    g = f"{i // 2:016x}"
    if i % 2 == 0:
        return (
            f'{{"commit":"{i:064x}","commitment":"{i + 1:064x}","game_id":"{g}","time":"2026-11-29T17:00:00Z",'
            '"type":"commitment"}'
        )
    return (
        f'{{"dealt":true,"game_id":"{g}","reason":"finished","time":"2026-11-29T17:30:00Z","transcript":"{i:064x}",'
        '"type":"ending"}'
    )


# ------------------------------------------------------------------------------------------------ set-up


def build(n: int, write) -> bytes:
    """Leaves 0..n-1 and their stored hashes, handed to write(start, texts, hash_at, hashes) in batches; the root
    (checked against an independent compact range)."""
    appender, check, at = storedhash.Appender(0, lambda ix: []), CompactRange(), 0
    for lo in range(0, n, BATCH):
        texts = [leaf_text(i) for i in range(lo, min(n, lo + BATCH))]
        for t in texts:
            h = merkle.leaf_hash(t.encode("utf-8"))
            appender.append(h)
            check.append(h)
        write(lo, texts, at, appender.hashes)
        at += len(appender.hashes)
        appender.hashes = []
    assert at == storedhash.stored_hash_count(n)
    return check.root()


def build_sqlite(path: str, n: int) -> bytes:
    import sqlite3

    from fairdeal.service.store.sqlite import SqliteStore

    SqliteStore(path).close()  # the schema
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA synchronous=OFF")

    def write(start, texts, hash_at, hashes):
        db.execute("BEGIN")
        db.executemany(
            "INSERT INTO tlog (idx, game_id, type, leaf) VALUES (?, ?, ?, ?)",
            [
                (start + k, f"{(start + k) // 2:016x}", "ending" if (start + k) % 2 else "commitment", t)
                for k, t in enumerate(texts)
            ],
        )
        db.executemany("INSERT INTO tlog_hash (idx, hash) VALUES (?, ?)", list(enumerate(hashes, start=hash_at)))
        db.execute("COMMIT")

    root = build(n, write)
    db.close()
    return root


def build_redis(url: str, n: int) -> bytes:
    import redis

    from fairdeal.service.store import keys
    from fairdeal.service.store.redis_tlog import _chunk_writes

    r = redis.Redis.from_url(url)
    r.flushdb()

    def write(start, texts, hash_at, hashes):
        pipe = r.pipeline(transaction=False)
        for k in range(0, len(texts), 2000):
            pipe.rpush(keys.tlog_leaves(), *texts[k : k + 2000])
        for key, offset, blob in _chunk_writes(hash_at, hashes):
            pipe.setrange(key, offset, blob)
        pipe.set(keys.tlog_hashed(), start + len(texts))
        pipe.execute()

    root = build(n, write)
    r.close()
    return root


# ------------------------------------------------------------------------------------------------ the service side


def open_store(spec: str):
    kind, where = spec.split(":", 1)
    if kind == "sqlite":
        from fairdeal.service.store.sqlite import SqliteStore

        return SqliteStore(where)
    from fairdeal.service.store.redis import RedisStore

    return RedisStore(where)


def translog_for(store, data_dir: str, old: bool = False):
    from fairdeal.service.config import Config
    from fairdeal.service.signing import KeyRing

    if old:
        from bench.baseline_translog import TransLog
    else:
        from fairdeal.service.translog import TransLog
    return TransLog(store, KeyRing(data_dir), Config(data_dir=data_dir), time.time)


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))]


def redis_cpu(store) -> float:
    """The redis-server's CPU seconds so far (0 for SQLite, whose work is in this process)."""
    if not hasattr(store, "r"):
        return 0.0
    info = store.r.info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


def proofs(translog, n: int, count: int, rng: random.Random) -> dict:
    """Wall and CPU (this process's, per call) latencies of inclusion and consistency proofs."""
    inc, con, inc_cpu, con_cpu = [], [], [], []
    s0 = redis_cpu(translog.store)
    for _ in range(count):
        i, m = rng.randrange(n), rng.randint(1, n)
        for fn, arg, wall, cpu in ((translog.inclusion, i, inc, inc_cpu), (translog.consistency, m, con, con_cpu)):
            t0, c0 = time.perf_counter(), time.process_time()
            fn(arg, n)
            wall.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
    server = (redis_cpu(translog.store) - s0) / (2 * count)
    return {
        "inc_p50": pct(inc, 0.5) * 1e3,
        "inc_p99": pct(inc, 0.99) * 1e3,
        "con_p50": pct(con, 0.5) * 1e3,
        "con_p99": pct(con, 0.99) * 1e3,
        "inc_cpu_p99": pct(inc_cpu, 0.99) * 1e3,
        "con_cpu_p99": pct(con_cpu, 0.99) * 1e3,
        "server_cpu_ms": server * 1e3,
    }


OLD_SEQUENCE = """
local out = {}
for i = 1, #ARGV, 2 do
  local at = redis.call('HGET', KEYS[2], ARGV[i])
  if not at then
    at = redis.call('RPUSH', KEYS[1], ARGV[i + 1]) - 1
    redis.call('HSET', KEYS[2], ARGV[i], at)
  end
  out[#out + 1] = tonumber(at)
end
return out
"""  # the sequencing script before stored hashes (commit 8cc9849), verbatim


def old_appends(store):
    """The store's append as it was before stored hashes (commit 8cc9849): the same writes, no hash."""
    from fairdeal.service.store import keys

    if hasattr(store, "r"):
        script = store.r.register_script(OLD_SEQUENCE)

        def place(named):
            script(keys=[keys.tlog_leaves(), keys.tlog_games()], args=[x for pair in named for x in pair])
            return True

        old = type(store).__new__(type(store))
        old.__dict__.update(store.__dict__)
        old._place = place
        return old
    from fairdeal.service.store.base import CONFLICT, OK, AppendResult

    def append_with_leaf(game_id, expected_length, record, at, leaf_type, leaf, last_digest=None):
        with store._tx() as db:
            length = db.execute("SELECT COUNT(*) FROM log WHERE game_id=?", (game_id,)).fetchone()[0]
            if length != expected_length or store._last_differs(db, game_id, length, last_digest):
                return AppendResult(CONFLICT, length)
            db.execute("INSERT INTO log (game_id, seq, record, at) VALUES (?,?,?,?)", (game_id, length, record, at))
            db.execute(
                "INSERT INTO tlog (idx, game_id, type, leaf) SELECT COALESCE(MAX(idx) + 1, 0), ?, ?, ? FROM tlog",
                (game_id, leaf_type, leaf),
            )
            return AppendResult(OK, length + 1, length)

    class Old:
        def __getattr__(self, name):
            return getattr(store, name)

    old = Old()
    old.append_with_leaf = append_with_leaf
    return old


def append_round(store, count: int) -> tuple[float, float]:
    """Games' commitment leaves through the store's append (and, on Redis, the sequencer every 100)."""
    redis_like = hasattr(store, "r")
    t0, c0 = time.perf_counter(), time.process_time()
    for k in range(count):
        g = uuid.uuid4().hex[:16]
        text = json.dumps(
            {
                "type": "commitment",
                "game_id": g,
                "commit": "0" * 64,
                "commitment": "1" * 64,
                "time": "2026-11-29T17:00:00Z",
            },
            sort_keys=True,
            separators=(",", ":"),
        )
        assert store.append_with_leaf(g, 0, "commit", 1.0, "commitment", text).status == "ok"
        if redis_like and k % 100 == 99:
            store.tlog_sequence()
    store.tlog_sequence()
    return count / (time.perf_counter() - t0), (time.process_time() - c0) / count * 1e6


def appends(store, count: int, rounds: int = 3) -> dict:
    """New and old appends in alternating rounds (the old ones' leaves then get their hashes, untimed)."""
    new, old = [], []
    old_store = old_appends(store)
    for _ in range(rounds):
        new.append(append_round(store, count))
        old.append(append_round(old_store, count))
        store.tlog_fill_hashes()
    med = lambda xs, k: sorted(x[k] for x in xs)[len(xs) // 2]  # noqa: E731
    return {
        "leaves_per_s": med(new, 0),
        "spread": [round(x[0]) for x in new],
        "cpu_us_per_leaf": med(new, 1),
        "old_leaves_per_s": med(old, 0),
        "old_spread": [round(x[0]) for x in old],
        "old_cpu_us_per_leaf": med(old, 1),
    }


def child(spec: str, data_dir: str, old: bool, count: int, started: float) -> None:
    """A fresh process: open the store, answer its first proof (the start), then `count` more; print figures."""
    import fairdeal.service.config  # noqa: E401,F401
    import fairdeal.service.signing
    import fairdeal.service.store.redis  # noqa: E401,F401

    imported = time.time() - started
    t_log, c_log = time.perf_counter(), time.process_time()
    store = open_store(spec)
    translog = translog_for(store, data_dir, old)
    n = translog.latest_head()["size"]
    translog.inclusion(n // 2, n)
    ready, ready_cpu = time.perf_counter() - t_log, time.process_time() - c_log
    rng = random.Random(3)
    for _ in range(count):
        translog.inclusion(rng.randrange(n), n)
        translog.consistency(rng.randint(1, n), n)
    status = dict(line.split(":", 1) for line in open("/proc/self/status").read().splitlines() if ":" in line)
    print(
        json.dumps(
            {
                "log_ready_s": ready,
                "log_ready_cpu_s": ready_cpu,
                "imports_s": imported,
                "rss_mb": int(status["VmRSS"].split()[0]) / 1024,
                "hwm_mb": int(status["VmHWM"].split()[0]) / 1024,
            }
        )
    )


def run_child(spec: str, data_dir: str, old: bool, count: int = 200) -> dict:
    t0 = time.perf_counter()
    out = subprocess.run(
        [
            sys.executable,
            os.path.abspath(__file__),
            "--child",
            spec,
            "--data-dir",
            data_dir,
            "--count",
            str(count),
            "--started",
            repr(time.time()),
        ]
        + (["--old"] if old else []),
        capture_output=True,
        text=True,
        check=True,
    )
    got = json.loads(out.stdout.strip().splitlines()[-1])
    got["process_s"] = time.perf_counter() - t0  # spawn to exit: interpreter, imports, start, the proofs
    return got


# ------------------------------------------------------------------------------------------------ the watcher


def direct_get(translog):
    """The watcher's GETs answered by the service's TransLog in-process (what the API handlers call)."""
    from urllib.parse import parse_qs, urlsplit

    def get(url: str):
        u = urlsplit(url)
        q = {k: int(v[0]) for k, v in parse_qs(u.query).items()}
        if u.path == "/log/head":
            return translog.latest_head()
        if u.path == "/log/leaves":
            return translog.leaves(q.get("start", 0), q.get("limit", 1000))
        if u.path == "/log/consistency":
            return translog.consistency(q["first"], q["second"])
        raise ValueError(url)

    return get


def add_games(store, leaves: int) -> None:
    """leaves / 2 games committed then ended (so the watcher sees each game whole)."""
    ids = [uuid.uuid4().hex[:16] for _ in range(leaves // 2)]
    for kind in ("commitment", "ending"):
        for g in ids:
            body = {"type": kind, "game_id": g, "time": "2026-11-29T17:00:00Z"}
            body.update(
                {"commit": "0" * 64, "commitment": "1" * 64}
                if kind == "commitment"
                else {"reason": "finished", "dealt": True, "transcript": "2" * 64}
            )
            text = json.dumps(body, sort_keys=True, separators=(",", ":"))
            assert store.append_with_leaf(g, 0 if kind == "commitment" else 1, kind, 1.0, kind, text).status == "ok"
    store.tlog_sequence(limit=leaves)


def watcher_new(store, translog, new: int = 1000) -> dict:
    from fairdeal.core import logwatch
    from fairdeal.core.logstate import LogState

    head = translog.sign_head(store.tlog_sequence())
    n = head["size"]
    state = LogState(head, CompactRange(n, store.tlog_read_hashes(storedhash.subtree_indexes(0, n))), 1)
    add_games(store, new)
    translog.sign_head(store.tlog_sequence())
    t0, c0 = time.perf_counter(), time.process_time()
    report = logwatch.watch_source("http://service.test", state, get=direct_get(translog))
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    assert report.ok and report.new_leaves == new, report.findings
    return {"watch_s": wall, "watch_cpu_s": cpu}


def watcher_old(store, old_translog, tmp: str, new: int = 1000) -> dict:
    """The old watcher: its state is every leaf (a JSON copy), re-read and re-hashed each run."""
    from bench import baseline_logwatch as old

    size = store.tlog_sequence()
    head = old_translog.sign_head(size)
    path = os.path.join(tmp, "old-state.json")
    leaves = []
    for lo in range(0, size, 10_000):
        leaves += [json.loads(t) for t in store.tlog_leaves(lo, min(size, lo + 10_000))]
    old.save_copy(path, old.LogCopy([head], leaves))
    del leaves
    add_games(store, new)
    old_translog.sign_head(store.tlog_sequence())
    t0, c0 = time.perf_counter(), time.process_time()
    try:
        state = old.load_state(path)
    except old.InputError as exc:  # its own state past 64 MB (about 250,000 leaves): it cannot run at all
        print(f"old watcher at {size} leaves: {exc.message}", flush=True)
        return {"watch_s": None, "watch_cpu_s": None, "refused": exc.message}
    report = old.watch_source("http://service.test", state, get=direct_get(old_translog))
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    assert report.ok and report.new_leaves == new, report.findings
    return {"watch_s": wall, "watch_cpu_s": cpu}


# ------------------------------------------------------------------------------------------------ main


def measure(kind: str, spec: str, n: int, data_dir: str, tmp: str, args) -> dict:
    store = open_store(spec)
    translog = translog_for(store, data_dir)
    head = translog.sign_head(n)
    out = {"proofs": proofs(translog, n, args.proofs, random.Random(1)), "head_root": head["root"]}
    out["fresh"] = run_child(spec, data_dir, False)
    out["append"] = appends(store, args.appends)
    out["watch"] = watcher_new(store, translog)
    if n <= args.old_max:
        old_tl = translog_for(store, data_dir, old=True)
        t0 = time.perf_counter()
        old_tl.sign_head(store.tlog_sequence())  # builds the in-memory tree of every leaf
        out["old_build_s"] = time.perf_counter() - t0
        out["old_proofs"] = proofs(old_tl, n, args.proofs, random.Random(1))
        out["old_fresh"] = run_child(spec, data_dir, True)
        out["old_watch"] = watcher_old(store, old_tl, tmp)
    store.close()
    return out


def fmt(v, digits=2) -> str:
    return "-" if v is None else f"{v:.{digits}f}"


ROWS = (  # label, unit, digits, new figure, old figure (None: no baseline), target key
    (
        "append (leaves/s, median of 3 rounds)",
        "/s",
        0,
        lambda r: r["append"]["leaves_per_s"],
        lambda r: r["append"]["old_leaves_per_s"],
        None,
    ),
    (
        "append CPU per leaf (this process)",
        "us",
        0,
        lambda r: r["append"]["cpu_us_per_leaf"],
        lambda r: r["append"]["old_cpu_us_per_leaf"],
        None,
    ),
    (
        "inclusion proof p99, wall",
        "ms",
        2,
        lambda r: r["proofs"]["inc_p99"],
        lambda r: r["old_proofs"]["inc_p99"],
        "proof_p99_ms",
    ),
    (
        "inclusion proof p50, wall",
        "ms",
        2,
        lambda r: r["proofs"]["inc_p50"],
        lambda r: r["old_proofs"]["inc_p50"],
        None,
    ),
    (
        "inclusion proof p99, CPU (client)",
        "ms",
        2,
        lambda r: r["proofs"]["inc_cpu_p99"],
        lambda r: r["old_proofs"]["inc_cpu_p99"],
        "proof_p99_ms",
    ),
    (
        "consistency proof p99, wall",
        "ms",
        2,
        lambda r: r["proofs"]["con_p99"],
        lambda r: r["old_proofs"]["con_p99"],
        "proof_p99_ms",
    ),
    (
        "consistency proof p99, CPU (client)",
        "ms",
        2,
        lambda r: r["proofs"]["con_cpu_p99"],
        lambda r: r["old_proofs"]["con_cpu_p99"],
        "proof_p99_ms",
    ),
    (
        "redis-server CPU per proof (mean)",
        "ms",
        3,
        lambda r: r["proofs"]["server_cpu_ms"],
        lambda r: r["old_proofs"]["server_cpu_ms"],
        None,
    ),
    (
        "fresh process: store opened to 1st proof",
        "s",
        3,
        lambda r: r["fresh"]["log_ready_s"],
        lambda r: r["old_fresh"]["log_ready_s"],
        "start_s",
    ),
    (
        "  the same, CPU",
        "s",
        3,
        lambda r: r["fresh"]["log_ready_cpu_s"],
        lambda r: r["old_fresh"]["log_ready_cpu_s"],
        "start_s",
    ),
    (
        "  interpreter and imports before it",
        "s",
        2,
        lambda r: r["fresh"]["imports_s"],
        lambda r: r["old_fresh"]["imports_s"],
        None,
    ),
    (
        "fresh process RSS after 200+200 proofs",
        "MB",
        1,
        lambda r: r["fresh"]["rss_mb"],
        lambda r: r["old_fresh"]["rss_mb"],
        None,
    ),
    (
        "watcher run, 1,000 new leaves, wall",
        "s",
        3,
        lambda r: r["watch"]["watch_s"],
        lambda r: r["old_watch"]["watch_s"],
        "watch_s",
    ),
    (
        "watcher run, CPU",
        "s",
        3,
        lambda r: r["watch"]["watch_cpu_s"],
        lambda r: r["old_watch"]["watch_cpu_s"],
        "watch_s",
    ),
)


def _get(fn, r):
    try:
        return fn(r)
    except (KeyError, TypeError):
        return None


def report(results: dict, sizes: list[int]) -> None:
    print(f"\n{load()}")
    for kind, by_size in results.items():
        print(f"\n== {kind}: new (stored hashes, compact range) | old (in-memory tree, every leaf) ==")
        print(f"{'':<44}" + "".join(f"{n:>22,}" for n in sizes if n in by_size) + "   target")
        for label, unit, digits, new, old, target in ROWS:
            cells = []
            for n in sizes:
                if n in by_size:
                    r = by_size[n]
                    cells.append(f"{fmt(_get(new, r), digits):>10} | {fmt(_get(old, r), digits):>9}")
            t = f"< {TARGETS[target]}" if target else ""
            print(f"{label + ' (' + unit + ')':<44}" + "".join(f"{c:>22}" for c in cells) + f"   {t}")
        small, large = by_size.get(min(sizes)), by_size.get(max(sizes))
        if small and large:
            grow = large["fresh"]["rss_mb"] - small["fresh"]["rss_mb"]
            p99 = max(max(r["proofs"]["inc_p99"], r["proofs"]["con_p99"]) for r in by_size.values())
            cpu99 = max(max(r["proofs"]["inc_cpu_p99"], r["proofs"]["con_cpu_p99"]) for r in by_size.values())
            start = max(r["fresh"]["log_ready_s"] for r in by_size.values())
            watch = max(r["watch"]["watch_s"] for r in by_size.values())
            print(f"targets, {kind}, {min(sizes):,} -> {max(sizes):,} leaves (the worst size):")
            for name, got, target, unit in (
                ("RSS growth", grow, TARGETS["rss_mb"], "MB"),
                ("proof p99, wall", p99, TARGETS["proof_p99_ms"], "ms"),
                ("proof p99, client CPU", cpu99, TARGETS["proof_p99_ms"], "ms"),
                ("start (store opened to first proof)", start, TARGETS["start_s"], "s"),
                ("watcher, 1,000 new leaves", watch, TARGETS["watch_s"], "s"),
            ):
                print(
                    f"  {name:<38} {got:8.3f} {unit:<2}  target < {target} {unit}: "
                    f"{'met' if got < target else 'NOT met'}"
                )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="10000,1000000")
    ap.add_argument("--stores", default="sqlite,redis")
    ap.add_argument("--old-max", type=int, default=1_000_000)
    ap.add_argument("--proofs", type=int, default=1000)
    ap.add_argument("--appends", type=int, default=2000)
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--data-dir", help=argparse.SUPPRESS)
    ap.add_argument("--count", type=int, default=200, help=argparse.SUPPRESS)
    ap.add_argument("--old", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--started", type=float, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child, args.data_dir, args.old, args.count, args.started)
        return 0
    sizes = sorted(int(x) for x in args.sizes.split(","))
    tmp = tempfile.mkdtemp(prefix="bench-logscale-")
    procs = []
    results: dict[str, dict[int, dict]] = {}
    print(load())
    try:
        data_dir = os.path.join(tmp, "data")
        os.makedirs(data_dir)
        for kind in args.stores.split(","):
            for n in sizes:
                t0 = time.perf_counter()
                if kind == "sqlite":
                    path = os.path.join(tmp, f"log-{n}.sqlite3")
                    root, spec = build_sqlite(path, n), f"sqlite:{path}"
                else:
                    if not procs:
                        proc, port = start_redis(tmp)
                        procs.append(proc)
                    spec = f"redis:redis://127.0.0.1:{port}/0"
                    root = build_redis(spec.split(":", 1)[1], n)
                print(f"{kind}: {n} leaves set up in {time.perf_counter() - t0:.1f} s ({load()})", flush=True)
                got = measure(kind, spec, n, data_dir, tmp, args)
                assert got["head_root"] == root.hex(), "the stored hashes do not make the tree's root"
                results.setdefault(kind, {})[n] = got
                print(json.dumps({"store": kind, "leaves": n, **got}), flush=True)
                if kind == "sqlite":
                    os.remove(path)
        report(results, sizes)
    finally:
        stop(procs)
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
