"""What the service must know about gevent, the serving model of `fairdeal serve` (deploy/gunicorn.conf.py).

gunicorn's gevent worker monkey-patches the process when it starts: sockets, locks, events and sleeps become
cooperative, so thousands of waiting requests cost a greenlet each, not a thread. Two things stay blocking
and need care (what psycogreen does for psycopg2): a thread-local is then per greenlet, not per OS thread,
and a C call that blocks (SQLite's fsync, or its wait for another process's write lock) stalls every
greenlet of the worker. Without gevent (Flask's threaded server, the tests, the sweeper) these helpers are
the plain threading equivalents.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import Any


def patched() -> bool:
    """Whether this process runs under gevent's monkey-patching."""
    monkey = sys.modules.get("gevent.monkey")
    return bool(monkey and monkey.is_module_patched("threading"))


def os_thread_local() -> Any:
    """A thread-local whose values are per OS thread even under gevent (where threading.local is per
    greenlet: a per-connection cache would open a connection per request)."""
    if patched():
        from gevent import monkey

        return monkey.get_original("_thread", "_local")()
    return threading.local()


def offload(fn: Callable[..., Any], *args: Any) -> Any:
    """fn(*args), in one of gevent's native threads when patched (the calling greenlet waits cooperatively,
    the others run meanwhile); directly otherwise."""
    if patched():
        import gevent

        return gevent.get_hub().threadpool.apply(fn, args)
    return fn(*args)
