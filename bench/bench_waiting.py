"""Waiting players: N idle event-feed waiters (one per seat, N/4 tables) held by the service while a load of
moves goes on; every figure beside its baseline measured in the same run. Loopback only, a throwaway
redis-server, exits by itself.

Service A is `fairdeal serve` on its defaults (gunicorn's gevent workers, one per core; its caps, heartbeat and
sweeper; rate limits on, with the per-address limits raised as docs/operations.md ("Limits") says for many
players behind one address, since every client here is 127.0.0.1); service B is a second `fairdeal serve` (1
worker) on the same store: Redis (a throwaway redis-server) or, with `--store embedded`, the same data dir.
Each seat of each table holds a long-poll (`GET /games/{id}/events?after=<seq>&wait=25`, or `--feed sse` for
server-sent events) and re-polls at once with its new seq when answered; `--remote-tables` tables have their
four waiters on B instead of A.

Phases, in this order:
  1. baseline: the move load (`--moves` per second, through A, round-robin over `--active` tables) and the
     quick probe (GET /games/{id} through A, one at a time every 20 ms) with no waiter;
  2. N waiters opened; the server's memory (RSS of A's workers) before and after, per waiter;
  3. idle, no moves: the server's CPU (A's master and workers, not its sweeper) as a share of one core, first
     for `--held` seconds while every wait is held (none has run out yet: information only), then, after a
     settling time of one heartbeat (streams) or one long-poll period (every stream past its first keep-alive,
     every long-poll past its first expiry), over `--idle` seconds: the steady state, which the target judges;
  4. the same move load and probe again, with the N waiters held: the probe's p99 beside phase 1's, and the
     delivery time of each move to each waiter woken by it (the record's `at`, written at its append, to the
     waiter's answer), on A and, separately, on B (a move through A waking a waiter on B).

Games whose humans are all silent are abandoned after 600 s: the run checks before the waiters arrive that the
phases left end before the first idle table's game would be, and stops, saying so, rather than measure a storm of
answers and reconnections.

Targets (issue 25, on a 2-core machine): 5,000 waiters held; probe p99 < 50 ms with them (the ratio to
phase 1 printed); delivery p99 < 100 ms; steady idle CPU < 3 % of a core at 5,000 (< 6 % at 20,000).

    python bench/bench_waiting.py [--waiters 5000] [--moves 50] [--feed long-poll|sse] [--store redis|embedded]
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import os
import random
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

try:
    import aiohttp
except ImportError:  # pragma: no cover
    aiohttp = None

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from bench.bench_service import free_port, start_redis, stop  # noqa: E402
from bench.measure import children, cpu_seconds, load  # noqa: E402,F401  (bench_idle takes some from here)


def raise_fd_limit(want: int) -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    new = want if hard == resource.RLIM_INFINITY else min(want, hard)
    if soft < new:
        resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


# -------------------------------------------------------------------------------------- the processes


def rss_bytes(pids) -> int:
    total = 0
    for pid in pids:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
    return total


def open_fds(pids) -> int:
    return sum(len(os.listdir(f"/proc/{pid}/fd")) for pid in pids)


class Service:
    """`fairdeal serve` (its defaults; `workers` None: its own default), with its sweeper."""

    def __init__(self, name: str, workers: int | None, env: dict, tmp: str):
        self.name, self.port = name, free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        cmd = [
            sys.executable,
            "-m",
            "fairdeal.cli",
            "-d",
            env["FAIRDEAL_DATA"],
            "serve",
            "--bind",
            f"127.0.0.1:{self.port}",
        ] + (["--workers", str(workers)] if workers else [])
        self.log = os.path.join(tmp, f"{name}.log")
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=open(self.log, "wb"))
        self._sweeper: int | None = None

    def _is_sweeper(self, pid: int) -> bool:
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                return b"sweep" in fh.read()
        except OSError:
            return False

    def pids(self) -> list[int]:
        """The server's processes: the master and its workers (the sweeper is counted apart)."""
        return [self.proc.pid] + self.worker_pids()

    def worker_pids(self) -> list[int]:
        return [p for p in children(self.proc.pid) if not self._is_sweeper(p)]

    @property
    def workers(self) -> int:
        return len(self.worker_pids())

    def stop(self) -> None:
        stop([self.proc])


