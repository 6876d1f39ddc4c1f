"""Creating a player, creating a table and joining take an Idempotency-Key (issue 21, §4): a retry answers what
the first request made (the same player with a fresh token, the same table, the same seat), made once; the same
key with another body is refused; and a player's document gone after the table was made (a store rolled back)
no longer turns the table's creation into a 500 that a client retries into a second table."""

from __future__ import annotations

import threading

from tests.service.client import Api
from tests.service.problems import problem


def keyed(key: str, p: dict | None = None) -> dict:
    return {**(p["h"] if p else {}), "Idempotency-Key": key}


def test_a_retried_table_creation_answers_the_same_table(api: Api, app):
    store = app.extensions["fairdeal"].store
    p = api.player()
    before = store.index_count("lobby")
    first = api.c.post("/tables", json={"rule_set": "spades"}, headers=keyed("t-1", p))
    again = api.c.post("/tables", json={"rule_set": "spades"}, headers=keyed("t-1", p))
    assert first.status_code == 201 and again.status_code == 200
    assert again.get_json()["id"] == first.get_json()["id"] and again.get_json()["you"]["seat"] == 0
    assert store.index_count("lobby") == before + 1
    problem(
        api.c.post("/tables", json={"rule_set": "120s-house"}, headers=keyed("t-1", p)), 422, "idempotency-key-reused"
    )
    other = api.player()  # a key belongs to the player who sent it
    assert api.c.post("/tables", json={"rule_set": "spades"}, headers=keyed("t-1", other)).status_code == 201
    assert store.index_count("lobby") == before + 2


def test_racing_retries_make_one_table(api: Api, app):
    store = app.extensions["fairdeal"].store
    p = api.player()
    before = store.index_count("lobby")
    answers = []

    def create():
        answers.append(api.c.post("/tables", json={"rule_set": "spades"}, headers=keyed("race", p)))

    threads = [threading.Thread(target=create) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    made = {r.get_json()["id"] for r in answers if r.status_code in (200, 201)}
    assert len(made) == 1 and store.index_count("lobby") == before + 1
    assert all(r.status_code in (200, 201, 409) for r in answers)  # 409 request-in-progress, Retry-After


def test_a_retried_player_creation_answers_the_same_player(api: Api):
    first = api.c.post("/players", json={"name": "ann"}, headers=keyed("p-1"))
    again = api.c.post("/players", json={"name": "ann"}, headers=keyed("p-1"))
    assert first.status_code == 201 and again.status_code == 200
    a, b = first.get_json(), again.get_json()
    assert a["id"] == b["id"] and a["token"] != b["token"]
    for token in (a["token"], b["token"]):
        me = api.c.get("/players/me", headers={"Authorization": "Bearer " + token}).get_json()
        assert me["id"] == a["id"] and me["name"] == "ann"
    problem(api.c.post("/players", json={"name": "bob"}, headers=keyed("p-1")), 422, "idempotency-key-reused")


def test_a_retried_join_answers_the_seat_it_took(api: Api):
    host, guest = api.player(), api.player()
    tid = api.table(host, rule_set="spades")["id"]
    first = api.c.post(f"/tables/{tid}/join", json={"seat": 2}, headers=keyed("j-1", guest))
    again = api.c.post(f"/tables/{tid}/join", json={"seat": 2}, headers=keyed("j-1", guest))
    assert first.status_code == again.status_code == 200
    assert first.get_json()["you"]["seat"] == again.get_json()["you"]["seat"] == 2
    problem(api.c.post(f"/tables/{tid}/join", json={"seat": 2}, headers=guest["h"]), 409, "already-seated")
    # a join that was refused made nothing: the same key may try again
    late = api.player()
    problem(api.c.post(f"/tables/{tid}/join", json={"seat": 2}, headers=keyed("j-2", late)), 409, "seat-taken")
    assert api.post(f"/tables/{tid}/leave", guest).status_code == 200
    assert api.c.post(f"/tables/{tid}/join", json={"seat": 2}, headers=keyed("j-2", late)).status_code == 200


def test_a_table_is_answered_even_when_the_players_document_went_meanwhile(api: Api, app, monkeypatch):
    """The table is made; the player's document vanishes before the preference is saved (a rollback): the
    answer is the table (it was a 500, and a retry made a second table)."""
    svc = app.extensions["fairdeal"]
    p = api.player()
    real = svc.games.appender.append_commit
    gone = {}

    def commit_then_lose_the_player(game_id, rules):
        out = real(game_id, rules)
        doc, version = svc.store.get_doc("player", p["id"])
        gone["doc"] = doc
        monkeypatch.setattr(
            svc.store,
            "get_doc",
            lambda kind, i, _g=svc.store.get_doc: (None, 0) if (kind, i) == ("player", p["id"]) else _g(kind, i),
        )
        return out

    monkeypatch.setattr(svc.games.appender, "append_commit", commit_then_lose_the_player)
    r = api.c.post("/tables", json={"rule_set": "spades"}, headers=keyed("t-9", p))
    assert r.status_code == 201 and r.get_json()["status"] == "open"
