"""deploy/: redis.conf is a configuration redis-server accepts, with the stated durability, no anonymous access and
no open bind; gunicorn runs the serving model of `fairdeal serve` (gevent workers with room for thousands of waits); compose runs Redis (password from the
environment, on an internal network), the app and the sweeper (with no HTTP health check); the image's build
context leaves secrets and bulk out."""
from __future__ import annotations

import fnmatch
import pathlib
import re
import runpy
import subprocess

import pytest
import redis
import redis.backoff
import redis.retry
import yaml

from fairdeal.service.store.redis import RedisStore
from tests.service import redis_servers

ROOT = pathlib.Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


def compose() -> dict:
    return yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())


def redis_user_args() -> list[str]:
    """The `--user ...` arguments docker-compose.yml gives redis-server, with its password variable filled in."""
    command = " ".join(compose()["services"]["redis"]["command"])
    words = command.split("--user", 1)[1].split()
    return ["--user"] + [w.strip('"').replace("$$FAIRDEAL_REDIS_PASSWORD", "pw-for-the-test") for w in words]


@pytest.fixture
def deployed_redis(tmp_path):
    """redis-server with deploy/redis.conf and compose's ACL user, on a loopback port."""
    exe = redis_servers.require_redis_server()
    port = redis_servers.free_port()
    proc = subprocess.Popen([exe, str(DEPLOY / "redis.conf"), "--port", str(port), "--dir", str(tmp_path),
                             *redis_user_args()], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        yield port
    finally:
        redis_servers.stop([proc])


def _wait_auth_ping(port: int) -> redis.Redis:
    import time
    r = redis.Redis(host="127.0.0.1", port=port, username="fairdeal", password="pw-for-the-test",
                    decode_responses=True)
    for _ in range(200):
        try:
            r.ping()
            return r
        except redis.ConnectionError:
            time.sleep(0.05)
    raise AssertionError("redis-server with deploy/redis.conf did not start")


def test_the_whole_service_runs_as_the_acl_user(deployed_redis, tmp_path):
    """A game from its commit to its signed end, rate limits counting (fd:rl:*), through the user compose
    creates: no command the service or Flask-Limiter sends is refused by the ACL."""
    from fairdeal.service.app import create_app
    from fairdeal.service.config import Config
    from tests.service.checks import check_ended, run_verifier
    from tests.service.client import Api
    r = _wait_auth_ping(deployed_redis)
    app = create_app(Config(data_dir=str(tmp_path / "data"),
                            redis_url=f"redis://fairdeal:pw-for-the-test@127.0.0.1:{deployed_redis}/0"))
    api = Api(app.test_client())
    p = api.player()
    t = api.table(p, rule_set="spades", clocks="off")
    api.start(p, t["id"])
    for _ in range(10):  # some moves (bots' too), then the host ends it: signed, seed revealed
        v = api.view(p, t["id"])
        assert api.move(p, t["id"], v["seq"], v["legal_moves"][0]).status_code == 201
    assert api.post(f"/tables/{t['id']}/cancel", p).status_code == 200
    transcript = api.get(f"/games/{t['id']}/transcript").get_json()
    check_ended(transcript, "cancelled")
    run_verifier(transcript)
    assert api.c.get("/readyz").status_code == 200
    assert any(k.startswith("fd:rl:") for k in r.scan_iter("fd:*"))


def test_redis_conf_is_accepted_durable_and_closed(deployed_redis):
    r = _wait_auth_ping(deployed_redis)
    # anonymous clients are refused
    with pytest.raises(redis.AuthenticationError):
        redis.Redis(host="127.0.0.1", port=deployed_redis,
                    retry=redis.retry.Retry(redis.backoff.NoBackoff(), 0)).ping()  # no retries: refused at once
    # the service's user does everything the store does, on its own keys only, and nothing dangerous
    store = RedisStore(f"redis://fairdeal:pw-for-the-test@127.0.0.1:{deployed_redis}/0")
    assert store.put_doc("table", "0123456789abcdef", {"a": 1}, 0)
    assert store.append("0123456789abcdef", 0, "{}", 1.0, "k", "h").status == "ok"
    store.index_set("lobby", "0123456789abcdef", 1.0)
    with pytest.raises(redis.exceptions.NoPermissionError):
        r.set("someone-else", 1)
    with pytest.raises(redis.exceptions.NoPermissionError):
        r.flushall()
    with pytest.raises(redis.exceptions.NoPermissionError):
        r.config_get("appendfsync")


def test_redis_conf_states_its_durability_and_binds_no_open_address():
    text = (DEPLOY / "redis.conf").read_text()
    settings = {line.split()[0]: line.split(None, 1)[1] for line in text.splitlines()
                if line.strip() and not line.startswith("#")}
    assert settings["appendonly"] == "yes" and settings["appendfsync"] == "always"
    assert settings["maxmemory-policy"] == "noeviction"
    assert settings["protected-mode"] == "yes" and "0.0.0.0" not in settings["bind"] and "*" not in settings["bind"]
    assert settings["user"] == "default off"
    # docs/operations.md says the same as the file
    ops = (ROOT / "docs" / "operations.md").read_text()
    assert "appendfsync always" in ops and "bench/bench_aof.py" in ops


def test_gunicorn_runs_the_serving_model_of_fairdeal_serve_with_the_services_settings(monkeypatch, tmp_path):
    from fairdeal.service import serving
    metrics = tmp_path / "metrics"
    metrics.mkdir()
    (metrics / "counter_123.db").write_bytes(b"an earlier run's")
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(metrics))
    monkeypatch.setenv("FAIRDEAL_BIND", "127.0.0.1:9123")
    monkeypatch.setenv("FAIRDEAL_WORKERS", "3")
    monkeypatch.setenv("FAIRDEAL_CONNECTIONS", "12000")
    conf = runpy.run_path(str(DEPLOY / "gunicorn.conf.py"))
    assert conf["worker_class"] == "gevent" and conf["worker_connections"] == 12000
    assert conf["timeout"] > 25  # longer than the longest long-poll
    assert conf["bind"] == "127.0.0.1:9123" and conf["workers"] == 3
    assert conf["on_starting"] is serving.on_starting  # raises the open-file limit, makes the key
    assert conf["child_exit"] is serving.child_exit    # a worker's metrics leave the live gauges when it exits
    assert list(metrics.iterdir()) == []                # one metrics view, emptied of an earlier run's files


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


