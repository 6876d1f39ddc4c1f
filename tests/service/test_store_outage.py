"""A store outage answers 503 store-unavailable with Retry-After (problem JSON, nothing changed), is logged as one
line when it starts and one when the store is back (never a traceback per request), and /readyz says why."""

from __future__ import annotations

import logging
import sqlite3
import subprocess

import redis

from fairdeal.service.app import create_app
from fairdeal.service.config import Config
from fairdeal.service.errors import OutageLog, store_unavailable
from tests.service import redis_servers
from tests.service.client import Api
from tests.service.conftest import make_app
from tests.service.problems import problem


class Lines(logging.Handler):
    """The fairdeal loggers' records (they do not propagate to the root logger)."""

    def __init__(self):
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record):
        self.records.append(record)

    def __enter__(self):
        logging.getLogger("fairdeal").addHandler(self)
        return self

    def __exit__(self, *exc):
        logging.getLogger("fairdeal").removeHandler(self)


def redis_on(port: int, folder: str) -> subprocess.Popen:
    """redis-server on `port` with an append-only file in `folder` (so a restart keeps the data)."""
    proc = subprocess.Popen(
        [
            redis_servers.require_redis_server(),
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "yes",
            "--appendfsync",
            "always",
            "--dir",
            folder,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    redis_servers._wait_ping(port)
    return proc


def unavailable(r) -> dict:
    body = problem(r, 503, "store-unavailable")
    assert r.headers["Retry-After"] == "5"
    return body


def test_redis_going_away_answers_503_logs_once_and_readyz_says_why(tmp_path):
    port = redis_servers.free_port()
    proc = redis_on(port, str(tmp_path))
    try:
        # the store and the rate limits both on this Redis, as in production
        app = create_app(Config(data_dir=str(tmp_path / "data"), redis_url=f"redis://127.0.0.1:{port}/0"))
        api = Api(app.test_client())
        p = api.player()
        gid = api.table(p, rule_set="spades", clocks="off")["id"]
        api.start(p, gid)
        redis_servers.stop([proc])
        with Lines() as lines:
            for _ in range(5):
                unavailable(api.get(f"/games/{gid}", p))
                unavailable(api.post("/tables", p, json={"rule_set": "spades"}))
                unavailable(api.c.post("/players", json={"name": "late"}))
                unavailable(api.get(f"/tables/{gid}"))
            r = api.c.get("/readyz")
            body = unavailable(r)
            assert "Redis" in body["reason"] and "Connection" in body["reason"]
            assert body["reason"] in body["detail"]
        warnings = [x for x in lines.records if x.levelno >= logging.WARNING]
        assert [x.getMessage() for x in warnings] == ["store unavailable"]
        assert not any(x.exc_info for x in lines.records), "a traceback was logged"
        proc = redis_on(port, str(tmp_path))  # back, with its data
        with Lines() as lines:
            assert api.view(p, gid)["status"] == "playing"
            assert api.c.get("/readyz").status_code == 200
        back = [x for x in lines.records if x.levelno >= logging.WARNING]
        assert [x.getMessage() for x in back] == ["store available again"] and back[0].fields["refused"] >= 19
    finally:
        redis_servers.stop([proc])


def test_a_locked_or_failing_sqlite_is_an_outage_too(tmp_path, request, monkeypatch):
    app = make_app(tmp_path, "sqlite", request)
    api = Api(app.test_client())
    store = app.extensions["fairdeal"].store
    p = api.player()

    def locked(*a, **k):
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(store, "get_doc", locked)
    monkeypatch.setattr(store, "ping", locked)
    with Lines() as lines:
        unavailable(api.get("/players/me", p))
        assert "database is locked" in unavailable(api.c.get("/readyz"))["reason"]
    assert not any(x.exc_info for x in lines.records)


def test_what_counts_as_the_store_being_away():
    away = [
        redis.ConnectionError("refused"),
        redis.TimeoutError("slow"),
        redis.exceptions.ReadOnlyError("READONLY"),
        redis.exceptions.OutOfMemoryError("OOM"),
        redis.exceptions.BusyLoadingError("LOADING"),
        redis.exceptions.ClusterDownError("CLUSTERDOWN"),
        sqlite3.OperationalError("disk I/O error"),
        sqlite3.OperationalError("database or disk is full"),
    ]
    assert all(store_unavailable(e) for e in away)
    bugs = [
        sqlite3.OperationalError("no such table: docs"),
        redis.ResponseError("ERR wrong number of arguments"),
        KeyError("x"),
        ValueError("y"),
    ]
    assert not any(store_unavailable(e) for e in bugs)


def test_a_bug_still_answers_500_with_its_traceback_in_the_log(tmp_path, request, monkeypatch):
    app = make_app(tmp_path, "sqlite", request)
    monkeypatch.setattr(app.extensions["fairdeal"].store, "get_doc", lambda *a: {}["bug"])
    api = Api(app.test_client())
    with Lines() as lines:
        problem(api.c.get("/tables/0123456789abcdef"), 500, "internal-error")
    assert any(x.exc_info for x in lines.records)


def test_a_long_outage_logs_a_line_a_minute_with_the_count():
    now = [1000.0]
    outage = OutageLog(every=60, clock=lambda: now[0])
    with Lines() as lines:
        for _ in range(100):
            outage.failed("Redis: ConnectionError: refused")
            now[0] += 1.5
        outage.succeeded()
    got = [(x.getMessage(), x.fields.get("refused")) for x in lines.records]
    assert got == [
        ("store unavailable", 1),
        ("store still unavailable", 40),
        ("store still unavailable", 40),
        ("store available again", 19),
    ]
