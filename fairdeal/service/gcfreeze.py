"""A worker's garbage collector, kept off its long-lived objects: the objects that survive a while are frozen,
so that no automatic collection walks them again.

Why: a worker holds thousands of event-feed streams (about 110 tracked objects each: its greenlet, socket, request
and generator stack) and its replayed games. CPython's full (generation 2) collection walks every tracked object
with the worker's one thread stopped, so every request the worker holds waits it out: at 10,000 streams 434 ms of
CPU on a quiet machine (bench/bench_gc_pause.py), 1.26 s once in a busy one (bench/README.md). Those objects live
for minutes to an hour and die by reference counting: 10,000 held streams left no cyclic garbage when they closed
(measured there too), so walking them finds nothing.

Every `every` seconds a pass collects what is not frozen (gc.collect(): the objects created since the last pass
that still live, few) and freezes the survivors (gc.freeze(): into the permanent generation, which collections
skip; a frozen object that its last reference leaves is still freed at once). The two run with no switch to
another greenlet between them (unless a finalizer yields), so the pass freezes no garbage.

The cost: a reference cycle among frozen objects that dies later is not reclaimed while frozen. To bound it, a
pass thaws instead (gc.unfreeze(), one full collection, then the freeze) when the frozen count has grown to
THAW_GROWTH times what it was after the last thaw (and at least FLOOR objects). Dead frozen cycles then never hold
more than (THAW_GROWTH - 1) times the live heap, the rule of Go's GOGC=100; a heap that stops growing is never
walked whole again, and one that leaks cycles is walked once per doubling.
"""

from __future__ import annotations

import gc
import logging
import threading
import time
from dataclasses import dataclass

THAW_GROWTH = 2.0  # frozen count / the count after the last thaw at which a pass thaws (collects everything)
FLOOR = 200_000  # below this many frozen objects a pass never thaws: a fresh worker's heap (~90,000) grows freely
log = logging.getLogger("fairdeal.gc")


@dataclass
class Pass:
    """What one pass did: thawed (a full collection) or not, the unreachable objects it found, the frozen count
    after it (exact after a thaw, else an upper bound), and how long it stopped the worker (seconds)."""

    thawed: bool
    found: int
    frozen: int
    seconds: float


class Freezer:
    """The policy, one pass at a time (run_pass); start() runs it every `every` seconds in a daemon thread (a
    greenlet under gevent)."""

    def __init__(self, every: float, metrics=None, growth: float = THAW_GROWTH, floor: int = FLOOR):
        self.every, self.metrics, self.growth, self.floor = every, metrics, growth, floor
        self.base: int | None = None  # the frozen count after the last thaw (None: no pass yet)
        # An upper bound of the frozen count: what each pass froze, added up. Counting the frozen objects
        # exactly (gc.get_freeze_count) walks them, chasing a pointer per object: 60 to 70 ms at 10,000
        # streams, a pause of its own. A frozen object that dies leaves the bound high, so it is
        # counted exactly only when the bound says a thaw may be due.
        self.bound = 0
        self._thread: threading.Thread | None = None

    def due_to_thaw(self, frozen: int) -> bool:
        return self.base is not None and frozen > max(self.growth * self.base, self.floor)

    def run_pass(self) -> Pass:
        t0 = time.perf_counter()
        thawed = self.base is None  # the first pass walks everything
        if thawed:
            gc.unfreeze()
        found = gc.collect()  # what is not frozen: the objects created since the last pass that live
        survivors = len(gc.get_objects())  # walks only those (all of them at the first pass: exact then)
        gc.freeze()
        self.bound = survivors if thawed else self.bound + survivors
        if self.due_to_thaw(self.bound):
            self.bound = gc.get_freeze_count()
            if self.due_to_thaw(self.bound):
                gc.unfreeze()
                found += gc.collect()
                gc.freeze()
                self.bound, thawed = gc.get_freeze_count(), True
        if thawed:
            self.base = self.bound
        done = Pass(thawed, found, self.bound, time.perf_counter() - t0)
        if self.metrics is not None:  # outside any collection: prometheus_client's locks are free to take
            self.metrics.inc("fairdeal_gc_passes_total", kind="thaw" if thawed else "freeze")
            self.metrics.observe("fairdeal_gc_pass_seconds", done.seconds)
            self.metrics.inc("fairdeal_gc_unreachable_total", found)
            self.metrics.set("fairdeal_gc_frozen_objects", done.frozen)
        return done

    def start(self) -> None:
        if self.every <= 0 or self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name="fairdeal-gc-freeze", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while True:
            time.sleep(self.every)
            try:
                self.run_pass()
            except Exception:  # noqa: BLE001 - a failed pass leaves the collector as it was; the next one tries
                log.exception("garbage collector pass failed")
