"""Retention: idempotency keys expire; finished games go to the operator's archive (JSON Lines that
fairdeal-verify audits) once FAIRDEAL_RETENTION has passed, and leave the store; without an archive nothing goes."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import uuid

import pytest
from click.testing import CliRunner

from fairdeal.service import retention
from fairdeal.service.blind.log import log_id
from fairdeal.service.blind.seats import secret_id
from fairdeal.service.store.base import DUPLICATE, OK
from tests.service import redis_servers
from tests.service.blind_kit import BlindHuman
from tests.service.client import Api
from tests.service.conftest import STORES, make_app


@pytest.fixture(params=STORES)
def short_lived(request, tmp_path):
    """A store of each kind whose idempotency keys live 0.3 s."""
    if request.param == "sqlite":
        from fairdeal.service.store.sqlite import SqliteStore

        return SqliteStore(str(tmp_path / "s.sqlite3"), idem_ttl=0.3)
    from fairdeal.service.store.redis import RedisStore

    return RedisStore(request.getfixturevalue("redis_url"), idem_ttl=0.3)


def test_an_idempotency_key_expires_after_its_ttl(short_lived):
    store, g = short_lived, uuid.uuid4().hex[:16]
    assert store.append(g, 0, "r0", time.time()).status == OK
    assert store.append(g, 1, "move", time.time(), "k", "h").status == OK
    assert store.append(g, 2, "x", time.time(), "k", "h").status == DUPLICATE  # within its TTL: honoured
    assert store.idem_lookup(g, "k", "h", "", time.time()).status == DUPLICATE  # the read says the same
    time.sleep(0.5)
    assert store.idem_lookup(g, "k", "h", "", time.time()) is None  # past it, before any purge
    store.purge_idempotency(time.time())
    res = store.append(g, 2, "a later move", time.time(), "k", "h")  # past it: a new request
    assert (res.status, res.seq) == (OK, 2)
    if hasattr(store, "r"):
        assert 0 < store.r.pttl(f"fd:{{{g}}}:idem") <= 300  # the game's keys expire together
    else:
        assert store._conn().execute("SELECT COUNT(*) FROM idem WHERE game_id=?", (g,)).fetchone()[0] == 1


def finished_game(api: Api, clock) -> tuple[dict, str, dict]:
    """A game the host cancels at once: (host, game id, its transcript as served)."""
    host = api.player()
    gid = api.table(host, rule_set="spades", clocks="off")["id"]
    api.start(host, gid)
    assert api.post(f"/tables/{gid}/cancel", host).status_code == 200
    return host, gid, api.get(f"/games/{gid}/transcript").get_json()


@pytest.fixture(params=STORES)
def archiving(request, tmp_path, clock):
    """An app that archives to tmp_path/archive; on a Redis of its own (the finished index is one key, and
    these tests count all of it)."""
    options = {"archive_dir": str(tmp_path / "archive"), "retention": 3600.0}
    if request.param == "sqlite":
        app = make_app(tmp_path, "sqlite", request, now=clock, **options)
        yield app, Api(app.test_client())
        return
    from fairdeal.service.app import create_app
    from fairdeal.service.config import Config
    from fairdeal.service.store.redis import RedisStore

    (tmp_path / "redis").mkdir()
    proc, port = redis_servers.start_server(str(tmp_path / "redis"))
    try:
        app = create_app(
            Config(data_dir=str(tmp_path / "data"), **options), RedisStore(f"redis://127.0.0.1:{port}/0"), now=clock
        )
        yield app, Api(app.test_client())
    finally:
        redis_servers.stop([proc])


def test_a_finished_game_is_archived_after_its_retention_then_leaves_the_store(archiving, clock, tmp_path):
    app, api = archiving
    svc = app.extensions["fairdeal"]
    host, gid, served = finished_game(api, clock)
    clock.advance(3500)
    assert retention.run_once(svc) == 0  # not yet: the game is served from the store
    assert api.get(f"/games/{gid}/transcript").get_json() == served
    clock.advance(200)
    assert retention.run_once(svc) == 1
    files = list((tmp_path / "archive").glob("fairdeal-*.jsonl"))
    assert len(files) == 1
    lines = files[0].read_text().splitlines()
    assert [json.loads(line) for line in lines] == [served]  # the transcript, as it was served
    r = subprocess.run(
        [sys.executable, "-c", "from fairdeal.verify.cli import main; main()", "audit", str(files[0])],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert api.get(f"/games/{gid}").status_code == 404  # gone from the store
    assert svc.store.records(gid) == [] and svc.store.get_secret(gid) is None
    assert svc.store.index_range("finished") == []
    assert api.get("/players/me/games", host).get_json()["games"] == []
    assert retention.run_once(svc) == 0


def test_without_an_archive_no_game_is_ever_deleted(app, clock):
    api = Api(app.test_client())
    _, gid, served = finished_game(api, clock)
    svc = app.extensions["fairdeal"]
    assert svc.config.archive_dir is None  # the default: no archive folder
    svc.store.index_set("finished", gid, 0.0)  # ended long before any retention
    assert retention.run_once(svc) == 0
    assert api.get(f"/games/{gid}/transcript").get_json() == served


def test_fairdeal_archive_needs_a_folder_and_archives_what_is_due(tmp_path, monkeypatch):
    from fairdeal.cli import main
    from fairdeal.service.app import create_app
    from fairdeal.service.config import Config

    monkeypatch.delenv("FAIRDEAL_REDIS_URL", raising=False)
    monkeypatch.delenv("FAIRDEAL_ARCHIVE", raising=False)
    app = create_app(Config(data_dir=str(tmp_path / "data")))
    api = Api(app.test_client())
    _, gid, served = finished_game(api, None)
    r = CliRunner().invoke(main, ["-d", str(tmp_path / "data"), "archive"])
    assert r.exit_code == 2 and "no archive folder" in r.output
    r = CliRunner().invoke(
        main, ["-d", str(tmp_path / "data"), "archive", "--to", str(tmp_path / "a"), "--retention", "0"]
    )
    assert r.exit_code == 0, r.output
    assert "archived 1 games" in r.output
    [line] = next((tmp_path / "a").glob("*.jsonl")).read_text().splitlines()
    assert json.loads(line) == served


def test_the_sweeper_archives_what_is_due(archiving, clock, tmp_path):
    from fairdeal.service import sweeper

    app, api = archiving
    _, gid, served = finished_game(api, clock)
    clock.advance(3601)
    sweeper.run(app.extensions["fairdeal"], once=True)
    [line] = next((tmp_path / "archive").glob("*.jsonl")).read_text().splitlines()
    assert json.loads(line) == served and api.get(f"/games/{gid}").status_code == 404


def test_a_blind_games_log_and_its_bots_secrets_leave_the_store_with_it(archiving, clock):
    """A dealer-blind game keeps two more things under ids of their own: its blind log and each bot seat's σ and
    identity key. Retention deletes them too (a bot's σ is public after the end, but the store keeps nothing of
    a purged game)."""
    app, api = archiving
    svc = app.extensions["fairdeal"]
    host = api.player()
    gid = api.table(host, rule_set="spades", blind=True, clocks="off")["id"]
    BlindHuman(api, host, gid, 0).commit()
    api.start(host, gid)
    assert api.post(f"/tables/{gid}/leave", host).status_code == 200  # aborted, the bots reveal, the game ends
    assert api.get(f"/games/{gid}").get_json()["status"] == "over"
    assert len(svc.store.records(log_id(gid))) > 4
    assert all(svc.store.get_secret(secret_id(gid, seat)) is not None for seat in (1, 2, 3))
    clock.advance(3700)
    assert retention.run_once(svc) == 1
    assert svc.store.records(gid) == [] and svc.store.records(log_id(gid)) == []
    assert [svc.store.get_secret(secret_id(gid, seat)) for seat in range(4)] == [None] * 4
    assert api.get(f"/games/{gid}/blind").status_code == 404
