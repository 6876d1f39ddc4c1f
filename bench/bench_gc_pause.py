"""The garbage collector's pause in a worker that holds many event-feed streams, with and without the freeze
passes of fairdeal/service/gcfreeze.py (FAIRDEAL_GC_FREEZE, on by default under gunicorn).

One process plays a worker: the service's app (the embedded store) under gevent's WSGI server, holding N server-
sent-event streams, which a child process opens on raw sockets and never reads (so nothing but the streams'
objects grows here). The tables are seated and started first, so the replay cache is full (FAIRDEAL_CACHE_GAMES).
Then, in alternating rounds, CPU time of:
  - the baseline: a full collection with nothing frozen, what CPython's automatic generation-2 collection costs
    such a worker today (every request and stream of the worker waits it out);
  - a freeze pass (a collection of what is not frozen, then gc.freeze()), the policy's own periodic pause;
  - a full collection after the pass: what the automatic generation-2 collection walks under the policy.
Under gevent's own server the streams write their own keep-alives (gunicorn's worker batches them:
fairdeal/service/keepalives.py), every 5 s here. It also counts the objects the collector tracks per held
stream, and the cyclic garbage the streams leave when they close (what a freeze keeps until the next thaw).

    python bench/bench_gc_pause.py [--streams 10000] [--rounds 7] [--churn 10]
"""

from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import argparse  # noqa: E402
import gc  # noqa: E402
import json  # noqa: E402
import logging  # noqa: E402
import os  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

import gevent  # noqa: E402
from gevent.pywsgi import WSGIServer  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import measure as ms  # noqa: E402
from profile_inprocess import table  # noqa: E402

HOLDER = r"""
import _socket, json, sys
port, feeds = json.loads(sys.stdin.readline())
socks = []
for gid, tok, seq in feeds:
    s = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)
    s.connect(("127.0.0.1", port))
    s.send(f"GET /games/{gid}/stream?after={seq} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {tok}\r\n\r\n".encode())
    socks.append(s)
print("held", flush=True)
sys.stdin.readline()  # until the parent says: close them
for s in socks:
    s.close()
print("closed", flush=True)
sys.stdin.readline()
"""


def setup_tables(app, n_tables: int) -> list[tuple[str, str, int]]:
    """Started Spades tables of four human seats (profile_inprocess.table), each seat's (game, token, seq)."""
    c = app.test_client()
    feeds = []
    for _ in range(n_tables):
        gid, headers, _ = table(c)
        seq = c.get(f"/games/{gid}", headers=headers[0]).get_json()["seq"]
        feeds += [(gid, h["Authorization"].removeprefix("Bearer "), seq) for h in headers]
    return feeds


def settle(limit: float = 120) -> int:
    """Wait until the tracked-object count stops growing (every stream open); returns it."""
    end, last = time.monotonic() + limit, -1
    while time.monotonic() < end:
        gevent.sleep(1.0)
        now = len(gc.get_objects())
        if abs(now - last) < 100:
            return now
        last = now
    return last


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--streams", type=int, default=10000)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--churn", type=float, default=10.0, help="seconds the worker runs between the policy's steps")
    args = ap.parse_args()
    n = args.streams - args.streams % 4
    os.environ.update(
        FAIRDEAL_DATA=tempfile.mkdtemp(prefix="bench-gc-"),
        FAIRDEAL_STANDIN_AFTER="3600",
        FAIRDEAL_LIMIT_ADDRESS="1000000/minute",
        FAIRDEAL_LIMIT_PLAYERS="1000000/minute",
        FAIRDEAL_MAX_WAITS=str(n + 100),
        FAIRDEAL_MAX_WAITS_PER_PLAYER="16",
        FAIRDEAL_HEARTBEAT="5",  # a stream whose client went away ends at its next keep-alive: soon, here
    )
    from fairdeal.service.app import create_app
    from fairdeal.service.gcfreeze import Freezer

    app = create_app()
    logging.disable(logging.INFO)  # one line a request: not what is measured
    print(ms.load(), "before", flush=True)
    t0 = time.monotonic()
    feeds = setup_tables(app, n // 4)
    print(f"{n // 4} tables seated and started in {time.monotonic() - t0:.0f} s", flush=True)
    server = WSGIServer(("127.0.0.1", 0), app, log=None, error_log=None, backlog=4096)
    server.start()
    gc.collect()
    before = len(gc.get_objects())
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )
    holder.stdin.write(json.dumps([server.server_port, feeds]) + "\n")
    holder.stdin.flush()
    assert holder.stdout.readline().strip() == "held"
    held = settle()
    print(
        f"{n} streams held: the collector tracks {before:,} -> {held:,} objects, {(held - before) / n:.0f} a stream",
        flush=True,
    )

    full, passes, after = ms.Series("full"), ms.Series("pass"), ms.Series("after")

    def baseline():
        gc.unfreeze()
        full.add(ms.timed(gc.collect)[0])

    def policy():
        freezer = Freezer(60)
        freezer.run_pass()  # the first pass walks everything (once, at a worker's start)
        gevent.sleep(args.churn)  # the worker runs on: keep-alives written, objects made and dropped
        passes.add(ms.timed(freezer.run_pass)[0])
        gevent.sleep(args.churn)
        after.add(ms.timed(gc.collect)[0])
        gc.unfreeze()

    ms.alternate(args.rounds, [baseline, policy])

    def ms_text(s: ms.Series) -> str:
        xs = [1000 * x for x in s.seconds]
        return f"{statistics.median(xs):7.1f} ms  (rounds {min(xs):.1f} to {max(xs):.1f})"

    print(f"CPU of each pause, {args.rounds} alternating rounds, median (spread):")
    print(f"  baseline: a full collection, nothing frozen       {ms_text(full)}")
    print(f"  a freeze pass (every FAIRDEAL_GC_FREEZE s)        {ms_text(passes)}")
    print(f"  a full collection after the pass                  {ms_text(after)}")
    worst = max(max(passes.seconds), max(after.seconds))
    print(
        f"  the longest pause under the policy: {1000 * worst:.1f} ms, against the baseline's median "
        f"{1000 * statistics.median(full.seconds):.1f} ms"
    )

    # the clients go away (the server sees it at each stream's next keep-alive): the cyclic garbage the streams
    # leave is what a freeze would keep until the next thaw
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    holder.stdin.write("close\n")
    holder.stdin.flush()
    assert holder.stdout.readline().strip() == "closed"
    end = time.monotonic() + 120
    while time.monotonic() < end and len(gc.get_objects()) > before + n * 40:
        gevent.sleep(1.0)
    gc.collect()
    print(
        f"after the {n} streams closed: {len(gc.get_objects()):,} objects tracked, cyclic garbage "
        f"{len(gc.garbage)} objects ({len(gc.garbage) / n:.2f} a stream)"
    )
    gc.set_debug(0)
    holder.stdin.write("done\n")
    holder.stdin.flush()
    holder.wait(30)
    print(ms.load(), "after")
    return 0


if __name__ == "__main__":
    sys.exit(main())
