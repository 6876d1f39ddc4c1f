"""The Redis command pool (fairdeal/service/store/redis_pool.py, issue 25): waiters are served in their order of
arrival, a request that waits longer than the timeout in a queue that moves is not refused, one is refused
(503 store-unavailable, counted as pool-stalled) once no connection has come back for the timeout; the same
holds under gevent; the store and the rate limits both use it, at FAIRDEAL_REDIS_CONNECTIONS."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import threading
import time

import pytest
import redis

from fairdeal.service.app import create_app
from fairdeal.service.config import Config
from fairdeal.service.errors import refusal_kind, store_unavailable
from fairdeal.service.store.redis import RedisStore
from fairdeal.service.store.redis_pool import PoolStalled, QueuedPool
from tests.service.client import Api
from tests.service.problems import problem
from tests.waiting import scaled, wait_for

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def taker(pool: QueuedPool, order: list, i: int, hold: threading.Event | float | None = None):
    """A thread that takes a connection of `pool`, notes `i` (or the exception) in `order`, holds the
    connection until `hold` is set (an Event) or for `hold` seconds (a command that long), and gives it back."""

    def run():
        try:
            c = pool.get_connection()
        except Exception as e:  # noqa: BLE001 - the test looks at it
            order.append(e)
            return
        order.append(i)
        if isinstance(hold, threading.Event):
            hold.wait(scaled(10))
        elif hold:
            threading.Event().wait(hold)  # a command that takes this long
        pool.release(c)

    th = threading.Thread(target=run, daemon=True)
    th.start()
    return th


def queue_of(pool: QueuedPool, n: int, hold=None) -> tuple[list, list[threading.Thread]]:
    """n takers queued one after the other behind a pool with no connection free (in that order)."""
    order: list = []
    threads = []
    for i in range(n):
        threads.append(taker(pool, order, i, hold))
        wait_for(lambda i=i: pool.waiting() == i + 1, timeout=5, interval=0.005, what=f"taker {i} queued")
    return order, threads


def test_a_connection_given_back_goes_to_the_oldest_waiter_not_a_newcomer(redis_url):
    pool = QueuedPool.from_url(redis_url, max_connections=1, timeout=scaled(30))
    held = pool.get_connection()
    order, threads = queue_of(pool, 4)
    pool.release(held)
    for th in threads:
        th.join(scaled(10))
    assert order == [0, 1, 2, 3] and pool.waiting() == 0
    # a newcomer while others wait queues behind them, even when a connection is free for an instant
    held = pool.get_connection()
    order, threads = queue_of(pool, 2)
    pool.release(held)
    late = pool.get_connection()  # served after the two queued ones gave theirs back (had it barged in, it
    order.append("late")  # would be first: they cannot take the connection before it is given back)
    pool.release(late)
    for th in threads:
        th.join(scaled(10))
    assert order == [0, 1, "late"]
    pool.disconnect()


def test_a_long_wait_in_a_moving_queue_is_not_refused(redis_url):
    """Eight requests behind one connection, each holding it for a quarter of the timeout: the last one waits
    about twice the timeout, and is served (BlockingConnectionPool refused it after the timeout: issue 25)."""
    timeout = scaled(1.0)
    pool = QueuedPool.from_url(redis_url, max_connections=1, timeout=timeout)
    held = pool.get_connection()
    t0 = time.monotonic()
    order, threads = queue_of(pool, 8, hold=timeout / 4)
    pool.release(held)
    for th in threads:
        th.join(scaled(20))
    assert order == list(range(8)), order
    assert time.monotonic() - t0 > timeout * 1.5  # the last one did wait longer than the timeout
    pool.disconnect()


def test_waiters_give_up_once_no_connection_comes_back_for_the_timeout(redis_url):
    pool = QueuedPool.from_url(redis_url, max_connections=1, timeout=0.3)
    held = pool.get_connection()
    t0 = time.monotonic()
    with pytest.raises(PoolStalled) as refused:
        pool.get_connection()
    waited = time.monotonic() - t0
    assert 0.3 <= waited < scaled(5), waited
    assert isinstance(refused.value, redis.ConnectionError)  # the store's 503 store-unavailable
    assert store_unavailable(refused.value) and refusal_kind(refused.value) == "pool-stalled"
    assert pool.waiting() == 0
    # the one who gave up is skipped: the connection given back goes to the next request
    pool.release(held)
    again = pool.get_connection()
    pool.release(again)
    pool.disconnect()


def test_a_pool_idle_for_longer_than_the_timeout_then_full_at_once_is_not_stalled(redis_url):
    """Nothing given back for a minute because nothing was taken (an idle worker), then a burst takes every
    connection: the first request to queue waits its turn (it was refused at once: 954 of them at 5,000
    long-polls, bench/README.md)."""
    pool = QueuedPool.from_url(redis_url, max_connections=1, timeout=scaled(5))
    held = pool.get_connection()
    pool._returned_at -= 60  # as after a minute with none given back (none taken)
    order, threads = queue_of(pool, 1)
    assert order == []  # waiting, not refused
    pool.release(held)
    threads[0].join(scaled(10))
    assert order == [0]
    pool.disconnect()


def test_a_long_stall_keeps_no_trace_of_the_requests_it_refused(redis_url):
    pool = QueuedPool.from_url(redis_url, max_connections=1, timeout=0.0)  # refused as soon as they queue
    held = pool.get_connection()
    for _ in range(1000):
        with pytest.raises(PoolStalled):
            pool.get_connection()
    assert pool.waiting() == 0 and len(pool._waiters) <= 64 + 1
    pool.release(held)
    assert pool._claimed == 0 and not pool._waiters
    pool.disconnect()


def test_a_waiter_interrupted_leaves_the_queue(redis_url, monkeypatch):
    """A wait cut short (a gevent Timeout, a killed greenlet) leaves the queue: the pool is not left a claim short."""
    from fairdeal.service.store import redis_pool

    class Interrupted(redis_pool._Waiter):
        def __init__(self):
            super().__init__()
            self.event.wait = self.cut  # type: ignore[method-assign]

        @staticmethod
        def cut(timeout=None):
            raise KeyboardInterrupt

    pool = QueuedPool.from_url(redis_url, max_connections=1, timeout=scaled(30))
    held = pool.get_connection()
    monkeypatch.setattr(redis_pool, "_Waiter", Interrupted)
    with pytest.raises(KeyboardInterrupt):
        pool.get_connection()
    monkeypatch.undo()
    assert pool.waiting() == 0
    pool.release(held)
    assert pool._claimed == 0
    again = pool.get_connection()  # at once: nobody is waiting
    pool.release(again)
    pool.disconnect()


GEVENT_SCRIPT = r"""
from gevent import monkey

