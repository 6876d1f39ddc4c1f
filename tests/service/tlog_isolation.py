"""A Redis database of its own for each transparency-log test: the log's keys are global (one log per service),
and these tests sign heads, rewrite leaves and store forged heads, which other tests on the shared database
must never see. Import `redis_url` into a test module: it overrides the session's, on the same server."""

from __future__ import annotations

import itertools

import pytest

_dbs = itertools.cycle(range(1, 16))


@pytest.fixture
def redis_url(redis_url):
    import redis

    url = redis_url.rsplit("/", 1)[0] + f"/{next(_dbs)}"
    client = redis.Redis.from_url(url)
    client.flushdb()
    client.close()
    return url


@pytest.fixture(name="tlog_store", params=["sqlite", "redis", "cluster"])  # named apart: see served.py
def tlog_store_fixture(request, tmp_path):
    """A store of each kind with a log of its own (the cluster's is shared by the session: start from its size)."""
    from fairdeal.service.store.sqlite import SqliteStore

    if request.param == "sqlite":
        s = SqliteStore(str(tmp_path / "s.sqlite3"))
    else:
        from fairdeal.service.store.redis import RedisStore

        s = RedisStore(request.getfixturevalue("redis_url" if request.param == "redis" else "redis_cluster_url"))
    yield s
    s.close()
