"""Lobby, preferences, event feed, keys, health, metrics, logs."""

from __future__ import annotations

import json
import logging

from fairdeal.core import fairness, keys
from fairdeal.core import transcript as tr
from fairdeal.core.canonical import canonical_json
from fairdeal.core.games import available
from fairdeal.core.integrity import check_signatures
from fairdeal.core.reader import parse_transcript
from tests.service.client import Api
from tests.service.conftest import make_app


def keys_verify(key: str, record: dict, signature: str) -> bool:
    return keys.verify(key, canonical_json(record), signature)


def test_lobby_lists_open_tables_with_rules_line_and_reminder(api: Api):
    p = api.player("lobbyist")
    t = api.table(p, rule_set="twenty-down", settings={"jass_order": True})
    lobby = api.get("/lobby").get_json()
    mine = next(x for x in lobby["tables"] if x["id"] == t["id"])
    assert mine["rules"] and mine["reminder"]
    assert mine["seats_taken"] == 1 and mine["bots"] == 0 and mine["clocks"] == {"card": 25, "other": 30}
    assert {r["id"] for r in lobby["rule_sets"]} == set(available())
    api.start(p, t["id"])
    assert all(x["id"] != t["id"] for x in api.get("/lobby").get_json()["tables"])


def test_a_players_choice_is_kept_for_the_next_table_and_the_hosts_rules_win(api: Api):
    a, b = api.player(), api.player()
    api.table(a, rule_set="twenty-down", settings={"no_endgame": True}, clocks={"card": 40})
    again = api.table(a, rule_set="twenty-down")
    assert again["settings"]["no_endgame"] is True and again["clocks"]["card"] == 40
    r = api.c.put("/players/me/preferences/twenty-down", json={"settings": {"jass_order": True}}, headers=b["h"])
    assert r.status_code == 200
    # b joins a's table: a's rules, whatever b prefers
    joined = api.post(f"/tables/{again['id']}/join", b).get_json()
    assert joined["settings"]["jass_order"] is False and joined["settings"]["no_endgame"] is True
    assert api.table(b, rule_set="twenty-down")["settings"]["jass_order"] is True
    me = api.get("/players/me", b).get_json()
    assert me["preferences"]["twenty-down"]["settings"]["jass_order"] is True


def test_long_poll_answers_when_the_game_moves_and_waits_otherwise(api: Api):
    p = api.player()
    t = api.table(p, rule_set="spades", clocks="off")
    api.start(p, t["id"])
    v = api.view(p, t["id"])
    r = api.get(f"/games/{t['id']}/events?after={v['seq']}&wait=0.2", p).get_json()
    assert r["records"] == [] and r["seq"] == v["seq"]
    early = api.get(f"/games/{t['id']}/events?after=0&wait=5", p).get_json()
    assert [x["seq"] for x in early["records"]] == list(range(1, v["seq"] + 1))
    api.move(p, t["id"], v["seq"], v["legal_moves"][0])
    r = api.get(f"/games/{t['id']}/events?after={v['seq']}&wait=5", p).get_json()
    assert r["records"][0]["seq"] == v["seq"] + 1 and r["records"][0]["by"] == "player"
    assert r["game"]["seq"] == r["seq"]


def test_server_sent_events_stream_records(request, tmp_path):
    api = Api(make_app(tmp_path, "redis", request, stream_max=0.5).test_client())  # a short stream
    p = api.player()
    t = api.table(p, rule_set="spades", clocks="off")
    api.start(p, t["id"])
    v = api.view(p, t["id"])
    api.move(p, t["id"], v["seq"], v["legal_moves"][0])
    r = api.c.get(f"/games/{t['id']}/stream?after=0", headers=p["h"])
    text = r.get_data(as_text=True)
    assert r.mimetype == "text/event-stream"
    retry, rest = text.split("\n\n", 1)  # the stream's reconnection time comes first
    assert retry.startswith("retry: ") and retry[len("retry: ") :].isdigit()
    assert rest.startswith("id: 1\nevent: record\n") and "event: game" in text
    first = json.loads(text.split("event: record\ndata: ", 1)[1].split("\n", 1)[0])
    assert first["seq"] == 1


