"""Issue 23 §1, the service's side, on both stores: a process checks its stored head against the leaves before it
serves or signs (an edited leaf: no head signed, no proof served, a log line and a metric); a proof asked for a
leaf past the head signs a head on demand; a reveal-phase abort's ending leaf names the seats that walked away; a
watcher pointed at the service restored from a backup reports the rollback."""

from __future__ import annotations

import json
import logging
import shutil

import pytest

from fairdeal.core import logwatch, tlog
from fairdeal.core.checks import verify_transcript
from tests.service.client import Api
from tests.service.conftest import make_app
from tests.service.tlog_isolation import redis_url  # noqa: F401 - a database of its own


def cancelled(api: Api) -> str:
    p = api.player()
    t = api.table(p, rule_set="spades")
    api.post(f"/tables/{t['id']}/cancel", p)
    assert api.get(f"/log/games/{t['id']}").status_code == 200  # sequenced, and a head covering it signed
    return t["id"]


def getter(app):
    client = app.test_client()

    def get(url: str):
        r = client.get(url.replace("http://fairdeal.test", ""))
        assert r.status_code == 200, (url, r.get_json())
        return r.get_json()

    return get


def edit_leaf(store, index: int, leaf: dict) -> None:
    """What an operator (or a damaged store) does: one stored leaf changed in place, the signed head kept."""
    text = tlog.leaf_bytes(leaf).decode()
    if hasattr(store, "r"):
        from fairdeal.service.store import keys as rkeys

        store.r.lset(rkeys.tlog_leaves(), index, text)
    else:
        store._conn().execute("UPDATE tlog SET leaf=? WHERE idx=?", (text, index))


