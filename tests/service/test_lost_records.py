"""A game whose records the store lost (its log deleted from under the running service, or an entry of it
unreadable) answers 503 `game-records-missing` with what is known on every endpoint, writes nothing, is counted
in fairdeal_games_records_missing_total and logged once; once the operator restores the records it plays on.
On each store."""

from __future__ import annotations

import json
import logging

import pytest

from tests.service.client import Api
from tests.service.store_faults import drop_log, put_log


def _store(app):
    return app.extensions["fairdeal"].store


def _game(api: Api, moves: int = 4) -> tuple[dict, str]:
    p = api.player()
    gid = api.table(p, rule_set="120s-house", players=2, clocks="off")["id"]
    api.start(p, gid)
    for _ in range(moves):
        v = api.view(p, gid)
        assert api.move(p, gid, v["seq"], v["legal_moves"][0]).status_code == 201
    return p, gid


def _answers(api: Api, p: dict, gid: str, seq: int) -> list:
    return [
        api.get(f"/games/{gid}", p),
        api.get(f"/games/{gid}/transcript"),
        api.get(f"/tables/{gid}", p),
        api.get(f"/games/{gid}/events?after=0&wait=0", p),
        api.move(p, gid, seq, {"kind": "pass"}),
        api.post(f"/tables/{gid}/cancel", p),
    ]


def _missing_total(api: Api, why: str) -> float:
    for line in api.get("/metrics").get_data(as_text=True).splitlines():
        if line.startswith(f'fairdeal_games_records_missing_total{{why="{why}"}}'):
            return float(line.split()[-1])
    return 0.0


def test_a_game_whose_log_is_gone_answers_503_on_every_endpoint_and_writes_nothing(app, api, caplog):
    store = _store(app)
    p, gid = _game(api)
    seq = api.view(p, gid)["seq"]
    table_before = store.get_doc("table", gid)
    records = drop_log(store, gid)  # the running service holds the game in its cache
    caplog.set_level(logging.ERROR, logger="fairdeal.games")
    for _ in range(3):  # clients (and the sweeper) keep asking
        for r in _answers(api, p, gid, seq):
            assert r.status_code == 503, (r.status_code, r.get_data(as_text=True)[:300])
            assert r.mimetype == "application/problem+json"
            body = r.get_json()
            assert body["code"] == "game-records-missing" and body["why"] == "no-commit"
            assert body["game"] == gid and body["records_found"] == 0 and body["table_status"] == "playing"
            assert gid in body["detail"]
    assert store.records(gid) == [] and store.get_doc("table", gid) == table_before  # nothing written
    logged = [rec for rec in caplog.records if "game records missing" in rec.getMessage()]
    assert len(logged) == 1, [rec.getMessage() for rec in logged]
    assert _missing_total(api, "no-commit") == 18
    # the operator restores the records: the game plays on where it was
    put_log(store, gid, records)
    v = api.view(p, gid)
    assert v["seq"] == seq
    assert api.move(p, gid, seq, v["legal_moves"][0]).status_code == 201


def test_a_game_with_an_unreadable_record_answers_503_naming_it(app, api):
    store = _store(app)
    p, gid = _game(api)
    records = store.records(gid)
    broken = dict(json.loads(records[4]), prev="00" * 32)  # off the hash chain (a restore that mixed two)
    put_log(store, gid, records[:4] + [json.dumps(broken)] + records[5:])
    games = app.extensions["fairdeal"].games
    games.forget(gid)  # a process that reads the game from the store (another worker, a restart)
    for r in (api.get(f"/games/{gid}"), api.get(f"/games/{gid}/transcript")):
        assert r.status_code == 503, r.get_data(as_text=True)[:300]
        body = r.get_json()
        assert body["code"] == "game-records-missing" and body["why"] == "unreadable"
        assert body["at_entry"] == 4 and body["records_found"] == len(records)
    put_log(store, gid, records[:4] + ["{not json"] + records[5:])
    games.forget(gid)
    assert api.get(f"/games/{gid}").get_json()["why"] == "unreadable"
    assert store.records(gid)[5:] == records[5:]
    assert _missing_total(api, "unreadable") == 3


@pytest.mark.parametrize("app", ["redis"], indirect=True)
def test_a_started_game_whose_server_seed_is_gone_answers_503(app, api):
    from fairdeal.service.store import keys

    store = _store(app)
    p, gid = _game(api, moves=1)
    store.r.delete(keys.secret(gid))
    app.extensions["fairdeal"].games.forget(gid)
    r = api.get(f"/games/{gid}")
    assert r.status_code == 503 and r.get_json()["why"] == "no-seed"