# ---------------------------------------------------------------------------------------- the clients


@dataclass
class Table:
    gid: str
    tokens: list[dict]
    seq: int = 0
    to_move: int = 0
    remote: bool = False


@dataclass
class Stats:
    delivery: dict = field(default_factory=lambda: {"A": [], "B": []})
    measuring: bool = False
    answers: int = 0
    errors: int = 0
    first_error: str | None = None
    refused: dict = field(default_factory=dict)
    pending: int = 0

    def error(self, exc) -> None:
        self.errors += 1
        self.first_error = self.first_error or repr(exc)


def parse_at(text: str) -> float:
    return dt.datetime.strptime(text.replace("Z", "+0000"), "%Y-%m-%dT%H:%M:%S.%f%z").timestamp()


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))] if xs else float("nan")


async def call(sess, method: str, url: str, token: dict | None = None, body=None):
    async with sess.request(method, url, json=body, headers=token or {}) as r:
        return r.status, await r.json(content_type=None)


async def make_table(sess, base: str, i: int, start: bool = True) -> Table:
    """Four players and their open table (an open table is never abandoned); started too unless start=False."""
    tokens = []
    for s in range(4):
        _, p = await call(sess, "POST", base + "/players", body={"name": f"w{i}s{s}"})
        tokens.append({"Authorization": "Bearer " + p["token"]})
    _, t = await call(sess, "POST", base + "/tables", tokens[0], {"rule_set": "spades", "clocks": "off"})
    for s in range(1, 4):
        await call(sess, "POST", f"{base}/tables/{t['id']}/join", tokens[s], {"seat": s})
    table = Table(t["id"], tokens)
    return await start_table(sess, base, table) if start else table


async def start_table(sess, base: str, table: Table) -> Table:
    """Start it: from here its game is abandoned after 600 s with no human move."""
    await call(sess, "POST", f"{base}/tables/{table.gid}/start", table.tokens[0])
    _, v = await call(sess, "GET", f"{base}/games/{table.gid}", table.tokens[0])
    table.seq, table.to_move = v["seq"], v["to_move"]
    return table


async def long_poll_waiter(sess, base: str, where: str, table: Table, seat: int, stats: Stats, stop) -> None:
    after = table.seq
    while not stop.is_set():
        stats.pending += 1
        try:
            async with sess.get(
                f"{base}/games/{table.gid}/events?after={after}&wait=25", headers=table.tokens[seat]
            ) as r:
                body = await r.json(content_type=None)
                status = r.status
        except Exception as exc:  # noqa: BLE001 - counted and reported
            stats.error(exc)
            await asyncio.sleep(1)
            continue
        finally:
            stats.pending -= 1
        if status != 200:
            stats.refused[status] = stats.refused.get(status, 0) + 1
            await asyncio.sleep(2)
            continue
        now = time.time()
        stats.answers += 1
        if body["records"] and stats.measuring:
            stats.delivery[where].append(now - parse_at(body["records"][0]["at"]))
        after = body["seq"]


async def sse_waiter(sess, base: str, where: str, table: Table, seat: int, stats: Stats, stop) -> None:
    after = table.seq
    while not stop.is_set():
        stats.pending += 1
        try:
            async with sess.get(f"{base}/games/{table.gid}/stream?after={after}", headers=table.tokens[seat]) as r:
                if r.status != 200:
                    stats.refused[r.status] = stats.refused.get(r.status, 0) + 1
                    await asyncio.sleep(2)
                    continue
                event = None
                async for raw in r.content:
                    line = raw.decode().rstrip("\n")
                    if line.startswith("event: "):
                        event = line[7:]
                    elif line.startswith("data: ") and event == "record":
                        rec = json.loads(line[6:])
                        if rec["seq"] > after and stats.measuring:
                            stats.delivery[where].append(time.time() - parse_at(rec["at"]))
                        after = max(after, rec["seq"])
                        stats.answers += 1
        except Exception as exc:  # noqa: BLE001
            if not stop.is_set():
                stats.error(exc)
                await asyncio.sleep(1)
        finally:
            stats.pending -= 1


