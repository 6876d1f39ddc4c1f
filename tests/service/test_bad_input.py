"""Bad input changes nothing and gets a clear 4xx in RFC 9457 problem JSON."""

from __future__ import annotations

import pytest

from tests.service.client import Api
from tests.service.problems import problem


def suggested_or_first(v):
    return v["suggested"] if v["suggested"] in v["legal_moves"] else v["legal_moves"][0]


@pytest.fixture
def game(api: Api, app):
    """Spades: two humans (seats 0 and 1), two bots, a spectator; played until a human must play a card
    and holds a card it may not play."""
    a, b, watcher = api.player("a"), api.player("b"), api.player("w")
    t = api.table(a, rule_set="spades")
    assert api.post(f"/tables/{t['id']}/join", b, json={"seat": 1}).status_code == 200
    assert api.post(f"/tables/{t['id']}/watch", watcher).status_code == 200
    api.start(a, t["id"])
    gid = t["id"]
    for _ in range(400):
        views = {n: api.view(p, gid) for n, p in (("a", a), ("b", b))}
        mover = next(n for n, v in views.items() if v["your_turn"])
        v = views[mover]
        if v["why_not"]:
            other = "b" if mover == "a" else "a"
            players = {"a": a, "b": b}
            return {
                "gid": gid,
                "mover": players[mover],
                "other": players[other],
                "view": v,
                "watcher": watcher,
                "store": app.extensions["fairdeal"].store,
            }
        assert api.move({"a": a, "b": b}[mover], gid, v["seq"], suggested_or_first(v)).status_code == 201
    pytest.fail("no position with an unplayable card came up")


def unchanged(api, g, before_len):
    assert g["store"].log_info(g["gid"])[0] == before_len
    assert api.view(g["mover"], g["gid"])["seq"] == g["view"]["seq"]


def test_illegal_card_is_refused_with_the_sentence(api, game):
    v, n = game["view"], game["store"].log_info(game["gid"])[0]
    card, sentence = next(iter(v["why_not"].items()))
    body = problem(api.move(game["mover"], game["gid"], v["seq"], {"kind": "play", "card": card}), 422, "illegal-move")
    assert body["detail"] == sentence
    unchanged(api, game, n)


def test_out_of_turn_is_refused(api, game):
    v, n = game["view"], game["store"].log_info(game["gid"])[0]
    body = problem(api.move(game["other"], game["gid"], v["seq"], v["legal_moves"][0]), 409, "not-your-turn")
    assert body["detail"] == f"It is not your turn: seat {v['seat']} is to play a card."  # the engine's sentence
    unchanged(api, game, n)


def test_another_seats_token_is_refused(api, game):
    v, n = game["view"], game["store"].log_info(game["gid"])[0]
    r = api.post(
        f"/games/{game['gid']}/moves",
        game["other"],
        json={"seat": v["seat"], "seq": v["seq"], "move": v["legal_moves"][0]},
    )
    problem(r, 403, "not-your-seat")
    unchanged(api, game, n)


def test_a_spectator_cannot_move(api, game):
    v, n = game["view"], game["store"].log_info(game["gid"])[0]
    problem(api.move(game["watcher"], game["gid"], v["seq"], v["legal_moves"][0]), 403, "not-seated")
    unchanged(api, game, n)


def test_stale_sequence_number_is_refused(api, game):
    v, n = game["view"], game["store"].log_info(game["gid"])[0]
    body = problem(api.move(game["mover"], game["gid"], v["seq"] - 1, v["legal_moves"][0]), 409, "stale-sequence")
    assert body["seq"] == v["seq"]
    unchanged(api, game, n)


def test_idempotent_retry_is_acknowledged_once_and_a_reused_key_refused(api, game):
    v, gid = game["view"], game["gid"]
    move = v["legal_moves"][0]
    first = api.move(game["mover"], gid, v["seq"], move, key="k-1")
    assert first.status_code == 201
    n = game["store"].log_info(gid)[0]
    again = api.move(game["mover"], gid, v["seq"], move, key="k-1")
    assert again.status_code == 200
    assert again.get_json()["receipt"] == first.get_json()["receipt"] and again.get_json()["replayed"]
    assert game["store"].log_info(gid)[0] == n
    other = next((m for m in v["legal_moves"] if m != move), {"kind": "pass"})
    problem(api.move(game["mover"], gid, v["seq"], other, key="k-1"), 422, "idempotency-key-reused")
    assert game["store"].log_info(gid)[0] == n