monkey.patch_all()
import json, sys, time
import gevent, redis
from fairdeal.service.store.redis_pool import QueuedPool

url, n, timeout = sys.argv[1], 40, 0.5
pool = QueuedPool.from_url(url, max_connections=2, timeout=timeout)
r = redis.Redis(connection_pool=pool)
served, ticks = [], [0]

def one(i):
    with r.pipeline(transaction=False) as p:  # a command that holds its connection 0.1 s (BLPOP's own timeout)
        p.blpop(["fd:test:pool:nothing"], timeout=0.1)
        p.execute()
    served.append(i)

def ticker():  # runs while the others wait: the waits do not block the hub
    while len(served) < n:
        ticks[0] += 1
        gevent.sleep(0.01)

t0 = time.monotonic()
greenlets = [gevent.spawn(ticker)]
for i in range(n):
    greenlets.append(gevent.spawn(one, i))
    gevent.sleep(0)  # each one asks in turn
gevent.joinall(greenlets, raise_error=True)
print(json.dumps({"served": served, "seconds": time.monotonic() - t0, "ticks": ticks[0], "timeout": timeout}))
"""


def test_under_gevent_the_queue_is_served_in_order_and_nobody_is_refused(redis_url):
    """40 greenlets behind 2 connections, each command 0.1 s: about 2 s of queue, 4 timeouts' worth."""
    out = subprocess.run(
        [sys.executable, "-c", GEVENT_SCRIPT, redis_url],
        capture_output=True,
        text=True,
        timeout=scaled(60),
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": ROOT},
    )
    assert out.returncode == 0, out.stderr[-3000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert sorted(got["served"]) == list(range(40))
    # served two at a time in order of arrival: none more than one pair ahead of its turn
    assert all(abs(i - got["served"].index(i)) <= 2 for i in range(40)), got["served"]
    assert got["seconds"] > 2 * got["timeout"] and got["ticks"] > 20


def test_the_store_and_the_rate_limits_use_the_queued_pool_at_the_configured_size(tmp_path, redis_url):
    app = create_app(Config(data_dir=str(tmp_path / "data"), redis_url=redis_url, redis_connections=7))
    services = app.extensions["fairdeal"]
    store_pool = services.store.r.connection_pool
    limits_pool = services.limits.limiter.storage.storage.connection_pool
    for pool in (store_pool, limits_pool):
        assert isinstance(pool, QueuedPool) and pool.max_connections == 7
    assert store_pool is not limits_pool  # their own connections (the counts decode no responses)


def test_a_rate_limited_request_waits_its_turn_for_the_limits_pool(tmp_path, redis_url):
    """With the counts' pool's one connection taken, a rate-limited request waits (the old pool refused past
    its connections at once), and is answered once the connection comes back."""
    app = create_app(Config(data_dir=str(tmp_path / "data"), redis_url=redis_url, redis_connections=1))
    api = Api(app.test_client())
    pool = app.extensions["fairdeal"].limits.limiter.storage.storage.connection_pool
    held = pool.get_connection()
    answer: dict = {}
    th = threading.Thread(target=lambda: answer.update(r=api.c.post("/players", json={})))
    th.start()
    wait_for(lambda: pool.waiting() == 1, timeout=10, interval=0.01, what="the request queued for the counts' pool")
    assert "r" not in answer
    pool.release(held)
    th.join(scaled(10))
    assert answer["r"].status_code == 201, answer["r"].get_data(as_text=True)


def test_a_stalled_pool_answers_503_counted_as_pool_stalled(tmp_path, redis_url):
    store = RedisStore(redis_url, max_connections=1)
    app = create_app(Config(data_dir=str(tmp_path / "data"), rate_limits=False), store=store)
    api = Api(app.test_client())
    p = api.player()
    store.r.connection_pool.timeout = 0.2
    held = store.r.connection_pool.get_connection()
    lines: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = lines.append  # type: ignore[method-assign]
    logging.getLogger("fairdeal").addHandler(handler)
    try:
        r = api.c.get("/players/me", headers=p["h"])
        problem(r, 503, "store-unavailable")
        store.r.connection_pool.release(held)
        assert api.c.get("/players/me", headers=p["h"]).status_code == 200
    finally:
        logging.getLogger("fairdeal").removeHandler(handler)
    fields = [x.fields for x in lines if x.getMessage().startswith("store")]  # type: ignore[attr-defined]
    assert fields[0]["refused_by"] == {"pool-stalled": 1} and "none given back" in fields[0]["reason"]
    assert fields[-1]["refused_by"] == {} and len(fields) == 2  # "store available again": none since


def test_refusals_are_told_apart_by_kind():
    from fairdeal.service.store.base import StoreUnavailable

    assert refusal_kind(redis.ConnectionError("Error 111 connecting to 127.0.0.1:1. Connection refused.")) == (
        "connection-refused"
    )
    assert refusal_kind(redis.exceptions.MaxConnectionsError("Too many connections")) == "pool-exhausted"
    assert refusal_kind(redis.ConnectionError("No connection available.")) == "pool-exhausted"
    assert refusal_kind(redis.ConnectionError("Connection closed by server.")) == "connection"
    assert refusal_kind(redis.TimeoutError("Timeout reading from socket")) == "timeout"
    assert refusal_kind(redis.exceptions.ReadOnlyError("READONLY")) == "read-only"
    assert refusal_kind(redis.exceptions.BusyLoadingError("LOADING")) == "loading"
    assert refusal_kind(StoreUnavailable("the append reached 0 of the 1 replicas required")) == "replicas"
    assert refusal_kind(ValueError("a bug")) == "other"


def test_on_a_cluster_the_store_and_the_rate_limits_use_the_queued_pool(tmp_path, redis_cluster_url):
    app = create_app(Config(data_dir=str(tmp_path / "data"), redis_url=redis_cluster_url, redis_connections=5))
    services = app.extensions["fairdeal"]
    for client in (services.store.r, services.limits.limiter.storage.storage):
        nodes = client.get_nodes()
        assert nodes and all(
            isinstance(n.redis_connection.connection_pool, QueuedPool)
            and n.redis_connection.connection_pool.max_connections == 5
            for n in nodes
        )
    api = Api(app.test_client())
    assert api.c.post("/players", json={}).status_code == 201  # the counts on the cluster work
