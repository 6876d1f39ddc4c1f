"""Faults done to a store from the outside, for the tests: it loses the last records of a game's log (what a
failover to a replica that lagged does, or a backup restored from a moment before)."""

from __future__ import annotations


def drop_last(store, game_id: str, n: int = 1) -> None:
    """The store loses the last `n` records of a game's log, nothing else (its idempotency keys stay)."""
    from fairdeal.service.store import keys

    if hasattr(store, "r"):  # RedisStore, one server or a cluster
        for _ in range(n):
            store.r.rpop(keys.log(game_id))
    else:
        store._conn().execute(
            "DELETE FROM log WHERE game_id=? AND seq >= (SELECT COUNT(*) FROM log WHERE game_id=?) - ?",
            (game_id, game_id, n),
        )


def drop_log(store, game_id: str) -> list[str]:
    """The store loses a game's whole log (its table document stays); returns the records it held."""
    from fairdeal.service.store import keys

    records = store.records(game_id)
    if hasattr(store, "r"):
        store.r.delete(keys.log(game_id))
    else:
        store._conn().execute("DELETE FROM log WHERE game_id=?", (game_id,))
    return records


def put_log(store, game_id: str, records: list[str]) -> None:
    """The log of a game is made `records` (a restore from a backup), its table document untouched."""
    from fairdeal.service.store import keys

    if hasattr(store, "r"):
        store.r.delete(keys.log(game_id))
        if records:
            store.r.rpush(keys.log(game_id), *records)
    else:
        conn = store._conn()
        conn.execute("DELETE FROM log WHERE game_id=?", (game_id,))
        conn.executemany(
            "INSERT INTO log (game_id, seq, record, at) VALUES (?, ?, ?, 0)",
            [(game_id, i, r) for i, r in enumerate(records)],
        )
