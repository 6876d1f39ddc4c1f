"""Hostile input: each of these answered 5xx (or was silently taken) before. Now each is a 4xx problem JSON with
the right headers, changes nothing, and a stored table stays readable."""

from __future__ import annotations

import pytest

from fairdeal.core.reader import parse_transcript
from fairdeal.service.tables import new_id
from tests.service.checks import check_ended, run_verifier
from tests.service.client import Api
from tests.service.problems import problem

JSON = {"Content-Type": "application/json"}


def body_routes(api: Api, p: dict, gid: str) -> list[tuple[str, str]]:
    """Every route that reads a JSON body, with a real id where it takes one."""
    return [
        ("POST", "/players"),
        ("POST", "/tables"),
        ("POST", f"/tables/{gid}/join"),
        ("PUT", "/players/me/preferences/spades"),
        ("POST", f"/games/{gid}/moves"),
    ]


@pytest.fixture
def table(api: Api):
    host = api.player("host")
    return api, host, api.table(host, rule_set="spades")["id"]


def send(api: Api, method: str, path: str, p: dict, data, headers=None):
    return api.c.open(path, method=method, data=data, headers={**p["h"], **(headers or JSON)})


def test_deeply_nested_json_is_refused_before_it_is_parsed(table):
    api, host, gid = table
    for method, path in body_routes(api, host, gid):
        for deep in ("[" * 5000, '{"a":' * 2000 + "1" + "}" * 2000, '{"move": ' + "[" * 40 + "]" * 40 + "}"):
            body = problem(send(api, method, path, host, deep), 400, "malformed-json")
            assert "deeper than 32" in body["detail"]
    # brackets inside strings are text, not nesting
    from fairdeal.service.api.common import nesting_depth

    assert nesting_depth(b'{"name": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\\"[[["}') == 1
    r = api.c.post("/players", json={"name": "[" * 40})
    assert r.status_code == 201


def test_a_lone_surrogate_is_refused_at_the_door_and_nothing_is_stored(table, app):
    api, host, gid = table
    store = app.extensions["fairdeal"].store
    before = store.get_doc("table", gid)
    for method, path in body_routes(api, host, gid):
        for text in (
            '{"name": "x\\ud800"}',
            '{"client_seed": "a\\udfff"}',
            '{"\\ud83d": 1}',
            '{"seq": 0, "move": {"kind": "play", "card": "\\udc00"}}',
        ):
            body = problem(send(api, method, path, host, text), 400, "malformed-json")
            assert "surrogate" in body["detail"]
    assert store.get_doc("table", gid) == before


def test_a_name_with_a_real_astral_character_is_signed_and_verifies(api):
    """A proper surrogate pair is one character (here a playing card): taken, stored, signed as UTF-8 and
    verified."""
    r = api.c.post("/players", data='{"name": "ann \\ud83c\\udccf"}', headers=JSON)
    assert r.status_code == 201 and r.get_json()["name"] == "ann \U0001f0cf"
    p = r.get_json()
    p["h"] = {"Authorization": "Bearer " + p["token"]}
    t = api.table(p, rule_set="spades", clocks="off")
    api.start(p, t["id"])
    v = api.view(p, t["id"])
    assert api.move(p, t["id"], v["seq"], v["legal_moves"][0]).status_code == 201
    assert api.post(f"/tables/{t['id']}/cancel", p).status_code == 200  # ended: signed, seed revealed
    transcript = api.get(f"/games/{t['id']}/transcript").get_json()
    check_ended(transcript, "cancelled")
    run_verifier(transcript)
    assert "ann \U0001f0cf" in str(parse_transcript(transcript)["start"])


def test_control_characters_in_a_name_are_refused(api):
    for name in ("ann\x1b[2J", "a\nb", "\x00", "bob\u0085", "   ", ""):
        problem(api.c.post("/players", json={"name": name}), 422, "bad-name")
    problem(api.c.post("/players", json={"name": "ann", "admin": True}), 422, "unknown-field")


def test_non_finite_numbers_and_bad_utf8_are_refused(table):
    api, host, gid = table
    for data in (
        '{"seq": NaN, "move": {"kind": "pass"}}',
        '{"seq": Infinity, "move": {"kind": "pass"}}',
        '{"seq": 1e999, "move": {"kind": "pass"}}',
        b'{"seq": 1, "move": {"kind": "\xff"}}',
        '{"seq": ' + "9" * 5000 + ', "move": {"kind": "pass"}}',
    ):
        problem(send(api, "POST", f"/games/{gid}/moves", host, data), 400, "malformed-json")