async def mover(sess, base: str, tables: list[Table], rate: float, stop, errors: list) -> None:
    """Moves at `rate` per second, round-robin over `tables` (each GET of the seat to move, then its POST)."""
    next_at = time.monotonic()
    i = 0
    while not stop.is_set() and tables:
        t = tables[i % len(tables)]
        i += 1
        try:
            h = t.tokens[t.to_move]
            _, v = await call(sess, "GET", f"{base}/games/{t.gid}", h)
            if v["status"] == "over" or not v.get("your_turn"):
                tables.remove(t)
                continue
            move = v["suggested"] if v["suggested"] in v["legal_moves"] else v["legal_moves"][0]
            status, r = await call(sess, "POST", f"{base}/games/{t.gid}/moves", h, {"seq": v["seq"], "move": move})
            if status != 201:
                errors.append(f"{status} {r}")
            else:
                t.to_move = r["game"]["to_move"] if r["game"]["to_move"] is not None else t.to_move
        except Exception as exc:  # noqa: BLE001
            errors.append(repr(exc))
        next_at += 1.0 / rate
        await asyncio.sleep(max(0.0, next_at - time.monotonic()))


async def probe(sess, base: str, tables: list[Table], seconds: float, every: float = 0.02) -> list[float]:
    """The quick request, one at a time every `every` seconds (20 ms here; bench_idle: 50 ms): a seat's view of
    a random table. Each request's wall time, in seconds."""
    out = []
    end = time.monotonic() + seconds
    rng = random.Random(7)
    while time.monotonic() < end:
        t = rng.choice(tables)
        t0 = time.perf_counter()
        status, _ = await call(sess, "GET", f"{base}/games/{t.gid}", t.tokens[0])
        out.append(time.perf_counter() - t0)
        if status != 200:
            raise SystemExit(f"probe answered {status}")
        await asyncio.sleep(max(0.0, every - (time.perf_counter() - t0)))
    return out


async def load_phase(sess, a: Service, active: list[Table], rate: float, seconds: float, probe_tables) -> tuple:
    stop = asyncio.Event()
    errors: list = []
    movers = 4
    groups = [active[i::movers] for i in range(movers)]
    tasks = [asyncio.create_task(mover(sess, a.base, g, rate / movers, stop, errors)) for g in groups]
    t0, cpu0, me0 = time.monotonic(), cpu_seconds(a.pids()), own_cpu()
    lat = await probe(sess, a.base, probe_tables, seconds)
    stop.set()
    await asyncio.gather(*tasks)
    wall = time.monotonic() - t0
    return lat, errors, ((cpu_seconds(a.pids()) - cpu0) / wall, (own_cpu() - me0) / wall)


def own_cpu() -> float:
    """CPU seconds of this process (the load generator)."""
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_utime + ru.ru_stime


def ms(x: float) -> str:
    return f"{1000 * x:.1f}"


ABANDON_AFTER = 600.0  # the default FAIRDEAL_ABANDON_AFTER: an idle table's game ends this long after set-up
MARGIN = 30.0


