"""The serving model, in one place for `fairdeal serve` and deploy/gunicorn.conf.py: gunicorn with gevent workers.

Most open requests are event-feed waits (a seated player waits for the others). Under gevent a waiting
request is a greenlet blocked on an Event: a few kilobytes and no CPU, so one worker holds thousands. The
quick requests are CPU-bound Python, so there is one worker per core. Each worker may hold
`worker_connections` connections; FAIRDEAL_MAX_WAITS (below it) keeps room for quick requests next to the
waits. Every connection is a file descriptor: the master raises its soft limit to what the workers need.
"""
from __future__ import annotations

import resource
from typing import Any

WORKER_CLASS = "gevent"
FD_SLACK = 512                 # descriptors beside the client connections: Redis, SQLite, logs, the listener


def settings(cfg) -> dict[str, Any]:
    """gunicorn's settings for the fairdeal API, from the service's Config (FAIRDEAL_BIND, FAIRDEAL_WORKERS,
    FAIRDEAL_CONNECTIONS)."""
    return {
        "bind": cfg.bind,
        "workers": cfg.workers,
        "worker_class": WORKER_CLASS,
        "worker_connections": cfg.connections,
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
    """In the master, before any worker: the fd limit; the signing key (created once, on first run); gunicorn's
    own refusals (a request line or headers too long, ...) answered as problem JSON, not HTML."""
    connections = server.cfg.worker_connections
    limit = raise_fd_limit(connections + FD_SLACK)
    if limit < connections + FD_SLACK:
        server.log.warning("the open-file limit is %s, below the %s that %s connections per worker need: raise "
                           "`ulimit -n` (or LimitNOFILE)", limit, connections + FD_SLACK, connections)
    from fairdeal.service import gunicorn_problems
    from fairdeal.service.config import Config
    from fairdeal.service.signing import KeyRing
    KeyRing(Config.from_env().data_dir)
    gunicorn_problems.install()
