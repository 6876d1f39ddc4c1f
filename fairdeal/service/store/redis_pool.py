"""The Redis command pool of a process: bounded, served in order of arrival, and refusing only when stuck.

redis-py's pools refuse a request that finds every connection taken: ConnectionPool at once
(MaxConnectionsError), BlockingConnectionPool once the request itself has waited its timeout. Under gevent a
worker runs thousands of requests at once (issue 25: 5,000 long-polls, each made again every 25 s), so a queue
for the connections is normal, and it moves: a request at its end may wait longer than any fixed timeout while
connections come back all the time, and refusing it then answers 503 to a busy store, not to one that is away.

QueuedPool hands a connection given back to the oldest waiting request (never to a newcomer, who queues behind
it), and a waiting request gives up (PoolStalled, a ConnectionError: 503 store-unavailable) only once it has
waited `timeout` seconds with no connection at all coming back meanwhile: then every connection is held by a
command that does not end (the store is stuck or away), and waiting longer would not help.

Locks and events are the threading module's, looked up when used: under gevent's monkey-patching they are
cooperative (a waiting greenlet lets the others run), without it they are the threads' own.
"""

from __future__ import annotations

import collections
import threading
import time
from typing import Any

from redis.connection import ConnectionPool
from redis.exceptions import ConnectionError as RedisConnectionError

POOL_TIMEOUT = 10.0  # seconds a request waits with no connection coming back meanwhile before it gives up (503)


class PoolStalled(RedisConnectionError):
    """No connection of the pool came back for the pool's timeout while this request waited for one."""


class _Waiter:
    __slots__ = ("event", "served", "abandoned", "since")

    def __init__(self) -> None:
        self.since = time.monotonic()  # its arrival
        self.event = threading.Event()
        self.served = False  # a connection's claim was passed to it
        self.abandoned = False  # it gave up (or was interrupted): the next connection skips it


class QueuedPool(ConnectionPool):
    """A redis-py ConnectionPool of at most `max_connections`, waiters served first come, first served; a
    drop-in for BlockingConnectionPool (same `timeout` keyword, also through RedisCluster's
    connection_pool_class), with the timeout counted while no connection comes back, from the request's
    arrival or the last give-back, the later (not merely from its arrival)."""

    label = "store"  # whose pool, in a refusal's reason

    def __init__(self, *args: Any, timeout: float | None = POOL_TIMEOUT, **kwargs: Any):
        self.timeout = timeout  # None: wait as long as it takes
        super().__init__(*args, **kwargs)

    def reset(self) -> None:
        # claims: requests that hold a connection, are getting one, or were handed one (at most max_connections)
        self._claimed = 0
        self._waiters: collections.deque[_Waiter] = collections.deque()
        self._queued = 0  # waiters neither served nor abandoned
        self._returned_at = time.monotonic()  # when a claim last came back
        super().reset()  # last: it sets the pid that tells other threads the reset is done

    def get_connection(self, *args: Any, **options: Any):  # args: redis-py's deprecated command name, keys
        self._checkpid()
        with self._lock:
            waiter = None
            if self._queued or self._claimed >= self.max_connections:
                waiter = _Waiter()
                self._waiters.append(waiter)
                self._queued += 1
            else:
                self._claimed += 1
        if waiter is not None:
            self._wait(waiter)
        # the claim guarantees a free connection or room for a new one; a failure past here gives it back
        # (the parent releases the connection it could not connect; make_connection below otherwise)
        return super().get_connection(*args, **options)

    def _wait(self, waiter: _Waiter) -> None:
        try:
            while True:
                with self._lock:
                    if waiter.served:
                        return
                    # the stall is counted while this request waits: from its arrival or the last connection
                    # given back, the later (a pool idle for a minute, then full at once, is not stalled)
                    stalled = time.monotonic() - max(waiter.since, self._returned_at)
                    left = None if self.timeout is None else self.timeout - stalled
                    if left is not None and left <= 0:
                        self._abandon(waiter)
                        raise PoolStalled(
                            f"Redis connection pool ({self.label}): {self._claimed} of {self.max_connections} "
                            f"connections taken ({len(self._in_use_connections)} in use) and none given back "
                            f"for {stalled:.1f} s ({self._queued} other requests waiting)"
                        )
                waiter.event.wait(left)
        except PoolStalled:
            raise
        except BaseException:  # interrupted (a timeout of the caller's, the greenlet killed): leave the queue
            with self._lock:
                if waiter.served:
                    self._give_back()  # the claim it was handed goes to the next one
                elif not waiter.abandoned:
                    self._abandon(waiter)
            raise

    def _abandon(self, waiter: _Waiter) -> None:
        """A waiter leaves the queue (under the lock). It stays in the deque, skipped, until a connection comes
        back; past twice the live ones the deque is swept, so a long stall (a refusal a request) stays bounded."""
        waiter.abandoned = True
        self._queued -= 1
        if len(self._waiters) > 2 * self._queued + 64:
            self._waiters = collections.deque(w for w in self._waiters if not w.abandoned)

    def _give_back(self) -> None:
        """A claim comes back (under the lock): to the oldest live waiter, else to the pool."""
        self._returned_at = time.monotonic()
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.abandoned:
                waiter.served = True
                self._queued -= 1
                waiter.event.set()
                return
        self._claimed -= 1

    def make_connection(self):
        try:
            return super().make_connection()
        except BaseException:  # not made: the claim of the request that wanted it is given back
            with self._lock:
                self._give_back()
            raise

    def release(self, connection) -> None:
        self._checkpid()
        with self._lock:
            taken = connection in self._in_use_connections  # a second release of one connection frees nothing
            super().release(connection)
            if taken:
                self._give_back()

    def waiting(self) -> int:
        """Requests waiting for a connection now."""
        return self._queued


class RateLimitPool(QueuedPool):
    """The rate limits' counts' pool (ratelimits.py): the same, named apart in a refusal's reason."""

    label = "rate limits"
