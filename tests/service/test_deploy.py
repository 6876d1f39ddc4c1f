"""deploy/: redis.conf is a configuration redis-server accepts, with the stated durability, no anonymous access and
no open bind; gunicorn runs the serving model of `fairdeal serve` (gevent workers with room for thousands of
waits); compose runs Redis (password from the environment, on an internal network), the app and the sweeper
(with no HTTP health check); the image's build context leaves secrets and bulk out."""

from __future__ import annotations

import fnmatch
import pathlib
import re
import runpy

import pytest
import redis
import redis.backoff
import redis.retry

from fairdeal.service.store.base import StoreUnavailable
from fairdeal.service.store.redis import RedisStore
from tests.service.deployed_redis import DeployedRedis, compose

ROOT = pathlib.Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


@pytest.fixture
def deployed(tmp_path):
    """redis-server from deploy/redis.conf (port and dir replaced) with compose's ACL user."""
    server = DeployedRedis(tmp_path).start()
    yield server
    server.close()


def test_the_whole_service_runs_as_the_acl_user(deployed, tmp_path):
    """A game from its commit to its signed end, rate limits counting (fd:rl:*), through the user compose
    creates: Redis refuses none of the commands the service or Flask-Limiter sends (its ACL log is empty but
    for redis-py's CLIENT SETINFO, which it sends on connecting and does without when refused)."""
    from fairdeal.service.app import create_app
    from fairdeal.service.config import Config
    from tests.service.checks import check_ended, run_verifier
    from tests.service.client import Api

    op = deployed.operator()
    op.acl_log_reset()
    app = create_app(Config(data_dir=str(tmp_path / "data"), redis_url=deployed.url))
    api = Api(app.test_client())
    p = api.player()
    t = api.table(p, rule_set="spades", clocks="off")
    api.start(p, t["id"])
    waited = api.get(f"/games/{t['id']}/events?after=0&wait=1", p)  # a wait: SSUBSCRIBE on the game's channel
    assert waited.status_code == 200, waited.get_json()
    for _ in range(10):  # some moves (bots' too), then the host ends it: signed, seed revealed
        v = api.view(p, t["id"])
        assert api.move(p, t["id"], v["seq"], v["legal_moves"][0]).status_code == 201
    assert api.post(f"/tables/{t['id']}/cancel", p).status_code == 200
    transcript = api.get(f"/games/{t['id']}/transcript").get_json()
    check_ended(transcript, "cancelled")
    run_verifier(transcript)
    for path in (f"/log/games/{t['id']}", "/log/head"):  # the transparency log: sequenced, head signed
        assert api.get(path).status_code == 200, api.get(path).get_json()
    store = RedisStore(deployed.url, wait_replicas=1, wait_timeout=0.01)  # WAIT, through a pipeline
    with pytest.raises(StoreUnavailable):  # no replica here: refused for want of one, not by the ACL
        store.append("0123456789abcdef", 0, "{}", 1.0)
    store.delete_game("0123456789abcdef")
    assert api.c.get("/readyz").status_code == 200
    assert any(k.startswith("fd:rl:") for k in op.scan_iter("fd:*"))
    refused = {(e["reason"], e["object"]) for e in op.acl_log()}
    assert refused <= {("command", "client|setinfo")}, refused


FORBIDDEN = [
    ("FLUSHALL",),
    ("FLUSHDB",),
    ("SCRIPT", "FLUSH"),
    ("FUNCTION", "FLUSH"),
    ("FUNCTION", "LIST"),
    ("CONFIG", "GET", "appendfsync"),
    ("CONFIG", "SET", "appendonly", "no"),
    ("KEYS", "*"),
    ("SCAN", "0"),
    ("SHUTDOWN",),
    ("BGREWRITEAOF",),
    ("ACL", "SETUSER", "default", "on"),
    ("MONITOR",),
    ("CLIENT", "KILL", "TYPE", "normal"),
    ("CLIENT", "LIST"),
    ("EVAL", "return 1", "0"),
    ("SCRIPT", "KILL"),
    ("INFO",),
    ("REPLICAOF", "127.0.0.1", "1"),
    ("MIGRATE", "h", "1", "k", "0", "1"),
    ("SET", "someone-else", "1"),
    ("GET", "someone-else"),
    ("PUBLISH", "fd:x", "1"),
    ("SPUBLISH", "someone-else", "1"),
    ("OBJECT", "ENCODING", "fd:x"),
    ("SORT", "fd:x"),
]


