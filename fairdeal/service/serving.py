"""The serving model, in one place for `fairdeal serve` and deploy/gunicorn.conf.py: gunicorn with gevent workers.

Most open requests are event-feed waits (a seated player waits for the others). Under gevent a waiting
request is a greenlet blocked on an Event: a few kilobytes and no CPU, so one worker holds thousands. The
quick requests are CPU-bound Python, so there is one worker per core. Each worker may hold
`worker_connections` connections; FAIRDEAL_MAX_WAITS (below it) keeps room for quick requests next to the
waits. Every connection is a file descriptor: the master raises its soft limit to what the workers need.

Metrics are one view across the workers (and the sweeper `fairdeal serve` starts): prometheus_client's
multiprocess mode, in PROMETHEUS_MULTIPROC_DIR (metrics_dir()); a worker that exits is marked dead (child_exit),
so its gauges leave the sum.
"""

from __future__ import annotations

import glob
import os
import resource
import signal
import subprocess
import sys
import tempfile
from typing import Any

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"  # prometheus_client's; this module must not import the library

WORKER_CLASS = "gevent"
FD_SLACK = 512  # descriptors beside the client connections: Redis, SQLite, logs, the listener
BACKLOG_MIN, BACKLOG_MAX = 2048, 65535
SOMAXCONN = "/proc/sys/net/core/somaxconn"


def backlog(cfg) -> int:
    """The listen backlog: room for every wait the instance holds (workers x FAIRDEAL_MAX_WAITS) to come back at
    once after a restart, before the workers accept them (streams spread their clients' return with `retry:`,
    clients back off with jitter: this is the margin for the rest). The kernel caps it at net.core.somaxconn."""
    return max(BACKLOG_MIN, min(BACKLOG_MAX, cfg.workers * cfg.max_waits))


def kernel_backlog_cap() -> int | None:
    """net.core.somaxconn (Linux), which silently caps every listen backlog; None where it cannot be read."""
    try:
        with open(SOMAXCONN) as fh:
            return int(fh.read().strip())
    except (OSError, ValueError):
        return None


def settings(cfg) -> dict[str, Any]:
    """gunicorn's settings for the fairdeal API, from the service's Config (FAIRDEAL_BIND, FAIRDEAL_WORKERS,
    FAIRDEAL_CONNECTIONS)."""
    return {
        "bind": cfg.bind,
        "workers": cfg.workers,
        "worker_class": WORKER_CLASS,
        "worker_connections": cfg.connections,
        "timeout": 60,  # a worker that does not report for this long (a stuck loop) is restarted
        "graceful_timeout": 30,  # open waits get this long on a restart; clients reconnect with their seq
        "keepalive": 5,
        "backlog": backlog(cfg),
        "accesslog": None,  # the app writes one structured JSON line per request (no tokens, no cards)
        "errorlog": "-",
        "max_requests": 0,  # workers keep their replayed games in memory; do not recycle them needlessly
        "control_socket_disable": True,  # gunicorn >= 24: one per user by default, shared by every instance
    }


def metrics_dir() -> str:
    """The folder every process of this server writes its metrics to: PROMETHEUS_MULTIPROC_DIR as given, else a new
    temporary one; emptied of an earlier run's files. Call it before prometheus_client is imported (in the master,
    so that the forked workers inherit it): the library picks its multiprocess mode on import."""
    folder = os.environ.get(MULTIPROC_ENV) or tempfile.mkdtemp(prefix="fairdeal-metrics-")
    os.makedirs(folder, exist_ok=True)
    for stale in glob.glob(os.path.join(folder, "*.db")):
        os.remove(stale)
    os.environ[MULTIPROC_ENV] = folder
    return folder


def child_exit(server, worker) -> None:
    """gunicorn hook, in the master: a worker exited; its live gauges (waiting clients) leave the sum."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


def post_worker_init(worker) -> None:
    """gunicorn hook, in each worker once its app is loaded: the garbage collector's freeze passes
    (gcfreeze.py: a worker's long-lived streams and games out of every full collection), every
    FAIRDEAL_GC_FREEZE seconds."""
    from fairdeal.service.gcfreeze import Freezer

    services = getattr(worker.wsgi, "extensions", {}).get("fairdeal")
    if services is None:  # another app under these settings (bench/bare_app.py): nothing of ours to run
        return
    Freezer(services.config.gc_freeze, services.metrics).start()


def _die_with_parent() -> None:
    """In the sweeper child, before exec (Linux): SIGTERM when the server's process dies, even by SIGKILL."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: the server's exit path still stops it
        pass


def start_sweeper(data_dir: str) -> subprocess.Popen:
    """`fairdeal sweep` as a child of the server, with the server's environment (its store, its metrics folder)."""
    return subprocess.Popen(
        [sys.executable, "-m", "fairdeal.cli", "-d", data_dir, "sweep"],
        preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None,
    )


def stop_sweeper(proc: subprocess.Popen | None) -> None:
    if proc is None or proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


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
        server.log.warning(
            "the open-file limit is %s, below the %s that %s connections per worker need: raise "
            "`ulimit -n` (or LimitNOFILE)",
            limit,
            connections + FD_SLACK,
            connections,
        )
    cap = kernel_backlog_cap()
    if cap is not None and cap < server.cfg.backlog:
        server.log.warning(
            "net.core.somaxconn is %s: the kernel shortens the listen backlog of %s to it, and a "
            "restart's reconnecting clients may find the queue full: raise it (sysctl -w "
            "net.core.somaxconn=%s)",
            cap,
            server.cfg.backlog,
            server.cfg.backlog,
        )
    from fairdeal.service import gunicorn_problems
    from fairdeal.service.config import Config
    from fairdeal.service.signing import KeyRing

    KeyRing(Config.from_env().data_dir)
    gunicorn_problems.install()
