"""Faults done to a store from the outside, for the tests: it loses the last records of a game's log (what a
failover to a replica that lagged does, or a backup restored from a moment before)."""
from __future__ import annotations


def drop_last(store, game_id: str, n: int = 1) -> None:
    """The store loses the last `n` records of a game's log, nothing else (its idempotency keys stay)."""
    from fairdeal.service.store import keys
    if hasattr(store, "r"):   # RedisStore, one server or a cluster
        for _ in range(n):
            store.r.rpop(keys.log(game_id))
    else:
        store._conn().execute("DELETE FROM log WHERE game_id=? AND seq >= "
                              "(SELECT COUNT(*) FROM log WHERE game_id=?) - ?", (game_id, game_id, n))