def test_form_multipart_and_text_bodies_are_refused_not_ignored(table, app):
    api, host, gid = table
    store = app.extensions["fairdeal"].store
    before = store.get_doc("table", gid)
    for method, path in body_routes(api, host, gid) + [("POST", f"/tables/{gid}/start")]:
        r = api.c.open(path, method=method, data={"rule_set": "spades", "seat": "1"}, headers=host["h"])
        problem(r, 415, "unsupported-media-type")  # application/x-www-form-urlencoded
        r = api.c.open(
            path,
            method=method,
            data={"f": (__import__("io").BytesIO(b"x"), "f.txt")},
            headers=host["h"],
            content_type="multipart/form-data",
        )
        problem(r, 415, "unsupported-media-type")
        problem(
            send(api, method, path, host, '{"rule_set": "spades"}', {"Content-Type": "text/plain"}),
            415,
            "unsupported-media-type",
        )
        problem(
            send(
                api, method, path, host, '{"rule_set": "spades"}', {"Content-Type": "application/json; charset=latin-1"}
            ),
            415,
            "unsupported-media-type",
        )
    assert store.get_doc("table", gid) == before  # the start (form body) did not happen
    # JSON under its own type or a +json type, or with no type at all (curl -d without -H), is read
    assert (
        api.c.post("/players", data='{"name": "x"}', headers={"Content-Type": "application/vnd.x+json"}).status_code
        == 201
    )


def test_ids_that_are_not_ours_are_404_before_the_store(table, app, monkeypatch):
    api, host, gid = table
    store = app.extensions["fairdeal"].store
    monkeypatch.setattr(store, "get_doc", lambda *a: pytest.fail(f"the store was asked for {a}"))
    monkeypatch.setattr(store, "doc_and_records", lambda *a: pytest.fail(f"the store was asked for {a}"))
    for bad in ("%7Dx", "%7B" + gid + "%7D", gid.upper(), gid + "0", "x" * 16, "%20" + gid):
        for path in (f"/games/{bad}", f"/tables/{bad}", f"/games/{bad}/transcript", f"/games/{bad}/events"):
            problem(api.c.get(path), 404, "table-not-found")


def test_new_ids_are_what_the_id_check_accepts():
    from fairdeal.service.api.common import ID

    assert all(ID.fullmatch(new_id()) for _ in range(200))


def test_a_brace_in_an_id_on_redis_cluster_is_a_404(request, tmp_path):
    """On Redis Cluster an id with a brace made the game's keys hash to different slots: 500 CROSSSLOT."""
    from fairdeal.service.app import create_app
    from fairdeal.service.config import Config
    from fairdeal.service.store.redis import RedisStore

    app = create_app(Config(data_dir=str(tmp_path)), store=RedisStore(request.getfixturevalue("redis_cluster_url")))
    c = app.test_client()
    for path in ("/games/%7Dx", "/games/a%7Bb%7Dc/transcript", "/tables/%7Dx"):
        problem(c.get(path), 404, "table-not-found")


def test_405_says_which_methods_are_allowed(api):
    r = api.c.delete("/tables")
    problem(r, 405, "method-not-allowed")
    assert set(r.headers["Allow"].replace(" ", "").split(",")) >= {"POST"}
    r = api.c.put("/games/0123456789abcdef")
    problem(r, 405, "method-not-allowed")
    assert "GET" in r.headers["Allow"]


def test_401_carries_a_bearer_challenge(api):
    r = api.c.post("/tables", json={"rule_set": "spades"})
    problem(r, 401, "unauthorized")
    assert r.headers["WWW-Authenticate"] == 'Bearer realm="fairdeal"'
    r = api.c.post("/tables", json={"rule_set": "spades"}, headers={"Authorization": "Bearer fd_forged"})
    problem(r, 401, "unauthorized")
    assert r.headers["WWW-Authenticate"].startswith('Bearer realm="fairdeal", error="invalid_token"')


def test_query_numbers_are_json_numbers(table):
    api, host, gid = table
    for query in (
        "after=%201",
        "after=1_000",
        "after=%C2%B2",
        "after=-1",
        "after=1e3",
        "wait=nan",
        "wait=inf",
        "wait=1_0",
        "after=99999999999999999999999",
    ):
        problem(api.get(f"/games/{gid}/events?{query}", host), 400, "bad-request")
    # a Last-Event-ID that is not a plain number (here "²", a digit to str.isdigit) is ignored, as before
    r = api.c.get(f"/games/{gid}/stream", headers={**host["h"], "Last-Event-ID": "\u00b2"}, buffered=False)
    assert r.status_code == 200
    r.close()


def test_the_api_tests_run_on_both_stores(request):
    """The `api` fixture is the app on SQLite (the default store) and on Redis, by turns."""
    params = request.node.parent.session.items
    ids = {i.callspec.params.get("app") for i in params if hasattr(i, "callspec") and "api" in i.fixturenames}
    assert {"sqlite", "redis"} <= ids
