"""Event-feed waiters held by several client processes: each child is an asyncio loop holding its share of the
streams (or long-polls), reconnecting as the service's own clients do, and sending its counts to the parent
over a Pipe twice a second. bench_idle.py sets up the tables and measures the server; this holds the waiters.

Why processes: a process needs a descriptor per connection, and the hard open-file limit (20,000 on the
bench machine, `ulimit -Hn`, which a container without CAP_SYS_RESOURCE cannot raise) is below 20,000 waiters
plus the process's own files. Each child holds at most a few thousand (bench_idle: <= 8,000 by default).

Reconnection, as docs/api.md ("Event feed") specifies the clients:
  - `jitter` (default; the page's feed.js, fairdeal.client): after a lost connection or a 5xx/429, wait a
    uniform draw below a bound that starts at the stream's `retry:` (2 s until one is read; 0.5 s for a
    long-poll), doubles after each failure, at most 30 s, never less than Retry-After; the bound is reset
    when a feed opens. A stream the server closed whole (at FAIRDEAL_STREAM_MAX) is asked again at once.
  - `eventsource` (a browser's EventSource): exactly the last `retry:` after any loss, clean or not, no
    doubling (Retry-After still honoured).

Counts (summed over the children by the parent): feeds opened (a stream's 200, a long-poll's answer),
keep-alives, expiries (a stream closed whole, a long-poll answered empty), events, client errors by kind
(refused, reset, cut: a response ended mid-body, timeout, ...), refusals by "status code". After `mark()`
(the parent's, before a restart) each child also times every feed lost and opened again.
"""

from __future__ import annotations

import asyncio
import errno
import multiprocessing
import os
import random
import sys
import time
from dataclasses import asdict, dataclass, field

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_waiting import aiohttp, raise_fd_limit  # noqa: E402

FIRST_BOUND = {"sse": 2.0, "long-poll": 0.5}  # s: the first reconnection's bound, before a `retry:` is read
MAX_BOUND = 30.0
REPORT_EVERY = 0.5  # s between a child's counts sent to the parent
STALE = 75.0  # s without a byte on a stream: dead (feed.js's STALE; the service writes every 40 to 50 s)


def error_kind(exc: BaseException) -> str:
    """A client-side connection error's kind: refused (nothing listening), reset (RST), cut (a response ended
    mid-body: the server's process went away under an open stream), disconnected (closed before an answer),
    timeout, or the exception's name."""
    if aiohttp is not None:
        if isinstance(exc, aiohttp.ClientConnectorError):
            code = exc.os_error.errno
            names = {errno.ECONNREFUSED: "refused", errno.ECONNRESET: "reset", errno.ETIMEDOUT: "timeout"}
            return names.get(code, f"connect {errno.errorcode.get(code, code)}")
        if isinstance(exc, aiohttp.ServerTimeoutError):
            return "timeout"
        if isinstance(exc, aiohttp.ClientPayloadError):
            return "reset" if _caused_by(exc, ConnectionResetError) else "cut"
        if isinstance(exc, aiohttp.ServerDisconnectedError):
            return "disconnected"
    if isinstance(exc, asyncio.TimeoutError | TimeoutError):
        return "timeout"
    if isinstance(exc, ConnectionResetError) or _caused_by(exc, ConnectionResetError):
        return "reset"
    return type(exc).__name__


def _caused_by(exc: BaseException, kind: type) -> bool:
    seen = exc.__cause__ or exc.__context__
    while seen is not None:
        if isinstance(seen, kind):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


@dataclass
class Counts:
    """One child's counts (the parent sums them: every field adds up, but full_at and the lost times)."""

    opened: int = 0
    keepalives: int = 0
    expiries: int = 0
    events: int = 0
    errors: int = 0
    kinds: dict = field(default_factory=dict)  # client errors by kind (error_kind)
    status: dict = field(default_factory=dict)  # refusals, "status code" (the problem JSON's code)
    details: dict = field(default_factory=dict)  # the first refusal's detail of each
    share: int = 0  # the feeds this child holds
    live: int = 0  # ... open now (a stream past its 200; a long-poll whose last ask was answered)
    cpu: float = 0.0  # the child's own CPU seconds (the load generator)
    # since the last mark: feeds lost, opened again, the first and last loss, when all were open again
    lost: int = 0
    back: int = 0
    first_lost: float | None = None
    last_lost: float | None = None
    full_at: float | None = None
    marked: int = 0  # how many marks this child has seen (the parent waits for its own)

    def error(self, exc: BaseException) -> None:
        self.errors += 1
        kind = error_kind(exc)
        self.kinds[kind] = self.kinds.get(kind, 0) + 1

    async def refused(self, r) -> float:
        """Count a refusal; its Retry-After (seconds, 0 if none)."""
        try:
            body = await r.json(content_type=None)
            code, detail = body.get("code", "?"), body.get("detail", "")
        except Exception:  # noqa: BLE001 - not JSON: the status says enough
            code, detail = "?", ""
        key = f"{r.status} {code}"
        self.status[key] = self.status.get(key, 0) + 1
        self.details.setdefault(key, detail)
        try:
            return float(r.headers.get("Retry-After", 0))
        except ValueError:
            return 0.0


