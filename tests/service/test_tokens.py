"""Tokens expire and can be ended: a player gets a fresh one, ends the one in hand, or ends all (a stolen copy
stops working); an ended or expired token is refused with a bearer challenge that says invalid_token."""

from __future__ import annotations

import time

import pytest

from fairdeal.service import auth
from fairdeal.service.app import create_app
from fairdeal.service.config import Config
from fairdeal.service.isotime import parse_iso
from fairdeal.service.store.redis import RedisStore
from tests.service.client import Api
from tests.service.conftest import make_app
from tests.service.problems import problem

DAY = 86400.0


@pytest.fixture
def timed_api(request, tmp_path, clock):
    return Api(make_app(tmp_path, "sqlite", request, now=clock, token_ttl=2 * DAY).test_client())


def bearer(token: str) -> dict:
    return {"Authorization": "Bearer " + token}


def refused(api: Api, token: str) -> dict:
    r = api.c.get("/players/me", headers=bearer(token))
    body = problem(r, 401, "unauthorized")
    assert 'error="invalid_token"' in r.headers["WWW-Authenticate"]
    return body


def test_a_token_expires_after_its_lifetime(timed_api, clock):
    p = timed_api.player()
    assert parse_iso(p["expires"]) == pytest.approx(clock.t + 2 * DAY, abs=0.01)
    clock.advance(2 * DAY - 60)
    assert timed_api.get("/players/me", p).status_code == 200
    clock.advance(120)  # (a remembered token's expiry is checked too)
    assert "expired" in refused(timed_api, p["token"])["detail"]


def test_a_fresh_token_before_the_old_one_expires_keeps_the_player(timed_api, clock):
    p = timed_api.player("ann")
    clock.advance(DAY)
    r = timed_api.post("/players/me/tokens", p)
    assert r.status_code == 201
    fresh = r.get_json()
    assert fresh["id"] == p["id"] and fresh["token"] != p["token"]
    assert parse_iso(fresh["expires"]) == pytest.approx(clock.t + 2 * DAY, abs=0.01)
    clock.advance(1.5 * DAY)
    refused(timed_api, p["token"])
    me = timed_api.c.get("/players/me", headers=bearer(fresh["token"])).get_json()
    assert me["id"] == p["id"] and me["name"] == "ann"


def test_ending_the_token_in_hand_logs_out(api):
    p = api.player()
    other = api.post("/players/me/tokens", p).get_json()["token"]
    r = api.c.delete("/players/me/token", headers=p["h"])
    assert r.status_code == 204
    assert "ended" in refused(api, p["token"])["detail"]
    assert api.c.get("/players/me", headers=bearer(other)).status_code == 200  # the other token lives on


def test_a_stolen_token_is_ended_with_all_the_others_and_the_player_keeps_playing(api):
    owner = api.player("owner")
    t = api.table(owner, rule_set="spades", clocks="off")
    stolen = dict(owner)  # the thief holds a copy of the same token
    second = api.post("/players/me/tokens", owner).get_json()["token"]
    r = api.post("/players/me/tokens/revoke", owner)
    assert r.status_code == 200
    fresh = r.get_json()
    assert fresh["ended"] == 2 and fresh["id"] == owner["id"]
    refused(api, stolen["token"])
    refused(api, second)
    problem(api.post(f"/tables/{t['id']}/start", stolen), 401, "unauthorized")
    # the new token is the same player: the host starts their table
    owner["h"] = bearer(fresh["token"])
    assert api.start(owner, t["id"])["status"] == "playing"


def test_a_player_holds_at_most_so_many_tokens_the_oldest_ends(api):
    p = api.player()
    tokens = [p["token"]] + [api.post("/players/me/tokens", p).get_json()["token"] for _ in range(auth.MAX_TOKENS)]
    refused(api, tokens[0])
    assert all(api.c.get("/players/me", headers=bearer(t)).status_code == 200 for t in tokens[1:])


def test_an_ended_token_is_refused_by_another_instance_within_a_second(tmp_path, redis_url):
    """Two processes on one Redis: the one that did not end the token stops taking it once its memory of it
    (auth.CACHE_SECONDS) runs out."""
    cfg = Config(data_dir=str(tmp_path), rate_limit_storage="memory://")
    a, b = (Api(create_app(cfg, store=RedisStore(redis_url)).test_client()) for _ in range(2))
    p = a.player()
    assert b.get("/players/me", p).status_code == 200  # b remembers it
    assert a.c.delete("/players/me/token", headers=p["h"]).status_code == 204
    refused(a, p["token"])
    time.sleep(auth.CACHE_SECONDS + 0.05)
    refused(b, p["token"])


def test_a_token_from_before_expiry_is_adopted_and_can_be_ended(api, app):
    """A token document of an older version ({"player"} only, not listed in the player's document) keeps working:
    on its first use it gets an expiry and is listed, so ending all of the player's tokens ends it too."""
    store = app.extensions["fairdeal"].store
    p = api.player()
    h = auth.token_hash(p["token"])
    store.put_doc("token", h, {"player": p["id"]}, store.get_doc("token", h)[1])
    player, version = store.get_doc("player", p["id"])
    store.put_doc("player", p["id"], {k: v for k, v in player.items() if k != "tokens"}, version)
    auth.forget_all(app)
    assert api.get("/players/me", p).status_code == 200
    doc = store.get_doc("token", h)[0]
    assert doc["expires"] is not None and h in store.get_doc("player", p["id"])[0]["tokens"]
    fresh = api.post("/players/me/tokens/revoke", p).get_json()
    assert fresh["ended"] == 1
    refused(api, p["token"])
