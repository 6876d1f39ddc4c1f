"""deploy/: redis.conf is a configuration redis-server accepts, with the stated durability; gunicorn runs the
serving model of `fairdeal serve` (gevent workers with room for thousands of waits); compose runs Redis, the
app and the sweeper."""
from __future__ import annotations

import pathlib
import re
import runpy

import redis

from tests.service import redis_servers

DEPLOY = pathlib.Path(__file__).resolve().parents[2] / "deploy"


def test_redis_conf_is_accepted_and_durable(tmp_path):
    exe = redis_servers.require_redis_server()
    port = redis_servers.free_port()
    import subprocess
    proc = subprocess.Popen([exe, str(DEPLOY / "redis.conf"), "--port", str(port), "--bind", "127.0.0.1",
                             "--dir", str(tmp_path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        redis_servers._wait_ping(port)
        r = redis.Redis(host="127.0.0.1", port=port, decode_responses=True)
        assert r.config_get("appendonly")["appendonly"] == "yes"
        assert r.config_get("appendfsync")["appendfsync"] == "everysec"
        assert r.config_get("maxmemory-policy")["maxmemory-policy"] == "noeviction"
    finally:
        redis_servers.stop([proc])


def test_gunicorn_runs_the_serving_model_of_fairdeal_serve(monkeypatch):
    from fairdeal.service import serving
    monkeypatch.setenv("FAIRDEAL_CONNECTIONS", "12000")
    monkeypatch.delenv("FAIRDEAL_WORKERS", raising=False)
    conf = runpy.run_path(str(DEPLOY / "gunicorn.conf.py"))
    assert conf["worker_class"] == "gevent" and conf["worker_connections"] == 12000
    assert conf["workers"] == serving.default_workers()
    assert conf["timeout"] > 25  # longer than the longest long-poll
    assert conf["on_starting"] is serving.on_starting  # raises the open-file limit, makes the key


def test_the_fd_limit_is_raised_for_the_connections_but_never_above_the_hard_limit():
    import resource
    from fairdeal.service import serving
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))
        want = 2048 if hard == resource.RLIM_INFINITY else min(2048, hard)
        assert serving.raise_fd_limit(2048) == want
        assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] == want
        if hard != resource.RLIM_INFINITY:
            assert serving.raise_fd_limit(hard + 10) == hard
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_compose_runs_redis_with_aof_the_app_and_the_sweeper():
    text = (DEPLOY / "docker-compose.yml").read_text()
    services = re.findall(r"^  (\w+):$", text.split("\nvolumes:")[0], re.M)
    assert services == ["redis", "app", "sweeper"]
    assert "redis.conf" in text and '"fairdeal", "sweep"' in text and "FAIRDEAL_REDIS_URL" in text
    assert "gunicorn.conf.py" in (DEPLOY / "Dockerfile").read_text()
