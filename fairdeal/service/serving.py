"""The serving model, in one place for `fairdeal serve` and deploy/gunicorn.conf.py: gunicorn with gevent workers.

Most open requests are event-feed waits (a seated player waits for the others). Under gevent a waiting
request is a greenlet blocked on an Event: a few kilobytes and no CPU, so one worker holds thousands. The
quick requests are CPU-bound Python, so there is one worker per core. Each worker may hold
`worker_connections` connections; FAIRDEAL_MAX_WAITS (below it) keeps room for quick requests next to the
waits. Every connection is a file descriptor: the master raises its soft limit to what the workers need.
"""
from __future__ import annotations

import os
import resource
from typing import Any

WORKER_CLASS = "gevent"
DEFAULT_CONNECTIONS = 10_000   # per worker
FD_SLACK = 512                 # descriptors beside the client connections: Redis, SQLite, logs, the listener


def default_workers() -> int:
    return max(1, min(os.cpu_count() or 1, 8))


def settings(bind: str, workers: int, connections: int) -> dict[str, Any]:
    """gunicorn's settings for the fairdeal API."""
    return {
        "bind": bind,
        "workers": workers,
        "worker_class": WORKER_CLASS,
        "worker_connections": connections,
        "timeout": 60,             # a worker that does not report for this long (a stuck loop) is restarted
        "graceful_timeout": 30,    # open waits get this long on a restart; clients reconnect with their seq
        "keepalive": 5,
        "backlog": 4096,
        "accesslog": None,         # the app writes one structured JSON line per request (no tokens, no cards)
        "errorlog": "-",
        "max_requests": 0,         # workers keep their replayed games in memory; do not recycle them needlessly
        "control_socket_disable": True,  # gunicorn >= 24: one per user by default, shared by every instance
    }


def raise_fd_limit(needed: int) -> int:
    """Raise this process's soft RLIMIT_NOFILE towards `needed` (never above the hard limit); returns the
    soft limit now in force. Forked workers inherit it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
    if soft != resource.RLIM_INFINITY and soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
        soft = want
    return soft


def on_starting(server) -> None:
    """In the master, before any worker: the fd limit, and the signing key (created once, on first run)."""
    connections = server.cfg.worker_connections
    limit = raise_fd_limit(connections + FD_SLACK)
    if limit < connections + FD_SLACK:
        server.log.warning("the open-file limit is %s, below the %s that %s connections per worker need: raise "
                           "`ulimit -n` (or LimitNOFILE)", limit, connections + FD_SLACK, connections)
    from fairdeal.service.config import Config
    from fairdeal.service.signing import KeyRing
    KeyRing(Config.from_env().data_dir)
