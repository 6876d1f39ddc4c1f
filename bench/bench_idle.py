"""What idle event-feed waiters cost `fairdeal serve` on its defaults: N streams (or long-polls), nothing happening,
the server's CPU in the steady state; the quick requests beside them; with `--restart`, what a restart under
them costs. Embedded store or Redis (`--store`), loopback, exits by itself.

The server is `fairdeal serve` as shipped (gunicorn, its default workers, caps and heartbeat, the sweeper beside
it, rate limits on), with only what docs/operations.md ("Limits") says to change where many players share one
address raised: every client here is 127.0.0.1, so FAIRDEAL_LIMIT_ADDRESS and FAIRDEAL_LIMIT_PLAYERS are raised.
N/4 Spades tables of four human seats, clocks off; every seat holds a stream (`GET /games/{id}/stream`) or a
long-poll (`?wait=25`, made again at once when answered).

This process sets the tables up and measures the server; the waiters are held by `--clients` client processes
(bench/feed_clients.py: each an asyncio loop, reporting its counts over a pipe), by default one per 8,000
waiters: one process cannot hold 20,000 connections under a hard open-file limit of 20,000 (`ulimit -Hn`).
They reconnect as docs/api.md specifies the clients (`--reconnect jitter`, feed.js's full jitter from the
stream's `retry:`) or as a browser's EventSource does (`--reconnect eventsource`: exactly `retry:`).

Phases: set-up (tables, then the waiters; the CPU of opening them counted per waiter); the quick probe with no
waiter (a seat's view, one GET every 50 ms, `--probe` seconds); a settling time of one heartbeat (streams) or
one long-poll period past the last waiter's arrival, so that the window below sees the steady state (every
stream past its first keep-alive, every long-poll past its first expiry), not the quiet start; then the window:
the server's CPU (master and workers; the sweeper shown apart), the keep-alives or expiries the clients
received, CPU per keep-alive; then the quick probe again beside the waiters (after the window, so that its
requests are not in the idle figure). A stream is also closed at FAIRDEAL_STREAM_MAX and opened again; its
cost in the steady state is N / (the mean stream life) reopenings a second at the measured cost of an opening,
printed beside the window's figure (the window is shorter than a stream's life). `--window 0` skips the
window and the probes (a restart-only run).

`--restart hup|stop-start|both`, with every waiter open: a restart as docs/operations.md describes one, open
waits given gunicorn's graceful_timeout (30 s) before they are cut. `hup`: `kill -HUP` of gunicorn's master
(new workers at once on the same listener, the old ones stopped gracefully). `stop-start`: SIGTERM to the
master (its listener closed at once; what a service manager's restart does), then `fairdeal serve` started
again on the same port once it has exited. Measured: when the feeds were lost and when every one was open
again (and each lost feed's time to come back), the client-side errors by kind (refused, reset, cut: a
response ended mid-body, timeout) and refusals, the kernel's ListenOverflows/ListenDrops over the restart, and
the server's CPU from the first loss until all were open again.

The kernel's TcpExt ListenOverflows and ListenDrops (/proc/net/netstat: this network namespace, every listener
in it) are printed before and after the run.

Games with silent humans are abandoned 600 s after their start (FAIRDEAL_ABANDON_AFTER): the tables are seated
first (an open table is never abandoned) and all started afterwards, and the run stops, saying so, rather than
measure past the first abandonment (the waiters would all be answered and reconnect at once).

The baseline is the same server with the same tables and no waiter (its idle CPU over a window as long; the
quick probe with no waiter). Targets (issue 25, 2-core machine): idle steady state < 3 % of one core at 5,000
streams, < 6 % at 20,000; quick p99 < 50 ms beside them; a restart under 10,000 clients without overflowing the
accept queue.

    python bench/bench_idle.py [--waiters 5000] [--clients N] [--store embedded|redis] [--feed sse|long-poll]
        [--window 60] [--probe 15] [--restart hup|stop-start|both] [--reconnect jitter|eventsource] [--ramp 0]
        [--keep-log PATH]

The server's store-outage log lines (errors.OutageLog) are summed at the end: how many requests the store
refused, by kind (pool-stalled: the Redis command pool had no connection come back for its timeout;
pool-exhausted, connection-refused, ...), so a run's 503s say where they came from. `--keep-log PATH` keeps the
server's log.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import measure as ms  # noqa: E402
from bench_waiting import (  # noqa: E402
    ROOT,
    aiohttp,
    free_port,
    make_table,
    pct,
    probe,
    raise_fd_limit,
    start_redis,
    start_table,
    stop,
)
from feed_clients import Clients  # noqa: E402

PER_CLIENT = 8000  # waiters per client process by default (each needs a descriptor per waiter, below 20,000)
MARGIN = 30.0
STANDIN_AFTER = 3600.0  # the bench's stand-in time (below, in main): beyond any run
RESTART_ROOM = 90.0  # s a restart is given past graceful_timeout before the abandonment check refuses it


class Server:
    """`fairdeal serve` on one port, which can be stopped and started again there (a restart)."""

    def __init__(self, port: int, env: dict, tmp: str):
        self.port, self.env = port, env
        self.base = f"http://127.0.0.1:{port}"
        self.cmd = [sys.executable, "-m", "fairdeal.cli", "-d", tmp, "serve", "--bind", f"127.0.0.1:{port}"]
        self.log = os.path.join(tmp, "serve.log")
        self.proc: subprocess.Popen | None = None
        self.sweeper: int | None = None

    def start(self) -> None:
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(self.cmd, cwd=ROOT, env=self.env, stdout=subprocess.DEVNULL, stderr=log)
        self.sweeper = None

    def listens(self) -> bool:
        try:
            socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
            return True
        except OSError:
            return False

    async def listening(self, timeout: float = 120) -> None:
        end = time.monotonic() + timeout
        while not self.listens():
            if self.proc.poll() is not None:
                raise SystemExit("the server exited: " + open(self.log).read()[-2000:])
            if time.monotonic() > end:
                raise SystemExit("the server did not listen")
            await asyncio.sleep(0.1)
        await asyncio.sleep(1)  # its sweeper and workers started
        self.find_sweeper()

    def find_sweeper(self) -> None:
        for p in ms.children(self.proc.pid):
            try:
                if "sweep" in open(f"/proc/{p}/cmdline").read():
                    self.sweeper = p
            except OSError:
                pass

    def workers(self) -> list[int]:
        return [p for p in ms.children(self.proc.pid) if p != self.sweeper]

    def cpu(self) -> float:
        """CPU seconds of the master and its workers, live or exited (not the sweeper)."""
        return ms.cpu_with_reaped(self.proc.pid, exclude=(self.sweeper,))

    def sweeper_cpu(self) -> float:
        return ms.cpu_seconds([self.sweeper]) if self.sweeper else 0.0


def store_refusals(log: str) -> tuple[int, int, dict[str, int]]:
    """From the server's log: its store-outage lines, the requests they say were refused, and those by kind. Each
    line counts the refusals since the one before (errors.OutageLog): refusals after the last line of an
    outage still going on when the server stopped are in none."""
    lines, total, by_kind = 0, 0, {}
    with open(log, encoding="utf-8", errors="replace") as f:
        for raw in f:
            if '"refused"' not in raw:
                continue
            try:
                entry = json.loads(raw)
            except ValueError:
                continue
            if not str(entry.get("msg", "")).startswith("store"):
                continue
            lines += 1
            total += int(entry.get("refused", 0))
            for kind, n in (entry.get("refused_by") or {}).items():
                by_kind[kind] = by_kind.get(kind, 0) + int(n)
    return lines, total, by_kind


def delta(after: dict, before: dict) -> dict:
    return {k: v - before.get(k, 0) for k, v in after.items() if v - before.get(k, 0)}


def ms_text(xs: list[float]) -> str:
    return f"p50 {1000 * pct(xs, 0.5):.1f} ms, p99 {1000 * pct(xs, 0.99):.1f} ms ({len(xs)} requests)"


async def run(args, server: Server) -> None:
    base = server.base

    def age() -> float:
        return time.monotonic() - started

    conn = aiohttp.TCPConnector(limit=0, ttl_dns_cache=None)
    async with aiohttp.ClientSession(
        connector=conn, timeout=aiohttp.ClientTimeout(total=None, sock_connect=60)
    ) as sess:
        sem = asyncio.Semaphore(32)

        async def one(i):
            async with sem:
                return await make_table(sess, base, i, start=False)

        async def begin(t):
            async with sem:
                return await start_table(sess, base, t)

        t0 = time.monotonic()
        tables = await asyncio.gather(*[one(i) for i in range(args.waiters // 4)])
        print(
            f"  {len(tables)} tables seated in {time.monotonic() - t0:.0f} s (open tables are never abandoned)",
            flush=True,
        )
        started = time.monotonic()  # abandonment counts from a game's start
        tables = await asyncio.gather(*[begin(t) for t in tables])
        print(f"  {len(tables)} tables started in {age():.0f} s", flush=True)

        # the baseline: the same server and tables, no waiter
        await asyncio.sleep(2)
        c0, w0 = server.cpu(), time.monotonic()
        await asyncio.sleep(args.baseline)
        base_cpu = (server.cpu() - c0) / (time.monotonic() - w0)
        probe0 = await probe(sess, base, tables, args.probe, args.probe_every) if args.window and args.probe else []

        feeds = [(t.gid, t.tokens[s], t.seq) for t in tables for s in range(4)]
        n, k = len(feeds), args.clients
        shares = [feeds[i * n // k : (i + 1) * n // k] for i in range(k)]
        c0, t0, lc0 = server.cpu(), time.monotonic(), ms.listen_counters()
        clients = Clients(base, args.feed, shares, args.reconnect, args.ramp)
        collector = asyncio.create_task(clients.collect())
        try:
            while clients.total().get("opened", 0) < n and time.monotonic() - t0 < args.ramp + args.open_timeout:
                if clients.dead():
                    raise SystemExit(f"a client process exited: {clients.dead()}")
                await asyncio.sleep(0.2)
            counts = clients.total()
            opened = counts.get("opened", 0)
            open_cpu = (server.cpu() - c0) / max(1, opened)
            print(
                f"  {opened} of {n} waiters opened in {time.monotonic() - t0:.0f} s by {k} client processes "
                f"({1000 * open_cpu:.2f} ms of server CPU each); table age {age():.0f} s; client errors "
                f"{counts.get('kinds') or 'none'}, refused {counts.get('status') or 'none'}; kernel "
                f"{ms.listen_text(lc0, ms.listen_counters())}",
                flush=True,
            )
            settle = (args.heartbeat if args.feed == "sse" else 25.0) if args.window else 5.0
            restarts = ["hup", "stop-start"] if args.restart == "both" else [args.restart] if args.restart else []
            need = settle + 2 + args.window + (args.probe if args.window else 0)
            need += len(restarts) * (args.graceful + RESTART_ROOM)
            if age() + need > args.abandon_after - MARGIN:
                print(
                    f"NOT measured: set-up took {age():.0f} s; with {settle:.0f} s to settle, a {args.window:.0f} s "
                    f"window, the probe and {len(restarts)} restarts the first games would be abandoned (at "
                    f"{args.abandon_after:.0f} s) before the end"
                )
                return
            await asyncio.sleep(settle + 2)
            if args.window:
                await window(args, sess, server, clients, tables, n, base_cpu, open_cpu, probe0, age)
            for how in restarts:
                if age() + args.graceful + RESTART_ROOM > args.abandon_after - MARGIN:
                    print(f"restart {how} NOT measured: table age {age():.0f} s, the games would be abandoned")
                    continue
                await restart(how, args, server, clients, n)
                await asyncio.sleep(5)
        finally:
            collector.cancel()
            clients.stop()


async def window(args, sess, server: Server, clients: Clients, tables, n, base_cpu, open_cpu, probe0, age):
    """The steady state's CPU over the window, then the quick probe beside the waiters."""
    counts = clients.total()
    k0, e0, c0, w0, a0 = counts["keepalives"], counts["expiries"], server.cpu(), time.monotonic(), age()
    me0 = counts["cpu"]
    sw0 = server.sweeper_cpu()
    await asyncio.sleep(args.window)
    wall = time.monotonic() - w0
    cpu = (server.cpu() - c0) / wall
    sweep = (server.sweeper_cpu() - sw0) / wall
    counts = clients.total()
    kps, eps = (counts["keepalives"] - k0) / wall, (counts["expiries"] - e0) / wall
    gen = (counts["cpu"] - me0) / wall
    probe1 = await probe(sess, server.base, tables, args.probe, args.probe_every) if args.probe else []
    print()
    settings = "defaults" + (" except " + ", ".join(args.env) if args.env else "")
    print(
        f"bench_idle: {n} {args.feed} waiters in {args.clients} client processes, store {args.store}, "
        f"`fairdeal serve` {settings}; window {wall:.0f} s from table age {a0:.0f} s"
    )
    print(f"  baseline (same server and tables, no waiter): {100 * base_cpu:.2f} % of one core")
    print(
        f"  idle with the waiters: {100 * cpu:.2f} % of one core (sweeper {100 * sweep:.2f} %; the client "
        f"processes {100 * gen:.2f} %)"
    )
    if args.feed == "sse":
        print(
            f"  keep-alives {kps:.0f}/s: {1000 * (cpu - base_cpu) / kps if kps else float('nan'):.3f} ms "
            f"of CPU each (above the baseline); streams closed in the window {eps:.1f}/s"
        )
        reopen = n / (0.9 * args.stream_max) * open_cpu
        total = cpu + reopen
        print(
            f"  + reopening every stream at FAIRDEAL_STREAM_MAX (mean life {0.9 * args.stream_max:.0f} s): "
            f"{100 * reopen:.2f} % -> steady state {100 * total:.2f} % of one core"
        )
    else:
        total = cpu
        print(
            f"  long-poll expiries {eps:.0f}/s: {1000 * (cpu - base_cpu) / eps if eps else float('nan'):.2f} "
            f"ms of CPU each (above the baseline)"
        )
    target = 0.03 if n <= 5000 else 0.06
    print(
        f"  {'met' if total < target else 'NOT met'}: steady idle {100 * total:.2f} % of a core "
        f"(target < {100 * target:.0f} % at {n}); client errors {counts['errors']} {counts['kinds']} (each "
        f"feed asked again after a jittered wait; almost all while the feeds open), refused {counts['status']}"
    )
    for key, detail in counts["details"].items():
        print(f"    {key}: {detail[:300]}")
    if probe1:
        p99 = pct(probe1, 0.99)
        print(
            f"  quick GET of a seat's view, one every {1000 * args.probe_every:.0f} ms: no waiter {ms_text(probe0)}; "
            f"beside the {counts['live']} open waiters {ms_text(probe1)}: "
            f"{'met' if p99 < 0.050 else 'NOT met'} (p99 < 50 ms)"
        )
    print("  " + await gc_text(sess, server.base))


