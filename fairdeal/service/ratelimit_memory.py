"""This process's own rate-limit counts (the embedded store's limits): limits' MemoryStorage without its sweep thread.

MemoryStorage starts a threading.Timer whenever a count changes and none is alive, and that timer, 10 ms later,
walks every count it holds to drop the expired ones. Under gevent that is a thread (a greenlet and its
bookkeeping) for nearly every burst of requests, and a walk over every player's and address's counts: thousands
of them while thousands of event-feed streams are open, at every stream's reopening (bench/README.md, issue 25).
Here an expired count is dropped when it is next read (MemoryStorage.get does that already), and the walk that
frees the counts nobody reads any more runs inline, at most once every SWEEP_EVERY seconds. The counts and the
limits' arithmetic are MemoryStorage's own.
"""

from __future__ import annotations

import time

from limits.storage import MemoryStorage

SCHEME = "fairdeal-memory"  # a storage URI scheme (limits registers a subclass by its STORAGE_SCHEME)
SWEEP_EVERY = 10.0  # seconds between two walks over the counts (memory only: expiry is checked at every read)


class ProcessMemory(MemoryStorage):
    STORAGE_SCHEME = [SCHEME]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options: str):
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self.timer.cancel()  # the one timer MemoryStorage starts; no other is started
        self._swept = time.monotonic()
        self.sweeps = 0  # walks made (for the tests)

    # MemoryStorage calls its private __schedule_expiry before every change of a count; this is that name
    def _MemoryStorage__schedule_expiry(self) -> None:
        now = time.monotonic()
        if now - self._swept >= SWEEP_EVERY:
            self._swept = now
            self.sweeps += 1
            self._MemoryStorage__expire_events()  # type: ignore[attr-defined]  # MemoryStorage's own walk