def add_up(snapshots: list[dict]) -> dict:
    """The children's counts summed (dicts key by key); the times since the mark: first loss, last loss, all
    open again (the latest of the children that lost any; None while one of them is not all open again)."""
    out: dict = {}
    for snap in snapshots:
        for k, v in snap.items():
            if k in ("first_lost", "last_lost", "full_at"):
                continue
            if isinstance(v, dict):
                into = out.setdefault(k, {})
                for key, n in v.items():
                    if k == "details":
                        into.setdefault(key, n)
                    else:
                        into[key] = into.get(key, 0) + n
            else:
                out[k] = out.get(k, 0) + v
    firsts = [s["first_lost"] for s in snapshots if s.get("first_lost") is not None]
    lasts = [s["last_lost"] for s in snapshots if s.get("last_lost") is not None]
    fulls = [s.get("full_at") for s in snapshots if s.get("lost")]  # a child that lost none is not waited for
    out["first_lost"] = min(firsts) if firsts else None
    out["last_lost"] = max(lasts) if lasts else None
    out["full_at"] = max(f for f in fulls if f is not None) if fulls and None not in fulls else None
    return out


# ------------------------------------------------------------------------------------ in the child process


class Feed:
    """One waiter: its table, seat token and seq; its reconnection state; when it was lost (after a mark)."""

    def __init__(self, gid: str, token: dict, after: int, feed: str):
        self.gid, self.token, self.after = gid, token, after
        self.retry = FIRST_BOUND[feed]  # s: the last `retry:` the service sent (a long-poll: the client's base)
        self.bound = self.retry
        self.up = False
        self.lost_at: float | None = None

    def wait(self, policy: str, retry_after: float = 0.0) -> float:
        """The wait before asking again after a failure (and the bound's doubling)."""
        if policy == "eventsource":
            return max(self.retry, retry_after)
        drawn = random.uniform(0.0, min(self.bound, MAX_BOUND))
        self.bound = min(2 * self.bound, MAX_BOUND)
        return max(drawn, retry_after)


class Holder:
    """A child's feeds and counts; up()/down() keep `live` and the restart times."""

    def __init__(self, feeds: list[Feed]):
        self.feeds = feeds
        self.c = Counts(share=len(feeds))
        self.downs: list[float] = []  # since the mark: each lost feed's time until it was open again
        self.marked_at: float | None = None

    def mark(self) -> None:
        self.marked_at = time.monotonic()
        self.downs = []
        c = self.c
        c.lost = c.back = 0
        c.first_lost = c.last_lost = c.full_at = None
        c.marked += 1
        for f in self.feeds:
            f.lost_at = None

    def up(self, f: Feed) -> None:
        if f.up:
            return
        f.up, f.bound = True, f.retry
        c = self.c
        c.live += 1
        now = time.monotonic()
        if f.lost_at is not None:
            self.downs.append(now - f.lost_at)
            f.lost_at = None
            c.back += 1
        if c.live == c.share and self.marked_at is not None and c.lost:
            c.full_at = now

    def down(self, f: Feed) -> None:
        if not f.up:
            return
        f.up = False
        c = self.c
        c.live -= 1
        if self.marked_at is not None:
            now = time.monotonic()
            f.lost_at = now
            c.lost += 1
            c.first_lost = now if c.first_lost is None else c.first_lost
            c.last_lost = now
            c.full_at = None


async def back_off(r, f: Feed, h: Holder, policy: str) -> None:
    """A refused feed (its problem code counted): down, and asked again after its wait (never below Retry-After)."""
    retry_after = await h.c.refused(r)
    h.down(f)
    await asyncio.sleep(f.wait(policy, retry_after))


async def failed(exc: Exception, f: Feed, h: Holder, policy: str) -> None:
    """A feed whose connection failed (counted by kind): down, and asked again after its wait."""
    h.c.error(exc)
    h.down(f)
    await asyncio.sleep(f.wait(policy))


async def sse(sess, base: str, f: Feed, h: Holder, policy: str) -> None:
    c = h.c
    while True:
        try:
            async with sess.get(f"{base}/games/{f.gid}/stream?after={f.after}", headers=f.token) as r:
                if r.status != 200:
                    await back_off(r, f, h, policy)
                    continue
                c.opened += 1
                h.up(f)
                try:
                    async for raw in r.content:
                        if raw.startswith(b": keep-alive"):
                            c.keepalives += 1
                        elif raw.startswith(b"id: "):
                            f.after = max(f.after, int(raw[4:]))
                        elif raw.startswith(b"event: "):
                            c.events += 1
                        elif raw.startswith(b"retry: "):
                            f.retry = int(raw[7:]) / 1000
                            f.bound = f.retry
                finally:
                    h.down(f)
                c.expiries += 1
            if policy == "eventsource":
                await asyncio.sleep(f.retry)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - counted by kind
            await failed(exc, f, h, policy)


