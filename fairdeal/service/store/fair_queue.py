"""The Redis command pool's queue of free connections, served in the order the requests asked.

redis-py's BlockingConnectionPool waits on a queue.Queue (a LifoQueue). When a connection comes back, the
queue wakes its oldest waiter, but anyone who asks before that waiter runs takes the connection first, and the
waiter goes back to the end of the line. Under gevent a woken greenlet runs only after the hub's next turn, so
in a burst (5,000 streams opened at once, the reconnections after a restart) the requests that keep arriving
take every connection, and a request that waited first can lose again and again until its timeout: 503
store-unavailable ("No connection available"), at 5,000 openings on a 128-connection pool (issue 25), though
the pool was never held longer than a command. Here a connection given back while requests wait goes to the one
that has waited longest, and a newcomer waits behind them.
"""

from __future__ import annotations

import collections
import queue
import threading
from typing import Any


class _Waiter:
    __slots__ = ("ready", "item", "served")

    def __init__(self) -> None:
        self.ready = threading.Event()
        self.item: Any = None
        self.served = False


class FairQueue:
    """The part of queue.Queue the pool uses (get, put, put_nowait, get_nowait, and `queue`, the free items,
    which it reads), its blocked getters served first come, first served. Not a queue.Queue subclass: under
    gevent's monkey-patching that name is gevent's own queue, whichever was imported."""

    def __init__(self, maxsize: int = 0):
        self.maxsize = maxsize
        self.queue: collections.deque[Any] = collections.deque()
        self.mutex = threading.Lock()
        self._waiters: collections.deque[_Waiter] = collections.deque()

    def qsize(self) -> int:
        return len(self.queue)

    def put(self, item: Any, block: bool = True, timeout: float | None = None) -> None:
        with self.mutex:
            while self._waiters:
                w = self._waiters.popleft()
                if not w.served:
                    w.item, w.served = item, True
                    w.ready.set()
                    return
            if self.maxsize > 0 and len(self.queue) >= self.maxsize:
                raise queue.Full  # the pool never puts more than it made
            self.queue.append(item)

    def put_nowait(self, item: Any) -> None:
        self.put(item, block=False)

    def get(self, block: bool = True, timeout: float | None = None) -> Any:
        with self.mutex:
            if self.queue and not self._waiters:  # nobody waits before this request
                return self.queue.pop()  # the connection used last (as LifoQueue): the others may time out idle
            if not block:
                raise queue.Empty
            w = _Waiter()
            self._waiters.append(w)
        w.ready.wait(timeout)
        with self.mutex:
            if w.served:
                return w.item
            w.served = True  # timed out: a put from now on passes it by
            try:
                self._waiters.remove(w)
            except ValueError:
                pass
        raise queue.Empty

    def get_nowait(self) -> Any:
        return self.get(block=False)