def test_gunicorn_conf_refuses_a_bad_setting_in_one_line(monkeypatch, tmp_path):
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    monkeypatch.setenv("FAIRDEAL_WORKERS", "many")
    with pytest.raises(SystemExit) as e:
        runpy.run_path(str(DEPLOY / "gunicorn.conf.py"))
    assert "FAIRDEAL_WORKERS='many'" in str(e.value)


def test_compose_runs_redis_closed_the_app_and_the_sweeper():
    c = compose()
    services = c["services"]
    assert list(services) == ["redis", "app", "sweeper"]
    assert "redis.conf" in " ".join(services["redis"]["volumes"]) and services["sweeper"]["command"][:2] == [
        "fairdeal", "sweep"]
    # Redis: no published port, only on the internal network, its password from the environment (required)
    assert "ports" not in services["redis"] and services["redis"]["networks"] == ["store"]
    assert c["networks"]["store"]["internal"] is True
    command = " ".join(services["redis"]["command"])
    assert "--bind 127.0.0.1 $$(hostname -i)" in command and '">$$FAIRDEAL_REDIS_PASSWORD"' in command
    for name in ("app", "sweeper"):
        url = services[name]["environment"]["FAIRDEAL_REDIS_URL"]
        assert url.startswith("redis://fairdeal:${FAIRDEAL_REDIS_PASSWORD:?") and url.endswith("@redis:6379/0")
    # the sweeper serves no HTTP: the image's health check (the API's /readyz) is not its own
    assert services["sweeper"]["healthcheck"] == {"disable": True}
    assert services["app"]["environment"]["FAIRDEAL_BIND"] == "0.0.0.0:8000"


def test_the_image_copies_what_exists_and_checks_the_apis_readiness():
    text = (DEPLOY / "Dockerfile").read_text()
    sources = [w for line in text.splitlines() if line.startswith("COPY") for w in line.split()[1:-1]]
    assert sources and all((ROOT / s).exists() for s in sources), sources
    assert "/readyz" in text and "FAIRDEAL_BIND" in text


def ignored(path: str, patterns: list[str]) -> bool:
    """Whether .dockerignore's patterns (no negations here) leave `path` out of the build context."""
    for p in patterns:
        p = p.rstrip("/")
        if fnmatch.fnmatch(path, p) or fnmatch.fnmatch(path, p + "/*") or \
                (p.startswith("**/") and any(fnmatch.fnmatch(part, p[3:]) for part in path.split("/"))):
            return True
    return False


def test_the_build_context_leaves_keys_store_git_and_caches_out():
    patterns = [line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
                if line.strip() and not line.startswith("#")]
    for path in ("var/keys/ed25519-x.pem", "var/fairdeal.sqlite3", ".git/config", ".venv/test/bin/python",
                 "fairdeal/service/__pycache__/app.cpython-311.pyc", ".pytest_cache/v", ".hypothesis/examples",
                 "deploy/.env"):
        assert ignored(path, patterns), path
    for path in ("fairdeal/service/app.py", "pyproject.toml", "README.md", "LICENSE", "deploy/gunicorn.conf.py"):
        assert not ignored(path, patterns), path


def test_the_license_is_the_mit_license_the_metadata_names():
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License") and "Permission is hereby granted, free of charge" in text
    assert re.search(r'license = \{ text = "MIT" \}', (ROOT / "pyproject.toml").read_text())


def test_the_listen_backlog_holds_every_wait_of_the_instance_coming_back_at_once():
    from fairdeal.service import serving
    from fairdeal.service.config import Config
    assert serving.settings(Config(workers=2, max_waits=5000))["backlog"] == 10_000
    assert serving.settings(Config(workers=1, max_waits=100))["backlog"] == serving.BACKLOG_MIN
    assert serving.settings(Config(workers=8, max_waits=20_000))["backlog"] == serving.BACKLOG_MAX


def test_the_master_warns_when_the_kernel_would_shorten_the_backlog(monkeypatch, tmp_path):
    from types import SimpleNamespace
    from fairdeal.service import serving
    monkeypatch.setenv("FAIRDEAL_DATA", str(tmp_path))
    somaxconn = tmp_path / "somaxconn"
    somaxconn.write_text("4096\n")
    monkeypatch.setattr(serving, "SOMAXCONN", str(somaxconn))
    warned = []
    log = SimpleNamespace(warning=lambda msg, *args: warned.append(msg % args))
    server = SimpleNamespace(cfg=SimpleNamespace(worker_connections=100, backlog=10_000), log=log)
    serving.on_starting(server)
    assert any("somaxconn is 4096" in w and "10000" in w for w in warned)
    warned.clear()
    server.cfg.backlog = 4096
    serving.on_starting(server)
    assert not any("somaxconn" in w for w in warned)