async def gc_text(sess, base: str) -> str:
    """The workers' garbage-collector passes so far (gcfreeze.py, from /metrics): how many, the longest."""
    async with sess.get(base + "/metrics") as r:
        text = await r.text()
    kinds = {k: float(v) for k, v in re.findall(r'^fairdeal_gc_passes_total\{kind="(\w+)"\} (\S+)', text, re.M)}
    buckets = [
        (float(le), float(v))
        for le, v in re.findall(r'^fairdeal_gc_pass_seconds_bucket\{le="([^"+]+)"\} (\S+)', text, re.M)
    ]
    count = float((re.findall(r"^fairdeal_gc_pass_seconds_count (\S+)", text, re.M) or ["0"])[0])
    under = min((le for le, v in buckets if v >= count), default=float("inf")) if count else 0.0
    if not kinds:
        return "garbage-collector passes: none (FAIRDEAL_GC_FREEZE=0)"
    return (
        f"garbage-collector passes: {kinds.get('freeze', 0):.0f} freezes, {kinds.get('thaw', 0):.0f} thaws; "
        f"every pass under {1000 * under:g} ms"
    )


async def restart(how: str, args, server: Server, clients: Clients, n: int) -> None:
    """Restart the server under the open waiters; time their return, count the errors, the kernel's drops."""
    print()
    if how == "hup":
        print(
            f"restart: `kill -HUP` of gunicorn's master under {n} open {args.feed} waiters (new workers on the "
            f"same listener; the old ones hold their requests for graceful_timeout, {args.graceful:g} s)"
        )
    else:
        print(
            f"restart: stop (SIGTERM to the master: its listener closed at once, open requests held for "
            f"graceful_timeout, {args.graceful:g} s) and start again on the same port, under {n} open "
            f"{args.feed} waiters"
        )
    await clients.mark()
    before, lc0 = clients.total(), ms.listen_counters()
    samples: list[tuple[float, float]] = []  # (time, CPU) of the server that serves the reconnections
    t0 = time.monotonic()
    ready_at = None  # hup: the old workers gone; stop-start: the new server listening
    exited_at = None
    if how == "hup":
        old = set(server.workers())
        os.kill(server.proc.pid, signal.SIGHUP)
        samples.append((t0, server.cpu()))
    else:
        server.proc.send_signal(signal.SIGTERM)
    counts = before
    while time.monotonic() - t0 < args.graceful + args.restart_timeout:
        now = time.monotonic()
        if how == "hup":
            samples.append((now, server.cpu()))
            if ready_at is None and not old & set(server.workers()):
                ready_at = now
        elif exited_at is None:
            if server.proc.poll() is not None:
                exited_at = now
                server.start()
        elif ready_at is None:
            if server.listens():
                ready_at = now
                server.find_sweeper()
        else:
            samples.append((now, server.cpu()))
        counts = clients.total()
        settled = ready_at is not None and now - ready_at > 1.5  # the clients have reported since
        if settled and counts["live"] == n and (counts["lost"] == 0 or counts["full_at"] is not None):
            break
        await asyncio.sleep(0.25)
    await asyncio.sleep(0.6)
    counts, lc1 = clients.total(), ms.listen_counters()
    downs = await clients.all_downs()

    def cpu_at(t: float, after: bool) -> float:
        if not samples:
            return float("nan")
        if after:
            return next((c for s, c in samples if s >= t), samples[-1][1])
        return next((c for s, c in reversed(samples) if s <= t), samples[0][1])

    def rel(t) -> str:
        return f"{t - t0:.1f} s" if t is not None else "never"

    first, last, full = counts["first_lost"], counts["last_lost"], counts["full_at"]
    if how == "hup":
        print(f"  the old workers gone at {rel(ready_at)} after the signal")
    else:
        print(f"  the old server exited at {rel(exited_at)} after the signal; the new one listening at {rel(ready_at)}")
    when = f", from {rel(first)} to {rel(last)} after the signal" if first is not None else ""
    print(f"  feeds lost: {counts['lost']}{when}")
    if counts["live"] == n and not counts["lost"]:
        print("  every feed open throughout (none lost: each was answered, or asked again, without an error)")
    elif counts["live"] == n and full is not None:
        print(
            f"  every feed open again at {rel(full)} after the signal: {full - first:.1f} s after the first loss; "
            f"each lost feed's time to open again: p50 {pct(downs, 0.5):.2f} s, p99 {pct(downs, 0.99):.2f} s, "
            f"max {max(downs, default=float('nan')):.2f} s"
        )
    else:
        print(
            f"  NOT all open again {args.graceful + args.restart_timeout:.0f} s after the signal: "
            f"{counts['live']} of {n} open"
        )
    print(
        f"  client errors by kind: {delta(counts['kinds'], before['kinds']) or 'none'}; refusals "
        f"{delta(counts['status'], before['status']) or 'none'}"
    )
    print(f"  kernel: {ms.listen_text(lc0, lc1)} (somaxconn {somaxconn()}; the whole network namespace)")
    start = max(first if first is not None else t0, ready_at if how == "stop-start" and ready_at else t0)
    end = full if full is not None else samples[-1][0] if samples else t0
    if end > start and counts["lost"]:
        cpu = cpu_at(end, True) - cpu_at(start, False)
        print(
            f"  server CPU from the first loss{' (or the new server listening)' if how == 'stop-start' else ''} "
            f"until all were open again: {cpu:.2f} s, {100 * cpu / (end - start):.1f} % of one core over "
            f"{end - start:.1f} s; {1000 * cpu / max(1, counts['back']):.2f} ms per feed opened again"
        )
    if how == "hup" and samples:
        print(
            f"  server CPU from the signal (the new workers' start included) to {rel(end)}: "
            f"{cpu_at(end, True) - samples[0][1]:.2f} s"
        )
    for key, detail in counts["details"].items():
        if key not in before["details"]:
            print(f"    {key}: {detail[:300]}")


