"""The sweeper: advances games where something is due (a clock ran out, a game went silent) even when no
client calls. Every game's next due time is kept in the store's "schedule" index (a sorted set: Redis
ZRANGEBYSCORE, SQLite's (name, score) index); a sweep reads only the entries that are due, never the games
that are not, and touches them, which runs the same code path as any request (timeouts, bots, abandonment,
the end). Between sweeps it sleeps until the earliest entry is due (at most `interval`), so a clock fires on
time and an idle service costs a read a second.

Waiting clients do not depend on it: a waiter wakes at its game's due time and its own read applies the
timeout move (feed.py). The sweeper serves the games nobody waits on.

Once a minute it also runs retention (retention.py): finished games past FAIRDEAL_RETENTION go to the archive and
leave the store.
"""

from __future__ import annotations

import logging
import time

from fairdeal.service import retention
from fairdeal.service.errors import ApiError, OutageLog, refusal_kind, store_unavailable

log = logging.getLogger("fairdeal.sweeper")

BATCH = 500
RETRY_FAILED = 30.0  # a game whose sweep failed is looked at again this much later, not at every sweep
RETENTION_EVERY = 60.0  # seconds between retention passes (a purge of the embedded store's idempotency keys is a
# write over the whole table: not every round)


def sweep_once(services, limit: int = BATCH) -> int:
    """Touch the games due now (at most `limit`, earliest first); returns how many."""
    store = services.store
    now = services.tables.now()
    due = store.index_range("schedule", max_score=now, limit=limit)
    for game_id, _ in due:
        try:
            game = services.games.touch(game_id)
            if game.table["status"] == "over" or game.ended:
                store.index_remove("schedule", game_id)
            else:
                _reschedule(services, game, now)
        except ApiError:  # the table is gone: forget it
            store.index_remove("schedule", game_id)
        except Exception as e:
            if store_unavailable(e):
                raise  # the store is away: the round ends (run() logs the outage once)
            log.exception("sweep failed", extra={"fields": {"game": game_id}})
            store.index_set("schedule", game_id, now + RETRY_FAILED)
        services.metrics.inc("fairdeal_sweeps_total")
    return len(due) + tournaments_tick(services)


def tournaments_tick(services) -> int:
    """The duplicate tournaments being played: one round each (tournaments.Tournaments.sweep)."""
    if services.tournaments is None:
        return 0
    try:
        return services.tournaments.sweep()
    except Exception as e:
        if store_unavailable(e):
            raise
        log.exception("tournament round failed")
        return 0


def _reschedule(services, game, now: float) -> None:
    """Write the game's next due time, whatever this process last wrote: the entry that made it due may
    have been written by another process, and left in the past it would be swept again and again."""
    when = services.games.clocks.next_check(game, for_index=True)
    if when is None:
        services.store.index_remove("schedule", game.game_id)
        game.scheduled = None
        return
    if when <= now:  # still due after the touch (its step limit): not before the next round
        when = now + 1.0
    services.store.index_set("schedule", game.game_id, when)
    game.scheduled = round(when, 1)


def log_tick(services) -> None:
    """The transparency log's round: queued leaves sequenced, a head signed when due (translog.TransLog.tick)."""
    if services.translog is not None:
        try:
            services.translog.tick()
        except Exception:  # the log catches up at the next round; the games must not wait for it
            log.exception("transparency log round failed")


def next_due(services) -> float | None:
    """The earliest due time in the index (None: nothing scheduled)."""
    first = services.store.index_range("schedule", limit=1)
    return first[0][1] if first else None


def run(
    services,
    interval: float = 1.0,
    once: bool = False,
    limit: int = BATCH,
    sleep=time.sleep,
    outage: OutageLog | None = None,
) -> None:
    """Sweep (and run retention) round after round. A store outage is logged as the service logs one: a line
    when it starts, one a minute while it lasts, one when the store is back; a traceback only for other errors."""
    outage = outage or OutageLog()
    retained = -RETENTION_EVERY
    while True:
        try:
            n = sweep_once(services, limit)
            log_tick(services)
            if n:
                log.info("swept", extra={"fields": {"games": n}})
            if time.monotonic() - retained >= RETENTION_EVERY:
                retention.run_once(services)
                retained = time.monotonic()
            outage.succeeded()
            if once:
                return
            if n >= limit:
                continue  # more are due: no sleep
            soonest = next_due(services)
        except Exception as e:  # say so and try again, never exit
            reason = store_unavailable(e)
            if reason:
                outage.failed(reason, refusal_kind(e))
            else:
                log.exception("sweep failed")
            if once:
                return
            soonest = None
        wait = interval if soonest is None else soonest - services.tables.now()
        sleep(min(interval, max(0.01, wait)))
