"""The Redis command pool serves waiting requests in the order they asked (store/fair_queue.py): a connection
given back goes to the request that has waited longest, never to one that asks after it. With redis-py's own
queue a newcomer could take it first, again and again, until the waiter's timeout: 503 store-unavailable at
5,000 stream openings on a 128-connection pool (issue 25)."""

from __future__ import annotations

import queue
import threading

import pytest

from fairdeal.service.store.fair_queue import FairQueue
from fairdeal.service.store.redis import RedisStore
from tests.waiting import scaled, wait_for


def waiting_getter(q):
    got: list = []
    th = threading.Thread(target=lambda: got.append(q.get(timeout=scaled(10))))
    th.start()
    return th, got


def test_a_connection_given_back_goes_to_the_request_waiting_longest(request):
    q = FairQueue(2)
    first, got_first = waiting_getter(q)
    wait_for(lambda: len(q._waiters) == 1, what="the first request waiting")
    second, got_second = waiting_getter(q)
    wait_for(lambda: len(q._waiters) == 2, what="the second request waiting behind it")
    q.put("a")
    with pytest.raises(queue.Empty):
        q.get_nowait()  # a newcomer does not take it before the waiter runs
    first.join(scaled(10))
    assert got_first == ["a"] and not got_second
    q.put("b")
    second.join(scaled(10))
    assert got_second == ["b"] and q.qsize() == 0


def test_a_request_that_timed_out_is_passed_by():
    q = FairQueue(1)
    with pytest.raises(queue.Empty):
        q.get(timeout=0.05)
    q.put("c")  # nobody waits any more: the connection stays free
    assert q.qsize() == 1 and q.get_nowait() == "c"


def test_the_stores_pool_waits_in_a_fair_queue(request):
    store = RedisStore(request.getfixturevalue("redis_url"), max_connections=2)
    try:
        assert isinstance(store.r.connection_pool.pool, FairQueue)
        assert store.r.ping()  # the pool makes, lends and takes back its connections through it
        assert store.r.connection_pool.pool.qsize() == 2
    finally:
        store.close()