def somaxconn() -> str:
    try:
        with open("/proc/sys/net/core/somaxconn") as f:
            return f.read().strip()
    except OSError:
        return "?"


def main() -> int:
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stop the server on the way out, as on Ctrl-C
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--waiters", type=int, default=5000)
    ap.add_argument("--clients", type=int, default=None, help=f"client processes [default: one per {PER_CLIENT}]")
    ap.add_argument("--store", choices=["embedded", "redis"], default="embedded")
    ap.add_argument("--feed", choices=["sse", "long-poll"], default="sse")
    ap.add_argument("--window", type=float, default=60.0, help="seconds of steady state measured (0: none)")
    ap.add_argument("--baseline", type=float, default=15.0, help="seconds of the no-waiter baseline")
    ap.add_argument("--probe", type=float, default=15.0, help="seconds of each quick-request probe (0: none)")
    ap.add_argument("--probe-every", type=float, default=0.05, help="seconds between the probe's requests")
    ap.add_argument("--ramp", type=float, default=0.0, help="seconds over which the waiters open (0: at once)")
    ap.add_argument("--open-timeout", type=float, default=300.0, help="seconds the waiters are given to open")
    ap.add_argument("--restart", choices=["hup", "stop-start", "both"], default=None)
    ap.add_argument(
        "--restart-timeout", type=float, default=120.0, help="seconds past graceful_timeout for every feed to return"
    )
    ap.add_argument("--reconnect", choices=["jitter", "eventsource"], default="jitter")
    ap.add_argument("--keep-log", metavar="PATH", help="copy the server's log (JSON lines) here at the end")
    ap.add_argument(
        "--env",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a setting off its default (to try one; the figures are then not the defaults')",
    )
    args = ap.parse_args()
    args.clients = args.clients or max(1, math.ceil(args.waiters / PER_CLIENT))
    if not any(kv.startswith("FAIRDEAL_STANDIN_AFTER=") for kv in args.env):
        # The seats are silent on purpose. At a table without clocks the bot stands in for a seat whose turn has
        # lasted FAIRDEAL_STANDIN_AFTER (180 s) and plays on: a wave of moves at every table, not idle (a window
        # holding the wave measured 67 % of a core against 1 % beside it, 2026-12-03). Past the run's length:
        args.env.append(f"FAIRDEAL_STANDIN_AFTER={STANDIN_AFTER:.0f}")
    os.environ.update(dict(kv.split("=", 1) for kv in args.env))
    if aiohttp is None:
        print("bench_idle needs aiohttp: pip install -e '.[dev]'", file=sys.stderr)
        return 1
    from fairdeal.service import serving
    from fairdeal.service.config import Config

    defaults = Config.from_env()
    args.heartbeat, args.stream_max = defaults.heartbeat, defaults.stream_max
    args.abandon_after = defaults.abandon_after
    args.graceful = serving.settings(defaults)["graceful_timeout"]
    raise_fd_limit(4096)  # this process: the set-up's and the probe's connections (the clients raise their own)
    print(f"{ms.load()} before the run; kernel {ms.listen_text(ms.listen_counters())}", flush=True)
    if args.waiters > defaults.workers * defaults.max_waits:
        print(
            f"  note: {args.waiters} waiters > {defaults.workers} workers x FAIRDEAL_MAX_WAITS {defaults.max_waits}: "
            f"the rest are refused (503 server-busy) until they find room; docs/operations.md, 'Sizing'"
        )
    tmp = tempfile.mkdtemp(prefix="fairdeal-idle-")
    procs = []
    server = None
    try:
        env = {k: v for k, v in os.environ.items() if not k.startswith("FAIRDEAL_")}
        env.update(dict(kv.split("=", 1) for kv in args.env))
        env.update(
            FAIRDEAL_DATA=tmp,
            PYTHONPATH=ROOT,
            FAIRDEAL_LIMIT_ADDRESS="1000000/minute",
            FAIRDEAL_LIMIT_PLAYERS="1000000/minute",
        )
        if args.store == "redis":
            redis_proc, rport = start_redis(tmp, "--maxclients", "30000")
            procs.append(redis_proc)
            env["FAIRDEAL_REDIS_URL"] = f"redis://127.0.0.1:{rport}/0"
        server = Server(free_port(), env, tmp)
        server.start()
        asyncio.run(run_all(args, server))
        errors = [line for line in open(server.log) if '"level": "error"' in line]
        if errors:
            print(f"the server logged {len(errors)} errors; the first ends: {errors[0][-600:]}")
    finally:
        if server is not None and server.proc is not None:
            stop([server.proc])
        stop(procs)
        if server is not None and os.path.exists(server.log):
            lines, refused, by_kind = store_refusals(server.log)
            print(f"  store refusals in the server's outage log: {refused} in {lines} lines, by kind {by_kind}")
            if args.keep_log:
                shutil.copyfile(server.log, args.keep_log)
                print(f"  the server's log: {args.keep_log}")
        shutil.rmtree(tmp, ignore_errors=True)
        print(f"{ms.load()} after the run; kernel {ms.listen_text(ms.listen_counters())}")
    return 0


async def run_all(args, server: Server) -> None:
    await server.listening()
    print(
        f"  fairdeal serve: {len(server.workers())} workers, sweeper {server.sweeper is not None}; "
        f"heartbeat {args.heartbeat:g} s, stream max {args.stream_max:g} s; {args.clients} client processes",
        flush=True,
    )
    await run(args, server)


if __name__ == "__main__":
    sys.exit(main())
