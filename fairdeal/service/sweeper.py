"""The sweeper: advances games where something is due (a clock ran out, a game went silent) even when no
client calls. Every game's next due time is kept in the store's "schedule" index; the sweeper touches those
that are due, which runs the same code path as any request (timeouts, bots, abandonment, the end)."""
from __future__ import annotations

import logging
import time

from fairdeal.service.errors import ApiError

log = logging.getLogger("fairdeal.sweeper")


def sweep_once(services, limit: int = 500) -> int:
    """Touch every game due now; returns how many were touched."""
    now = services.tables.now()
    due = services.store.index_range("schedule", max_score=now, limit=limit)
    for game_id, _ in due:
        try:
            table, c = services.tables.touch(game_id)
            if table["status"] == "over" or c.ended:
                services.store.index_remove("schedule", game_id)
        except ApiError:  # the table is gone: forget it
            services.store.index_remove("schedule", game_id)
        except Exception:
            log.exception("sweep failed", extra={"fields": {"game": game_id}})
        services.metrics.inc("fairdeal_sweeps_total")
    return len(due)


def run(services, interval: float = 1.0, once: bool = False) -> None:
    while True:
        started = time.monotonic()
        try:
            n = sweep_once(services)
        except Exception:  # the store is away: say so and try again, never exit
            log.exception("sweep failed")
            n = 0
        if n:
            log.info("swept", extra={"fields": {"games": n}})
        if once:
            return
        time.sleep(max(0.0, interval - (time.monotonic() - started)))