def test_the_acl_user_may_run_nothing_else_and_nobody_logs_in_as_default(deployed):
    r = deployed.service()
    assert r.ping()
    for command in FORBIDDEN:
        with pytest.raises(redis.exceptions.NoPermissionError):
            r.execute_command(*command)
    # DEBUG is refused before the ACL is asked (enable-debug-command no); the ACL would refuse it too
    op = deployed.operator()
    for command in [("DEBUG", "SLEEP", "0"), ("DEBUG", "RELOAD"), *FORBIDDEN]:
        assert "no permissions" in op.execute_command("ACL", "DRYRUN", "fairdeal", *command), command
    # nobody is `default`: not without a password, not with an empty or any other one
    no_retry = {"retry": redis.retry.Retry(redis.backoff.NoBackoff(), 0)}
    with pytest.raises(redis.AuthenticationError):
        redis.Redis(host="127.0.0.1", port=deployed.port, **no_retry).ping()
    for password in ("", "x", "nopass"):
        with pytest.raises((redis.AuthenticationError, redis.ResponseError)):
            redis.Redis(host="127.0.0.1", port=deployed.port, username="default", password=password, **no_retry).ping()
    # ... yet the replay of the append-only file, which runs as `default`, is allowed its writes
    rules = deployed.operator().acl_getuser("default")
    assert "off" in rules["flags"] and not rules["passwords"] and "nopass" not in rules["flags"]


def test_redis_conf_is_accepted_durable_and_closed(deployed):
    # the service's user does everything the store does, on its own keys only, and nothing dangerous
    store = RedisStore(deployed.url)
    assert store.put_doc("table", "0123456789abcdef", {"a": 1}, 0)
    assert store.append("0123456789abcdef", 0, "{}", 1.0, "k", "h").status == "ok"
    store.index_set("lobby", "0123456789abcdef", 1.0)
    info = deployed.operator().info("persistence")
    assert info["aof_enabled"] == 1
    assert deployed.operator().config_get("appendfsync") == {"appendfsync": "always"}


def test_redis_conf_states_its_durability_and_binds_no_open_address():
    text = (DEPLOY / "redis.conf").read_text()
    settings = {
        line.split()[0]: line.split(None, 1)[1]
        for line in text.splitlines()
        if line.strip() and not line.startswith("#")
    }
    assert settings["appendonly"] == "yes" and settings["appendfsync"] == "always"
    assert settings["maxmemory-policy"] == "noeviction"
    assert settings["protected-mode"] == "yes" and "0.0.0.0" not in settings["bind"] and "*" not in settings["bind"]
    # `default`: no login (off, no password), every command for the AOF replay (redis/redis#14541)
    assert settings["user"] == "default off ~* &* +@all"
    assert settings["dir"] == "/data"
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
    assert conf["child_exit"] is serving.child_exit  # a worker's metrics leave the live gauges when it exits
    assert list(metrics.iterdir()) == []  # one metrics view, emptied of an earlier run's files


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
        "fairdeal",
        "sweep",
    ]
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
        if (
            fnmatch.fnmatch(path, p)
            or fnmatch.fnmatch(path, p + "/*")
            or (p.startswith("**/") and any(fnmatch.fnmatch(part, p[3:]) for part in path.split("/")))
        ):
            return True
    return False


def test_the_build_context_leaves_keys_store_git_and_caches_out():
    patterns = [
        line.strip()
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    for path in (
        "var/keys/ed25519-x.pem",
        "var/fairdeal.sqlite3",
        ".git/config",
        ".venv/test/bin/python",
        "fairdeal/service/__pycache__/app.cpython-311.pyc",
        ".pytest_cache/v",
        ".hypothesis/examples",
        "deploy/.env",
    ):
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
