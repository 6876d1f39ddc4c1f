from __future__ import annotations

import pytest

from tests.service import redis_servers
from tests.service.client import Api


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory):
    proc, port = redis_servers.start_server(str(tmp_path_factory.mktemp("redis")))
    yield f"redis://127.0.0.1:{port}/0"
    redis_servers.stop([proc])


@pytest.fixture(scope="session")
def redis_cluster_url(tmp_path_factory):
    procs, ports = redis_servers.start_cluster(str(tmp_path_factory.mktemp("cluster")))
    yield f"redis+cluster://127.0.0.1:{ports[0]}"
    redis_servers.stop(procs)


class Clock:
    """A clock the tests move by hand."""

    def __init__(self, t: float = 1_800_000_000.0):
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


@pytest.fixture
def clock():
    return Clock()


def make_app(tmp_path, store_kind: str, request, now=None, **cfg):
    import time

    from fairdeal.service.app import create_app
    from fairdeal.service.config import Config
    from fairdeal.service.store.sqlite import SqliteStore

    config = Config(data_dir=str(tmp_path / "data"), **cfg)
    if store_kind == "redis":
        from fairdeal.service.store.redis import RedisStore

        store = RedisStore(request.getfixturevalue("redis_url"))
    else:
        store = SqliteStore(str(tmp_path / "data" / "fairdeal.sqlite3"))
    return create_app(config, store=store, now=now or time.time)


STORES = ("sqlite", "redis")  # the embedded default first


@pytest.fixture(params=STORES)
def app(request, tmp_path):
    """The app on each store in turn (a test may pin one: parametrize "app" indirectly with a store's name)."""
    return make_app(tmp_path, request.param, request)


@pytest.fixture
def redis_app(request, tmp_path):
    return make_app(tmp_path, "redis", request)


@pytest.fixture
def api(app):
    """A client of `app`: every test written with it runs on SQLite and on Redis."""
    return Api(app.test_client())
