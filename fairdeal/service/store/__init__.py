"""Storage: Redis in production, SQLite embedded for one machine; one interface (base.Store)."""

from __future__ import annotations

import os

from fairdeal.service.store.base import Store


def open_store(config) -> Store:
    """Redis when the config names one, else the embedded SQLite store in the data dir."""
    if config.redis_url:
        from fairdeal.service.store.redis import RedisStore

        return RedisStore(
            config.redis_url,
            config.redis_connections,
            config.redis_wait_replicas,
            config.redis_wait_timeout,
            config.idem_ttl,
        )
    from fairdeal.service.store.sqlite import SqliteStore

    return SqliteStore(os.path.join(config.data_dir, "fairdeal.sqlite3"), config.idem_ttl)


__all__ = ["Store", "open_store"]
