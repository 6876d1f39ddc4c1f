"""Storage: Redis in production, SQLite embedded for one machine; one interface (base.Store)."""
from __future__ import annotations

import os

from fairdeal.service.store.base import Store


def open_store(redis_url: str | None, data_dir: str, redis_connections: int | None = None,
               wait_replicas: int = 0, wait_timeout: float = 1.0) -> Store:
    """Redis when a URL is configured, else the embedded SQLite store in the data dir."""
    if redis_url:
        from fairdeal.service.store.redis import POOL_SIZE, RedisStore
        return RedisStore(redis_url, redis_connections or POOL_SIZE, wait_replicas, wait_timeout)
    from fairdeal.service.store.sqlite import SqliteStore
    return SqliteStore(os.path.join(data_dir, "fairdeal.sqlite3"))


__all__ = ["Store", "open_store"]
