"""Prometheus metrics in the text exposition format, without a client library.

Counters and one latency histogram per process. Under several gunicorn workers each scrape answers for the
worker that serves it; every series carries a `pid` label so the series of different workers never collide
(sum them in PromQL: sum without(pid) (...)).
"""
from __future__ import annotations

import os
import threading
from collections import defaultdict

BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

HELP = {
    "fairdeal_http_requests_total": "HTTP requests by endpoint and status.",
    "fairdeal_http_request_seconds": "HTTP request latency by endpoint.",
    "fairdeal_moves_total": "Move records appended, by mover (player, bot, timeout).",
    "fairdeal_log_appends_total": "Log entries appended by compare-and-append.",
    "fairdeal_append_conflicts_total": "Compare-and-append calls lost to another writer.",
    "fairdeal_games_ended_total": "Games ended, by reason.",
    "fairdeal_cache_rebuilds_total": "Cached games found out of step with the store (behind, diverged), rebuilt.",
    "fairdeal_sweeps_total": "Games touched by the sweeper.",
    "fairdeal_move_seconds": "Time to record a player's move, bots' answers included.",
    "fairdeal_waits_started_total": "Event-feed waits (long-polls, streams) that took a slot; open = started - ended.",
    "fairdeal_waits_ended_total": "Event-feed waits that gave their slot back.",
    "fairdeal_waits_refused_total": "Event-feed waits refused, by problem code (too-many-waits, server-busy, ...).",
}


def _labels(pairs) -> str:
    return ",".join(f'{k}="{str(v)}"' for k, v in pairs)


class Metrics:
    def __init__(self):
        self._lock = threading.Lock()
        self._counters: dict[tuple, float] = defaultdict(float)
        self._hist: dict[tuple, list] = {}

    def inc(self, name: str, amount: float = 1.0, **labels) -> None:
        key = (name, tuple(sorted(labels.items())))
        with self._lock:
            self._counters[key] += amount

    def observe(self, name: str, seconds: float, **labels) -> None:
        key = (name, tuple(sorted(labels.items())))
        with self._lock:
            h = self._hist.setdefault(key, [[0] * len(BUCKETS), 0, 0.0])
            for i, b in enumerate(BUCKETS):
                if seconds <= b:
                    h[0][i] += 1
            h[1] += 1
            h[2] += seconds

    def render(self) -> str:
        pid = ("pid", os.getpid())
        lines: list[str] = []
        seen: set[str] = set()

        def header(name: str, kind: str) -> None:
            if name not in seen:
                seen.add(name)
                lines.append(f"# HELP {name} {HELP.get(name, name)}")
                lines.append(f"# TYPE {name} {kind}")
        with self._lock:
            for (name, labels), value in sorted(self._counters.items()):
                header(name, "counter")
                lines.append(f"{name}{{{_labels(labels + (pid,))}}} {value}")
            for (name, labels), (buckets, count, total) in sorted(self._hist.items()):
                header(name, "histogram")
                for b, n in zip(BUCKETS, buckets):
                    lines.append(f"{name}_bucket{{{_labels(labels + (('le', b), pid))}}} {n}")
                lines.append(f"{name}_bucket{{{_labels(labels + (('le', '+Inf'), pid))}}} {count}")
                lines.append(f"{name}_count{{{_labels(labels + (pid,))}}} {count}")
                lines.append(f"{name}_sum{{{_labels(labels + (pid,))}}} {total}")
        return "\n".join(lines) + "\n"