async def run(args, a: Service, b: Service, redis_port: int | None) -> int:
    conn = aiohttp.TCPConnector(limit=0, ttl_dns_cache=None)
    timeout = aiohttp.ClientTimeout(total=None, sock_connect=30)
    async with aiohttp.ClientSession(connector=conn, timeout=timeout) as sess:
        n_tables = args.waiters // 4
        print(f"setting up {n_tables} tables of 4 seats ...", flush=True)
        t0 = time.monotonic()
        sem = asyncio.Semaphore(32)

        async def one(i):
            async with sem:
                return await make_table(sess, a.base, i, start=False)

        async def started(t):
            async with sem:
                return await start_table(sess, a.base, t)

        tables = await asyncio.gather(*[one(i) for i in range(n_tables)])
        print(f"  {n_tables} tables seated in {time.monotonic() - t0:.0f} s (open: not abandoned)", flush=True)
        t0 = time.monotonic()  # the games' clock of abandonment starts with their start
        tables = await asyncio.gather(*[started(t) for t in tables])
        print(f"  {n_tables} tables started in {time.monotonic() - t0:.0f} s", flush=True)
        settle = args.heartbeat if args.feed == "sse" else 25.0
        left = args.seconds + args.ramp + 4 + args.held + settle + args.idle + args.seconds
        if time.monotonic() - t0 + left > ABANDON_AFTER - MARGIN:
            print(
                f"NOT measured: set-up took {time.monotonic() - t0:.0f} s and the phases need {left:.0f} s more: "
                f"the first tables' games would be abandoned (at {ABANDON_AFTER:.0f} s) during the run, and "
                f"every waiter answered at once. Fewer --waiters on this machine, or a quieter one."
            )
            return 0
        rng = random.Random(1)
        active = rng.sample(tables, min(args.active, len(tables)))
        remote = active[: args.remote_tables]
        for t in remote:
            t.remote = True
        probe_tables = tables

        # 1. baseline
        lat0, err0, cpu_0 = await load_phase(sess, a, list(active), args.moves, args.seconds, probe_tables)
        print(f"  baseline: {len(lat0)} probes, p50 {ms(pct(lat0, 0.5))} ms, p99 {ms(pct(lat0, 0.99))} ms", flush=True)

        # 2. the waiters
        rss0, fds0 = rss_bytes(a.worker_pids()), open_fds(a.worker_pids())
        stats, stop = Stats(), asyncio.Event()
        waiter = sse_waiter if args.feed == "sse" else long_poll_waiter
        tasks = []
        for i, t in enumerate(tables):
            svc, where = (b, "B") if t.remote else (a, "A")
            for seat in range(4):
                tasks.append(asyncio.create_task(waiter(sess, svc.base, where, t, seat, stats, stop)))
            if i % 25 == 24:  # open them over --ramp seconds, as players arrive
                await asyncio.sleep(args.ramp * 25 / len(tables))
        for _ in range(300):  # until the server holds them all (its descriptors tell)
            held = open_fds(a.worker_pids()) - fds0
            if held >= 4 * (len(tables) - len(remote)) - 10:
                break
            await asyncio.sleep(0.2)
        await asyncio.sleep(2)
        held_fds = open_fds(a.worker_pids()) - fds0
        rss1 = rss_bytes(a.worker_pids())
        n_a = 4 * (len(tables) - len(remote))
        print(
            f"  {len(tasks)} waiters open ({n_a} on A, {len(tasks) - n_a} on B); A holds {held_fds} more descriptors",
            flush=True,
        )

        # 3. idle: first while every wait is held and none has run out (the cost of holding them), then over
        # a whole long-poll period (each long-poll answers after 25 s and is made again: steady state)
        def window():
            return cpu_seconds(a.pids()), time.monotonic(), stats.answers

        c0, w0, n0 = window()
        await asyncio.sleep(args.held)
        c1, w1, n1 = window()
        await asyncio.sleep(max(0.0, settle + 2 - args.held))  # past the first keep-alive / long-poll expiry
        c2, w2, n2 = window()
        await asyncio.sleep(args.idle)
        c3, w3, n3 = window()
        held_cpu, held_answers = ((c1 - c0) / (w1 - w0), (n1 - n0) / (w1 - w0)) if args.held else (0.0, 0.0)
        idle_cpu, idle_answers = (c3 - c2) / (w3 - w2), (n3 - n2) / (w3 - w2)

        # 4. load with the waiters
        stats.measuring = True
        lat1, err1, cpu_1 = await load_phase(sess, a, list(active), args.moves, args.seconds, probe_tables)
        await asyncio.sleep(0.5)  # the last deliveries
        stats.measuring = False
        still = stats.pending
        clients = None
        try:
            import redis

            clients = redis.Redis(port=redis_port).info("clients")["connected_clients"] if redis_port else None
        except Exception:  # noqa: BLE001 - information only
            pass
        stop.set()
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # ------------------------------------------------------------------------------------ the figures
    p99_0, p99_1 = pct(lat0, 0.99), pct(lat1, 0.99)
    dA, dB = stats.delivery["A"], stats.delivery["B"]
    per_waiter = (rss1 - rss0) / max(1, n_a)
    print()
    print(
        f"bench_waiting: {len(tasks)} waiters ({args.feed}), {n_tables} tables, moves {args.moves}/s over "
        f"{len(active)} tables, A = gunicorn {a.workers} gevent workers, B = {b.workers} worker, "
        f"one store ({args.store})" + (f"; {', '.join(args.env)}" if args.env else "")
    )
    print(f"{'':34} {'probes':>7} {'p50 ms':>8} {'p99 ms':>8}")
    print(f"{'quick GET, 0 waiters (baseline)':34} {len(lat0):>7} {ms(pct(lat0, 0.5)):>8} {ms(p99_0):>8}")
    print(f"{'quick GET, with the waiters':34} {len(lat1):>7} {ms(pct(lat1, 0.5)):>8} {ms(p99_1):>8}")
    print(f"{'':34} {'answers':>7} {'p50 ms':>8} {'p99 ms':>8}")
    print(f"{'delivery, move via A -> waiter on A':34} {len(dA):>7} {ms(pct(dA, 0.5)):>8} {ms(pct(dA, 0.99)):>8}")
    print(f"{'delivery, move via A -> waiter on B':34} {len(dB):>7} {ms(pct(dB, 0.5)):>8} {ms(pct(dB, 0.99)):>8}")
    for where, ds in (("A", dA), ("B", dB)):
        print(
            f"  delivery on {where}: p90 {ms(pct(ds, 0.9))}, p95 {ms(pct(ds, 0.95))}, max {ms(max(ds, default=0))} ms; "
            f"over 100 ms {sum(d > 0.1 for d in ds)} of {len(ds)}"
        )
    print(
        f"CPU while the moves run, in cores: A {cpu_0[0]:.2f} with 0 waiters, {cpu_1[0]:.2f} with them; the load "
        f"generator {cpu_0[1]:.2f} and {cpu_1[1]:.2f}"
    )
    print(
        f"waiters still held at the end: {still} of {len(tasks)}; errors {stats.errors}, refused {stats.refused}"
        + (f", first error {stats.first_error}" if stats.first_error else "")
    )
    print(
        f"memory: A's workers {rss0 / 2**20:.0f} MiB before the waiters, {rss1 / 2**20:.0f} MiB with them: "
        f"{per_waiter / 1024:.1f} KiB per waiting client"
    )
    expiry = (
        "long-polls answered at 25 s and made again"
        if args.feed == "long-poll"
        else f"streams closed at FAIRDEAL_STREAM_MAX ({args.stream_max:g} s) and made again"
    )
    if args.held:
        print(
            f"idle, no moves, the waits held ({args.held:.0f} s): A's CPU {100 * held_cpu:.2f} % of one core "
            f"({held_answers:.0f} {expiry}/s)"
        )
    print(
        f"idle, no moves, steady state ({args.idle:.0f} s, from {settle + 2:.0f} s after the waiters were all "
        f"held): A's CPU {100 * idle_cpu:.2f} % of one "
        f"core ({idle_answers:.0f} {expiry}/s"
        + (f", {1000 * idle_cpu / idle_answers:.2f} ms of CPU each)" if idle_answers else ")")
    )
    if clients is not None:
        print(f"Redis connections at the end: {clients}")
    print(
        f"move errors: baseline {len(err0)}, with waiters {len(err1)}"
        + (f" ({(err0 + err1)[0]})" if err0 + err1 else "")
    )
    idle_target = 0.03 if len(tasks) <= 5000 else 0.06
    held_ok = still >= 0.99 * len(tasks) and stats.errors == 0 and not stats.refused
    ok = {
        f"{len(tasks)} waiters held (target 5000)": held_ok and len(tasks) >= 5000,
        f"quick p99 {ms(p99_1)} ms with them (< 50 ms; {p99_1 / p99_0:.2f}x the baseline's {ms(p99_0)} ms)": p99_1
        < 0.050,
        f"delivery p99 {ms(pct(dA + dB, 0.99))} ms (< 100 ms)": pct(dA + dB, 0.99) < 0.100 and dB,
        f"steady idle CPU {100 * idle_cpu:.2f} % of a core (< {100 * idle_target:.0f} % at {len(tasks)})": idle_cpu
        < idle_target,
        f"a move through A woke waiters on B ({len(dB)} deliveries)": bool(dB),
    }
    for text, met in ok.items():
        print(f"  {'met    ' if met else 'NOT met'}  {text}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--waiters", type=int, default=5000)
    ap.add_argument("--moves", type=float, default=50.0, help="moves per second through A")
    ap.add_argument("--active", type=int, default=100, help="tables the moves are made at")
    ap.add_argument("--remote-tables", type=int, default=25, help="active tables whose waiters are on B")
    ap.add_argument("--seconds", type=float, default=15.0, help="per load phase")
    ap.add_argument("--ramp", type=float, default=6.0, help="seconds over which the waiters arrive")
    ap.add_argument("--held", type=float, default=8.0, help="seconds of idle with every wait held (< 20 - ramp)")
    ap.add_argument("--idle", type=float, default=30.0, help="seconds of idle after that (a long-poll period)")
    ap.add_argument("--feed", choices=["long-poll", "sse"], default="long-poll")
    ap.add_argument("--store", choices=["redis", "embedded"], default="redis")
    ap.add_argument("--keep", action="store_true", help="keep the services' logs")
    ap.add_argument("--env", action="append", default=[], metavar="NAME=VALUE", help="a setting for both services")
    args = ap.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stop the services on the way out, as on Ctrl-C
    if aiohttp is None:
        print("bench_waiting needs aiohttp: pip install -e '.[dev]'", file=sys.stderr)
        return 1
    if not shutil.which("redis-server"):
        print("redis-server is not installed", file=sys.stderr)
        return 1
    limit = raise_fd_limit(2 * args.waiters + 2048)
    if limit < args.waiters + 1024:
        print(f"the open-file limit is {limit}: too low for {args.waiters} connections (ulimit -n)", file=sys.stderr)
        return 1
    from fairdeal.service.config import Config

    args.heartbeat, args.stream_max = Config().heartbeat, Config().stream_max
    tmp = tempfile.mkdtemp(prefix="fairdeal-waiting-")
    print(f"{load()} before the run", flush=True)
    rport, redis_proc = None, None
    if args.store == "redis":
        redis_proc, rport = start_redis(tmp, "--maxclients", "30000")
    services: list[Service] = []
    try:
        # fairdeal serve's defaults; only the limits of one address raised, as docs/operations.md ("Limits") says
        # where many players share an address: every client here is 127.0.0.1
        env = {k: v for k, v in os.environ.items() if not k.startswith("FAIRDEAL_")}
        env.update(
            FAIRDEAL_DATA=tmp,
            PYTHONPATH=ROOT,
            FAIRDEAL_LIMIT_ADDRESS="1000000/minute",
            FAIRDEAL_LIMIT_PLAYERS="1000000/minute",
        )
        env.update(dict(kv.split("=", 1) for kv in args.env))
        if rport:
            env["FAIRDEAL_REDIS_URL"] = f"redis://127.0.0.1:{rport}/0"
        services = [Service("A", None, env, tmp), Service("B", 1, env, tmp)]
        for s in services:
            for _ in range(300):
                try:
                    socket.create_connection(("127.0.0.1", s.port), timeout=1).close()
                    break
                except OSError:
                    if s.proc.poll() is not None:
                        raise SystemExit(f"service {s.name} exited: " + open(s.log).read()[-2000:]) from None
                    time.sleep(0.1)
        rc = asyncio.run(run(args, *services, rport))
        for s in services:  # what went wrong on the servers, if anything
            errors = [line for line in open(s.log) if '"level": "error"' in line]
            if errors:
                print(f"service {s.name} logged {len(errors)} errors; the first ends: {errors[0][-1200:]}")
        return rc
    finally:
        for s in services:
            s.stop()
        if redis_proc is not None:
            stop([redis_proc])
        print(f"{load()} after the run")
        if args.keep:
            print(f"logs kept in {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