def test_a_move_answers_with_its_receipt(api: Api):
    p = api.player()
    t = api.table(p, rule_set="spades")
    api.start(p, t["id"])
    v = api.view(p, t["id"])
    r = api.move(p, t["id"], v["seq"], v["legal_moves"][0]).get_json()
    records = api.get(f"/games/{t['id']}/events?after=0&wait=0", p).get_json()["records"]
    mine = next(x for x in records if x["seq"] == r["seq"])
    assert r["receipt"] == tr.record_hash(mine)
    assert mine["prev"] == (tr.record_hash(records[r["seq"] - 2]) if r["seq"] > 1 else mine["prev"])


def test_start_record_and_keys_are_served_and_signed(api: Api):
    SEED = "my seed words"  # not hex: "abc" turned up in a signature by chance
    p = api.player()
    t = api.table(p, rule_set="spades")
    nonce = api.commit(p, t["id"], SEED)
    before = api.get(f"/games/{t['id']}/start").get_json()
    assert before["seating"] is None and before["start"] is None
    assert before["commit"]["commitment"] == t["commitment"]
    api.start(p, t["id"])
    keys = api.get("/keys").get_json()
    seating = api.get(f"/games/{t['id']}/start").get_json()
    assert seating["start"] is None, "no start record, so no card, before the reveal"
    assert keys_verify(keys["current"], seating["seating"], seating["seating_signature"])
    assert seating["seating"]["seats"][0]["client_seed_commitment"] == fairness.client_seed_commitment(
        t["id"], SEED, nonce
    )
    assert SEED not in json.dumps(seating)
    api.reveal(p, t["id"], SEED, nonce)
    s = api.get(f"/games/{t['id']}/start").get_json()
    assert s["start"]["key"] == keys["current"]
    assert keys_verify(keys["current"], s["start"], s["start_signature"])
    assert s["start"]["seats"][0]["client_seed"] == SEED and s["start"]["seats"][0]["nonce"] == nonce


def test_key_rotation_keeps_old_keys_published_and_signing_their_games(app):
    api = Api(app.test_client())
    svc = app.extensions["fairdeal"]
    p = api.player()
    t = api.table(p, rule_set="spades")
    old = api.get("/keys").get_json()["current"]
    svc.keyring.rotate()
    keys = api.get("/keys").get_json()
    assert keys["current"] != old and old in [k["key"] for k in keys["keys"]]
    api.post(f"/tables/{t['id']}/cancel", p)
    transcript = api.get(f"/games/{t['id']}/transcript").get_json()
    assert transcript["commit"]["key"] == old
    assert [c.status for c in check_signatures(parse_transcript(transcript), old)] == ["pass", "pass"]
    assert api.table(p, rule_set="spades")["key"] == keys["current"]


def test_health_readiness_metrics_and_openapi(api: Api):
    assert api.get("/healthz").get_json()["status"] == "ok"
    assert api.get("/readyz").get_json()["status"] == "ready"
    api.get("/lobby")
    m = api.get("/metrics").get_data(as_text=True)
    assert "# TYPE fairdeal_http_requests_total counter" in m and 'route="/lobby"' in m
    doc = api.get("/openapi.yaml").get_data(as_text=True)
    assert doc.startswith("openapi: 3.")


def test_logs_carry_no_token_card_or_seed(app, caplog):
    handler_records = []

    class Keep(logging.Handler):
        def emit(self, record):
            handler_records.append(self.format(record) + json.dumps(getattr(record, "fields", {})))

    keep = Keep()
    root = logging.getLogger("fairdeal")
    old_level = root.level
    root.addHandler(keep)
    root.setLevel(logging.DEBUG)  # every request line too
    try:
        api = Api(app.test_client())
        p = api.player()
        t = api.table(p, rule_set="spades")
        nonce = api.commit(p, t["id"], "secretish")
        api.start_revealing(p, t["id"], [(p, "secretish", nonce)])
        v = api.view(p, t["id"])
        api.move(p, t["id"], v["seq"], v["legal_moves"][0])
        api.move(p, t["id"], v["seq"] + 5, v["legal_moves"][0])  # a refusal
    finally:
        root.removeHandler(keep)
        root.setLevel(old_level)
    text = "\n".join(handler_records)
    seed = app.extensions["fairdeal"].store.get_secret(t["id"])
    assert "table created" in text and '"route": "/games/<game_id>/moves"' in text and '"status": 409' in text
    assert p["token"] not in text and seed not in text and "secretish" not in text and nonce not in text
    assert not any(card in text for card in v["view"]["hand"])