def test_an_idempotency_key_belongs_to_the_player_who_sent_it(api, game):
    # Another seat sending the same key text makes another request: its move is taken, and the first seat's
    # retry still gets its own original answer.
    v, gid = game["view"], game["gid"]
    first = api.move(game["mover"], gid, v["seq"], suggested_or_first(v), key="shared-key")
    assert first.status_code == 201
    for _ in range(20):
        w = api.view(game["other"], gid)
        if w["your_turn"] or w["status"] == "over":
            break
        u = api.view(game["mover"], gid)
        assert api.move(game["mover"], gid, u["seq"], suggested_or_first(u)).status_code == 201
    assert w["your_turn"], "the other seat gets a turn"
    theirs = api.move(game["other"], gid, w["seq"], suggested_or_first(w), key="shared-key")
    assert theirs.status_code == 201 and not theirs.get_json()["replayed"], theirs.get_json()
    assert theirs.get_json()["receipt"] != first.get_json()["receipt"]
    retry = api.move(game["mover"], gid, v["seq"], suggested_or_first(v), key="shared-key")
    assert retry.status_code == 200 and retry.get_json()["receipt"] == first.get_json()["receipt"]


@pytest.mark.parametrize("extra", [{"value": 3}, {"cards": []}, {"seat": 1}])
def test_a_member_the_moves_kind_does_not_have_is_refused_and_named(api, game, extra):
    v, n = game["view"], game["store"].log_info(game["gid"])[0]
    play = next(m for m in v["legal_moves"] if m["kind"] == "play")
    body = problem(api.move(game["mover"], game["gid"], v["seq"], {**play, **extra}), 400, "malformed-move")
    name = next(iter(extra))
    assert body["member"] == name and repr(name) in body["detail"] and '"kind":"play","card":C' in body["detail"]
    unchanged(api, game, n)


def test_malformed_move_is_refused(api, game):
    v, n = game["view"], game["store"].log_info(game["gid"])[0]
    problem(api.move(game["mover"], game["gid"], v["seq"], {"kind": "play", "card": "1Z"}), 400, "malformed-move")
    problem(api.move(game["mover"], game["gid"], v["seq"], {"kind": "dance"}), 400, "malformed-move")
    unchanged(api, game, n)


def test_malformed_json_is_refused(api, game):
    n = game["store"].log_info(game["gid"])[0]
    r = api.c.post(
        f"/games/{game['gid']}/moves", data="{not json", content_type="application/json", headers=game["mover"]["h"]
    )
    problem(r, 400, "malformed-json")
    unchanged(api, game, n)


def test_huge_body_is_refused(api, game):
    n = game["store"].log_info(game["gid"])[0]
    r = api.c.post(
        f"/games/{game['gid']}/moves",
        data="[" + "1," * 100_000 + "1]",
        content_type="application/json",
        headers=game["mover"]["h"],
    )
    problem(r, 413, "body-too-large")
    unchanged(api, game, n)


def test_unknown_rule_set_names_the_offered_ones(api):
    p = api.player()
    body = problem(api.post("/tables", p, json={"rule_set": "poker"}), 422, "unknown-rule-set")
    assert "spades" in body["detail"]


def test_unknown_setting_names_the_settings(api):
    p = api.player()
    body = problem(
        api.post("/tables", p, json={"rule_set": "twenty-down", "settings": {"wild_jokers": True}}), 422, "bad-settings"
    )
    assert "jass_order" in body["detail"]


def test_refused_table_size_names_the_sizes(api):
    p = api.player()
    body = problem(api.post("/tables", p, json={"rule_set": "spades", "players": 3}), 422, "bad-settings")
    assert "4" in body["detail"]


def test_bad_clocks_are_refused(api):
    p = api.player()
    problem(api.post("/tables", p, json={"rule_set": "spades", "clocks": {"card": 0}}), 422, "bad-clocks")


def test_missing_or_unknown_token_is_refused(api):
    problem(api.c.post("/tables", json={"rule_set": "spades"}), 401, "unauthorized")
    problem(
        api.c.post("/tables", json={"rule_set": "spades"}, headers={"Authorization": "Bearer nope"}),
        401,
        "unauthorized",
    )


def test_unknown_table_and_route_are_problems(api):
    problem(api.c.get("/tables/doesnotexist"), 404, "table-not-found")
    problem(api.c.get("/no/such/route"), 404, "not-found")


def test_only_the_host_starts_and_a_started_table_takes_no_seats(api):
    a, b, c = api.player(), api.player(), api.player()
    t = api.table(a, rule_set="spades")
    api.post(f"/tables/{t['id']}/join", b)
    problem(api.post(f"/tables/{t['id']}/start", b), 403, "not-host")
    api.start(a, t["id"])
    problem(api.post(f"/tables/{t['id']}/join", c), 409, "table-not-open")
    problem(api.post(f"/tables/{t['id']}/start", a), 409, "table-not-open")


def test_json_without_content_type_is_read_and_a_bad_last_event_id_is_ignored(api):
    p = api.player()
    r = api.c.post("/tables", data='{"rule_set": "spades"}', headers=p["h"])
    assert r.status_code == 201
    s = api.c.get(f"/games/{r.get_json()['id']}/stream?after=0", headers={"Last-Event-ID": "x"}, buffered=False)
    assert s.status_code == 200
    s.close()
