"""The cyclic garbage collector's pauses, timed and counted in the metrics (`fairdeal_gc_pause_seconds`, by
generation). Under gevent a worker is one thread: a collection stops every request and stream the worker holds
for as long as it runs, and a full one (generation 2) runs as long as the worker holds objects to walk (about
125 ms with 10,000 streams held, each with its request: bench/README.md, bench_idle.py). The quick requests' p99
beside many streams is this figure; the histogram shows it to an operator."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any


class GcWatch:
    """A gc.callbacks entry: each collection's length by generation, into `metrics` (and kept, for tests)."""

    def __init__(self, metrics: Any, clock: Callable[[], float] = time.perf_counter):
        self.metrics, self.clock = metrics, clock
        self._started: float | None = None
        self.collections = [0, 0, 0]
        self.longest = [0.0, 0.0, 0.0]

    def __call__(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._started = self.clock()
            return
        if self._started is None:  # installed during a collection
            return
        seconds, self._started = self.clock() - self._started, None
        g = info["generation"]
        self.collections[g] += 1
        self.longest[g] = max(self.longest[g], seconds)
        self.metrics.observe("fairdeal_gc_pause_seconds", seconds, generation=g)


def install(metrics: Any) -> GcWatch:
    """Time this process's collections into `metrics`, in place of any watch installed before (one a process:
    the last services built, as a worker builds one)."""
    gc.callbacks[:] = [cb for cb in gc.callbacks if not isinstance(cb, GcWatch)]
    watch = GcWatch(metrics)
    gc.callbacks.append(watch)
    return watch
