"""Prometheus metrics through prometheus_client, one view across processes.

Under gunicorn every worker (and the sweeper `fairdeal serve` starts) writes its values to files in
PROMETHEUS_MULTIPROC_DIR (prometheus_client's multiprocess mode; serving.py sets the folder up before any
worker starts and marks a worker dead when it exits), and a scrape of /metrics, whichever worker answers it,
adds them all up. Without the variable (tests, `--dev`) each process answers for itself.

Gauges: the event-feed clients waiting now (summed over the live processes), and the games the store holds by
state (open tables, games running, finished games not yet archived), read from the store at scrape time.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily

from fairdeal.service.serving import MULTIPROC_ENV

BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
STORE_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)

# name -> (kind, help, label names)
DEFS = {
    "fairdeal_http_requests_total": (Counter, "HTTP requests by endpoint and status.", ("method", "route", "status")),
    "fairdeal_http_request_seconds": (Histogram, "HTTP request latency by endpoint.", ("route",)),
    "fairdeal_moves_total": (Counter, "Move records appended, by mover (player, bot, timeout).", ("by",)),
    "fairdeal_log_appends_total": (Counter, "Log entries appended by compare-and-append.", ()),
    "fairdeal_append_conflicts_total": (Counter, "Compare-and-append calls lost to another writer.", ()),
    "fairdeal_games_ended_total": (Counter, "Games ended, by reason.", ("reason",)),
    "fairdeal_blind_aborts_total": (
        Counter,
        "Blind games aborted, blamed on a seat, by why (step-timeout, move-timeout, left, revoke, bad-timeout-move).",
        ("why",),
    ),
    "fairdeal_cache_rebuilds_total": (
        Counter,
        "Cached games found out of step with the store (behind, diverged), rebuilt.",
        ("why",),
    ),
    "fairdeal_games_records_missing_total": (
        Counter,
        "Requests refused (503) for a game whose records the store "
        "lost or cannot read, by why (no-commit, unreadable, no-seed).",
        ("why",),
    ),
    "fairdeal_sweeps_total": (Counter, "Games touched by the sweeper.", ()),
    "fairdeal_move_seconds": (Histogram, "Time to record a player's move, bots' answers included.", ()),
    "fairdeal_store_seconds": (Histogram, "Store call latency, by operation.", ("op",)),
    "fairdeal_waits_started_total": (Counter, "Event-feed waits (long-polls, streams) that took a slot.", ()),
    "fairdeal_waits_ended_total": (Counter, "Event-feed waits that gave their slot back.", ()),
    "fairdeal_keepalives_batched_total": (
        Counter,
        "Keep-alive comments a worker's timer wrote to idle streams, a batch at a time (keepalives.py).",
        (),
    ),
    "fairdeal_waits_refused_total": (
        Counter,
        "Event-feed waits refused, by problem code (too-many-waits, server-busy, ...).",
        ("code",),
    ),
    "fairdeal_waits_token_ended_total": (
        Counter,
        "Event-feed waits ended because their token was ended or expired while they waited.",
        (),
    ),
    "fairdeal_gc_passes_total": (
        Counter,
        "The garbage collector's freeze passes (gcfreeze.py), by kind: freeze, or thaw (one full collection).",
        ("kind",),
    ),
    "fairdeal_gc_pass_seconds": (Histogram, "How long a freeze pass stopped its worker.", ()),
    "fairdeal_gc_unreachable_total": (Counter, "Unreachable objects the freeze passes' collections freed.", ()),
    "fairdeal_gc_frozen_objects": (
        Gauge,
        "Objects frozen out of the garbage collector's walks (gcfreeze.py; an upper bound between thaws).",
        (),
    ),
    "fairdeal_waiting_clients": (Gauge, "Event-feed clients waiting now (long-polls and streams).", ()),
    "fairdeal_tlog_damaged": (
        Gauge,
        "Processes that found the transparency log's stored leaves no longer hash to "
        "its signed head, and sign no head (0 when sound).",
        (),
    ),
}
# the store's indexes the game gauges count, by the state they hold
GAME_STATES = {"open": "lobby", "running": "schedule", "finished": "finished"}


class Metrics:
    """The service's metrics; inc / observe / add by name, with the DEFS labels as keywords."""

    def __init__(self, games_by_state: Callable[[], dict[str, int]] | None = None):
        self.registry = CollectorRegistry(auto_describe=True)
        self._m = {}
        for name, (kind, doc, labels) in DEFS.items():
            extra: dict[str, Any] = {}
            if kind is Histogram:
                extra["buckets"] = (
                    STORE_BUCKETS if name in ("fairdeal_store_seconds", "fairdeal_gc_pass_seconds") else BUCKETS
                )
            if kind is Gauge:
                extra["multiprocess_mode"] = "livesum"
            self._m[name] = kind(name, doc, labels, registry=self.registry, **extra)
        # (name, label items) -> the labelled child: prometheus_client's labels() checks and joins the label
        # values at every call, a cost on every request and store call; the label sets here are few and fixed
        # (routes, statuses, store operations, codes), so each child is looked up once
        self._children: dict[tuple, Any] = {}
        self.games_by_state = games_by_state

    def child(self, name: str, **labels):
        """The metric `name` with these label values (the same object every time): for a caller that counts
        or times one series over and over (the store's timing of each operation)."""
        return self._metric(name, labels)

    def _metric(self, name: str, labels: dict):
        if not labels:
            return self._m[name]
        key = (name, *labels.items())
        found = self._children.get(key)
        if found is None:  # a race here makes labels() run twice: it returns the same child both times
            found = self._children[key] = self._m[name].labels(**{k: str(v) for k, v in labels.items()})
        return found

    def inc(self, name: str, amount: float = 1.0, **labels) -> None:
        self._metric(name, labels).inc(amount)

    def add(self, name: str, amount: float, **labels) -> None:
        """A gauge up (or down, with a negative amount)."""
        self._metric(name, labels).inc(amount)

    def set(self, name: str, value: float, **labels) -> None:
        """A gauge to `value`."""
        self._metric(name, labels).set(value)

    def observe(self, name: str, seconds: float, **labels) -> None:
        self._metric(name, labels).observe(seconds)

    def scrape_registry(self) -> CollectorRegistry:
        """What a scrape shows: every process's values where PROMETHEUS_MULTIPROC_DIR is set, this one's else;
        and the store's game counts, read at each scrape."""
        registry = CollectorRegistry()
        if os.environ.get(MULTIPROC_ENV):
            from prometheus_client import multiprocess

            multiprocess.MultiProcessCollector(registry)
        else:
            registry.register(_Forward(self.registry))
        if self.games_by_state is not None:
            registry.register(_Games(self.games_by_state))
        return registry

    def render(self) -> bytes:
        return generate_latest(self.scrape_registry())

    def serve(self, host_port: str) -> None:
        """Answer scrapes on host:port from a thread of this process (a sweeper running on its own)."""
        from prometheus_client import start_http_server

        host, _, port = host_port.rpartition(":")
        start_http_server(int(port), host.strip("[]"), registry=self.scrape_registry())


class _Forward:
    """This process's own registry, collected into the scrape's."""

    def __init__(self, registry: CollectorRegistry):
        self.registry = registry

    def collect(self):
        return self.registry.collect()


class _Games:
    """fairdeal_games{state}: read from the store at each scrape (so every worker answers the same)."""

    def __init__(self, count: Callable[[], dict[str, int]]):
        self.count = count

    def collect(self):
        g = GaugeMetricFamily(
            "fairdeal_games",
            "Games the store holds: open tables (lobby), running games, finished games not yet archived.",
            labels=["state"],
        )
        for state, n in self.count().items():
            g.add_metric([state], n)
        yield g


def games_by_state(store) -> Callable[[], dict[str, int]]:
    return lambda: {state: store.index_count(index) for state, index in GAME_STATES.items()}