async def long_poll(sess, base: str, f: Feed, h: Holder, policy: str) -> None:
    c = h.c
    while True:
        try:
            async with sess.get(f"{base}/games/{f.gid}/events?after={f.after}&wait=25", headers=f.token) as r:
                if r.status != 200:
                    await back_off(r, f, h, policy)
                    continue
                body = await r.json(content_type=None)
            c.opened += 1
            c.expiries += not body["records"]
            f.after = body["seq"]
            h.up(f)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - counted by kind
            await failed(exc, f, h, policy)


async def hold(conn, base: str, feed: str, share: list[tuple], policy: str, ramp: float) -> None:
    h = Holder([Feed(gid, token, after, feed) for gid, token, after in share])
    timeout = aiohttp.ClientTimeout(total=None, sock_connect=30, sock_read=STALE if feed == "sse" else 60)
    conn_pool = aiohttp.TCPConnector(limit=0, ttl_dns_cache=None)
    waiter = sse if feed == "sse" else long_poll
    tasks: list[asyncio.Task] = []

    def report(**extra) -> None:
        h.c.cpu = time.process_time()
        conn.send(dict(asdict(h.c), **extra))

    async with aiohttp.ClientSession(connector=conn_pool, timeout=timeout) as sess:
        step = ramp / len(h.feeds) if h.feeds else 0.0
        next_report = time.monotonic()
        for f in h.feeds:  # opened over `ramp` seconds (0: at once), reporting meanwhile
            tasks.append(asyncio.create_task(waiter(sess, base, f, h, policy)))
            if step:
                await asyncio.sleep(step)
            if time.monotonic() >= next_report:
                report()
                next_report += REPORT_EVERY
        try:
            while True:
                report()
                deadline = time.monotonic() + REPORT_EVERY
                while time.monotonic() < deadline:
                    while conn.poll():
                        what = conn.recv()
                        if what == "stop":
                            return
                        if what == "mark":
                            h.mark()
                        elif what == "downs":
                            report(downs=h.downs)
                    await asyncio.sleep(0.05)
        finally:
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            report(final=True)


def child(conn, base: str, feed: str, share: list[tuple], policy: str, ramp: float) -> None:
    """A client process's main: its descriptors raised for its share, then its feeds held until "stop"."""
    raise_fd_limit(len(share) + 1024)
    try:
        asyncio.run(hold(conn, base, feed, share, policy, ramp))
    except (KeyboardInterrupt, BrokenPipeError, EOFError):  # the parent went away
        pass


# ------------------------------------------------------------------------------------ in the parent


class Clients:
    """The client processes (spawned, not forked: the parent runs an asyncio loop and an aiohttp session) and
    their latest counts. `collect()` runs as a task of the parent's loop, draining the pipes."""

    def __init__(self, base: str, feed: str, shares: list[list[tuple]], policy: str, ramp: float):
        ctx = multiprocessing.get_context("spawn")
        self.conns, self.procs = [], []
        for share in shares:
            mine, theirs = ctx.Pipe()
            p = ctx.Process(target=child, args=(theirs, base, feed, share, policy, ramp), daemon=True)
            p.start()
            theirs.close()
            self.conns.append(mine)
            self.procs.append(p)
        self.latest: list[dict] = [{} for _ in shares]
        self.downs: list[list[float] | None] = [None for _ in shares]

    def poll(self) -> None:
        for i, conn in enumerate(self.conns):
            try:
                while conn.poll():
                    snap = conn.recv()
                    if "downs" in snap:
                        self.downs[i] = snap.pop("downs")
                    snap.pop("final", None)
                    self.latest[i] = snap
            except (EOFError, OSError):
                pass  # that child has gone: its last counts stay

    async def collect(self) -> None:
        while True:
            self.poll()
            await asyncio.sleep(0.1)

    def total(self) -> dict:
        return add_up([s for s in self.latest if s])

    def dead(self) -> list[int]:
        return [p.exitcode for p in self.procs if p.exitcode is not None]

    def send(self, what: str) -> None:
        for conn in self.conns:
            conn.send(what)

    async def mark(self) -> None:
        """Every child starts timing losses (and has reported since it did)."""
        want = [s.get("marked", 0) + 1 for s in self.latest]
        self.send("mark")
        while any(s.get("marked", 0) < w for s, w in zip(self.latest, want, strict=True)):
            await asyncio.sleep(0.05)

    async def all_downs(self) -> list[float]:
        """Every child's times (since the mark) from a feed lost to open again."""
        self.downs = [None for _ in self.conns]
        self.send("downs")
        while any(d is None for d in self.downs):
            await asyncio.sleep(0.05)
        return [x for d in self.downs for x in (d or [])]

    def stop(self) -> None:
        for conn in self.conns:
            try:
                conn.send("stop")
            except OSError:
                pass
        end = time.monotonic() + 15
        for p in self.procs:
            p.join(max(0.1, end - time.monotonic()))
            if p.is_alive():
                p.terminate()
                p.join(5)
        self.poll()