class Said(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.records = []

    def emit(self, record):
        self.records.append(record)


@pytest.fixture(params=["sqlite", "redis"])
def store_kind(request):
    return request.param


def test_a_process_whose_stored_leaves_no_longer_match_its_head_signs_nothing(tmp_path, request, store_kind, clock):
    from fairdeal.service import sweeper

    app = make_app(tmp_path, store_kind, request)
    api = Api(app.test_client())
    games = [cancelled(api) for _ in range(2)]
    s = app.extensions["fairdeal"]
    head = s.store.tlog_head()
    leaves = api.get("/log/leaves?start=0&limit=10").get_json()["leaves"]
    victim = next(i for i, leaf in enumerate(leaves) if leaf["type"] == "ending")
    edit_leaf(s.store, victim, dict(leaves[victim], reason="finished"))
    # the process starts again on the same store (a restart, another worker, the sweeper)
    restarted = make_app(tmp_path, store_kind, request, now=clock)  # its clock past the head's interval
    api2, s2 = Api(restarted.test_client()), restarted.extensions["fairdeal"]
    said = Said()
    logging.getLogger("fairdeal.translog").addHandler(said)
    try:
        # its start checks the head against the stored hashes and the last leaf only (O(log n) reads): an edited
        # earlier leaf is found by its sweeper's first round, which reads the leaves again (the scrub)
        assert api2.get(f"/log/games/{games[0]}").status_code == 200
        sweeper.log_tick(s2)
        r = api2.get(f"/log/games/{games[0]}")
        api2.get(f"/log/games/{games[1]}")
    finally:
        logging.getLogger("fairdeal.translog").removeHandler(said)
    assert r.status_code == 503 and r.get_json()["code"] == "log-damaged", r.get_json()
    assert r.headers["Content-Type"].startswith("application/problem+json")
    assert f"leaf {victim} in the store does not hash to its stored hash" in r.get_json()["detail"]
    assert [(rec.levelname, rec.getMessage()) for rec in said.records] == [
        ("ERROR", "transparency log damaged: signing no head")
    ]  # once, not at every request
    assert said.records[0].fields["reason"] == s2.translog.damaged
    for path in (
        "/log/leaves/0/proof",
        f"/log/consistency?first=1&second={head['size']}",
        f"/log/tile/0/000.p/{head['size']}",
    ):  # a hash tile is proof material too
        assert api2.get(path).get_json()["code"] == "log-damaged", path
    for path in (f"/log/tile/entries/000.p/{head['size']}", "/log/checkpoint"):  # the leaves, the signed head
        assert api2.get(path).status_code == 200, path
    # the signed head stays served (watchers compare it with the leaves), no new head is signed over the edit
    assert api2.get("/log/head").get_json() == head
    api2.table(api2.player(), rule_set="spades")
    sweeper.log_tick(s2)
    assert s2.store.tlog_head() == head and s2.store.tlog_size() == head["size"] + 1
    # games are still served, without a log member the service cannot prove
    t = api2.get(f"/games/{games[1]}/transcript")
    assert t.status_code == 200 and "log" not in t.get_json()
    assert "fairdeal_tlog_damaged 1.0" in api2.get("/metrics").get_data(as_text=True)
    # a watcher sees the damage for itself
    report = logwatch.watch_source("http://fairdeal.test", logwatch.LogCopy(), get=getter(restarted))
    assert "root-mismatch" in {f.code for f in report.findings}


def test_a_proof_for_a_leaf_past_the_head_signs_a_head_on_demand(tmp_path, request, store_kind):
    app = make_app(tmp_path, store_kind, request, log_head_seconds=3600)
    api, s = Api(app.test_client()), app.extensions["fairdeal"]
    cancelled(api)
    first = api.get("/log/head").get_json()
    api.table(api.player(), rule_set="spades")  # a new commitment leaf; no head covers it yet
    s.store.tlog_sequence()  # (Redis: the sweeper's round gives it its index)
    assert s.store.tlog_size() == first["size"] + 1 and s.store.tlog_head() == first
    r = api.get(f"/log/leaves/{first['size']}/proof")
    assert r.status_code == 200, r.get_json()
    p = r.get_json()
    assert p["head"]["size"] == first["size"] + 1 and p["leaf"]["type"] == "commitment"
    assert tlog.inclusion(p["leaf"], first["size"], tlog.check_head(p["head"]), p["proof"])
    assert api.get(f"/log/leaves/{first['size'] + 1}/proof").status_code == 404  # no such leaf yet


def test_a_reveal_phase_abort_is_logged_with_the_seats_that_walked_away(tmp_path, request, store_kind):
    app = make_app(tmp_path, store_kind, request)
    api = Api(app.test_client())
    host, guest = api.player("host"), api.player("guest")
    t = api.table(host, rule_set="spades")
    api.commit(host, t["id"], "host's words")
    api.commit(guest, t["id"], "guest's words", seat=2)
    api.start(host, t["id"])
    assert api.post(f"/tables/{t['id']}/leave", guest).get_json()["end_reason"] == "not-revealed"
    transcript = api.get(f"/games/{t['id']}/transcript").get_json()
    leaf = api.get(f"/log/leaves/{transcript['log']['ending']['index']}/proof").get_json()["leaf"]
    assert leaf["dealt"] is False and leaf["unrevealed"] == [
        {"seat": 0, "name": host["name"]},
        {"seat": 2, "name": guest["name"]},
    ]
    report = verify_transcript(transcript, key=t["key"])
    assert {c.id: c.status for c in report.checks}["log-inclusion"] == "pass" and report.exit_code == 0
    watched = logwatch.watch_source("http://fairdeal.test", logwatch.LogCopy(), key=t["key"], get=getter(app))
    assert watched.ok and watched.reveal_aborts == 1
    assert watched.walked_away == {host["name"]: 1, guest["name"]: 1}


def test_a_watcher_reports_the_service_restored_from_an_older_backup(tmp_path, request):
    """The issue's reproduction on SQLite: the watcher saw the log grow past the backup's moment; the service is
    then restored from the backup (its data folder copied back) and shows a smaller head."""
    app = make_app(tmp_path, "sqlite", request)
    api = Api(app.test_client())
    cancelled(api)
    shutil.copytree(tmp_path / "data", tmp_path / "backup")
    app = make_app(tmp_path, "sqlite", request)
    api = Api(app.test_client())
    for _ in range(2):
        cancelled(api)
    key = api.get("/keys").get_json()["current"]
    seen = logwatch.watch_source("http://fairdeal.test", logwatch.LogCopy(), key=key, get=getter(app))
    assert seen.ok and seen.size == 6
    state = tmp_path / "state.json"
    logwatch.save_copy(str(state), seen.copy)
    shutil.rmtree(tmp_path / "data")
    shutil.copytree(tmp_path / "backup", tmp_path / "data")
    restored = make_app(tmp_path, "sqlite", request)
    assert Api(restored.test_client()).get("/log/head").get_json()["size"] == 2
    report = logwatch.watch_source(
        "http://fairdeal.test", logwatch.load_state(str(state)), key=key, get=getter(restored)
    )
    assert [f.code for f in report.findings] == ["rollback"] and not report.ok
    assert "LOG OK" not in report.text()
    assert json.loads(state.read_text())["heads"][-1]["size"] == 6


def test_a_process_whose_store_lost_leaves_its_head_signs_signs_nothing(tmp_path, request, store_kind):
    app = make_app(tmp_path, store_kind, request)
    api = Api(app.test_client())
    game = cancelled(api)
    s = app.extensions["fairdeal"]
    head = s.store.tlog_head()
    if hasattr(s.store, "r"):
        from fairdeal.service.store import keys as rkeys

        s.store.r.rpop(rkeys.tlog_leaves())
    else:
        s.store._conn().execute("DELETE FROM tlog WHERE idx=(SELECT MAX(idx) FROM tlog)")
    restarted = make_app(tmp_path, store_kind, request)
    r = Api(restarted.test_client()).get(f"/log/games/{game}")
    assert r.status_code == 503 and r.get_json()["code"] == "log-damaged"
    assert f"the signed head of size {head['size']} covers more leaves than the store holds" in r.get_json()["detail"]


def test_the_sweepers_round_finds_a_leaf_edited_under_a_running_process(tmp_path, request, store_kind, clock):
    """The running process read the leaves before the edit: its rounds read them again (a scrub) and it stops
    signing heads rather than sign new ones over its old copy."""
    from fairdeal.service import sweeper

    app = make_app(tmp_path, store_kind, request, now=clock)
    api, s = Api(app.test_client()), app.extensions["fairdeal"]
    cancelled(api)
    sweeper.log_tick(s)
    head = s.store.tlog_head()
    leaves = api.get("/log/leaves?start=0&limit=10").get_json()["leaves"]
    edit_leaf(s.store, 0, dict(leaves[0], time="1999-01-01T00:00:00Z"))
    api.table(api.player(), rule_set="spades")
    clock.advance(60)
    sweeper.log_tick(s)
    assert s.store.tlog_head() == head and "leaf 0 in the store" in s.translog.damaged
    assert api.get("/log/leaves/0/proof").get_json()["code"] == "log-damaged"


def test_the_scrub_rests_between_passes_over_a_small_log(tmp_path, request, store_kind, clock, monkeypatch):
    """A log smaller than a round's reads was read again at every round, every second (most of an idle sweeper's
    CPU: issue 25); now a pass starts at most every SCRUB_PASS_EVERY seconds and the rounds between read nothing."""
    from fairdeal.service import sweeper, translog

    app = make_app(tmp_path, store_kind, request, now=clock)
    api, s = Api(app.test_client()), app.extensions["fairdeal"]
    cancelled(api)
    reads = []
    leaves = s.translog.store.tlog_leaves
    monkeypatch.setattr(s.translog.store, "tlog_leaves", lambda a, b: reads.append((a, b)) or leaves(a, b))
    sweeper.log_tick(s)
    assert len(reads) == 1  # the first round's pass: the whole (small) log
    for _ in range(5):
        clock.advance(translog.SCRUB_PASS_EVERY / 6)
        sweeper.log_tick(s)
    assert len(reads) == 1
    clock.advance(translog.SCRUB_PASS_EVERY / 6)
    sweeper.log_tick(s)
    assert len(reads) == 2 and reads[1] == reads[0]  # the next pass, from the first leaf again
