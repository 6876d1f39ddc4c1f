from __future__ import annotations

import pytest

from tests.service import redis_servers


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
