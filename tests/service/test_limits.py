"""Rate limits, with low limits: 429 problem JSON with Retry-After; per address (new players, forged tokens), per
player (tables, moves, waits: another player is not held back), all the players of one address together;
shared by every instance on Redis; off when switched off."""

from __future__ import annotations

import threading

import limits.storage.memory

from fairdeal.service import auth, ratelimit_memory
from fairdeal.service.app import create_app
from fairdeal.service.config import Config
from fairdeal.service.ratelimits import storage
from tests.service.client import Api
from tests.service.conftest import make_app
from tests.service.problems import problem
from tests.waiting import wait_for


def limited(r) -> dict:
    body = problem(r, 429, "rate-limited")
    assert int(r.headers["Retry-After"]) >= 1 and body["retry_after"] == int(r.headers["Retry-After"])
    return body


def at(api: Api, address: str):
    """The app's test client as seen from `address`."""

    class From:
        def __init__(self, c):
            self.c = c

        def __getattr__(self, name):
            method = getattr(self.c, name)
            return lambda *a, **k: method(*a, environ_base={"REMOTE_ADDR": address}, **k)

    return Api(From(api.c))


def test_new_players_are_limited_per_address(tmp_path, request):
    api = Api(make_app(tmp_path, "sqlite", request, limit_players="3/minute").test_client())
    home, elsewhere = at(api, "10.0.0.1"), at(api, "10.0.0.2")
    for _ in range(3):
        home.player()
    body = limited(home.c.post("/players", json={"name": "one too many"}))
    assert body["limit"] == "3 per 1 minute" and "Try again in" in body["detail"]
    elsewhere.player()  # another address is not held back
    # a new token counts as a new identity
    p = elsewhere.player()
    assert elsewhere.post("/players/me/tokens", p).status_code == 201
    limited(elsewhere.post("/players/me/tokens", p))


def test_moves_are_limited_per_player_and_another_player_moves_on(tmp_path, request):
    api = Api(make_app(tmp_path, "sqlite", request, limit_moves="5/minute").test_client())
    a, b = api.player(), api.player()
    tables = [api.table(p, rule_set="spades", clocks="off")["id"] for p in (a, b)]
    for p, gid in zip((a, b), tables, strict=True):
        api.start(p, gid)
    for _ in range(5):  # refused or not, each move request counts
        assert api.move(a, tables[0], 10_000, {"kind": "pass"}).status_code == 409
    limited(api.move(a, tables[0], 10_000, {"kind": "pass"}))
    v = api.view(b, tables[1])
    assert (
        api.move(
            b, tables[1], v["seq"], v["suggested"] if v["suggested"] in v["legal_moves"] else v["legal_moves"][0]
        ).status_code
        == 201
    )


def test_waits_are_limited_per_player(tmp_path, request):
    api = Api(make_app(tmp_path, "sqlite", request, limit_waits="4/minute").test_client())
    p, other = api.player(), api.player()
    gid = api.table(p, rule_set="spades")["id"]
    for _ in range(2):
        assert api.get(f"/games/{gid}/events?after=0&wait=0", p).status_code == 200
        s = api.c.get(f"/games/{gid}/stream", headers=p["h"], buffered=False)
        assert s.status_code == 200
        s.close()
    limited(api.get(f"/games/{gid}/events?after=0&wait=0", p))
    limited(api.c.get(f"/games/{gid}/stream", headers=p["h"]))
    assert api.get(f"/games/{gid}/events?after=0&wait=0", other).status_code == 200


def test_new_tables_are_limited_per_player(tmp_path, request):
    api = Api(make_app(tmp_path, "sqlite", request, limit_tables="2/hour").test_client())
    p = api.player()
    api.table(p, rule_set="spades")
    api.table(p, rule_set="spades")
    limited(api.post("/tables", p, json={"rule_set": "spades"}))
    api.table(api.player(), rule_set="spades")


def test_all_the_players_of_one_address_together_are_limited(tmp_path, request):
    api = Api(make_app(tmp_path, "sqlite", request, limit_address="6/minute").test_client())
    home = at(api, "10.0.0.7")
    players = [home.player() for _ in range(3)]
    for p in players:
        home.table(p, rule_set="spades")
        assert home.get("/games/0123456789abcdef/events?wait=0", p).status_code == 404
    limited(home.post("/tables", players[0], json={"rule_set": "spades"}))
    at(api, "10.0.0.8").table(api.player(), rule_set="spades")


def test_forged_tokens_are_limited_per_address_and_good_ones_are_never_refused(tmp_path, request):
    """Behind one NAT, a forger's bad tokens get 429 past the limit; a good token from the same address still
    works (the bad-token count was once checked before the lookup, refusing every token of the address)."""
    app = make_app(tmp_path, "sqlite", request, limit_bad_tokens="5/minute")
    api = Api(app.test_client())
    room = at(api, "10.6.6.6")
    honest = room.player()
    for i in range(5):
        problem(room.c.get("/players/me", headers={"Authorization": f"Bearer fd_forged{i}"}), 401, "unauthorized")
    body = limited(room.c.get("/games/0123456789abcdef", headers={"Authorization": "Bearer fd_forged9"}))
    assert "tokens" in body["detail"]
    auth.forget_all(app)  # not from this process's cache: the good token is looked up past the limit too
    assert room.get("/players/me", honest).status_code == 200
    assert room.post("/tables", honest, json={"rule_set": "spades"}).status_code == 201
    limited(room.c.get("/players/me", headers={"Authorization": "Bearer fd_forged10"}))


def test_the_counts_are_shared_by_every_instance_on_redis(tmp_path, redis_url):
    """Two processes on one Redis count together (keys fd:rl:*); the limit is for the service, not per process."""
    import uuid

    cfg = Config(data_dir=str(tmp_path), redis_url=redis_url, limit_players="4/minute")
    apps = [create_app(cfg) for _ in range(2)]
    address = f"10.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}.9"  # the session's Redis is shared
    clients = [at(Api(a.test_client()), address) for a in apps]
    for i in range(4):
        clients[i % 2].player()
    limited(clients[0].c.post("/players", json={}))
    limited(clients[1].c.post("/players", json={}))
    import redis

    assert redis.Redis.from_url(redis_url).keys("fd:rl:*")


def test_where_the_counts_live():
    assert storage(Config())[0] == "fairdeal-memory://"
    assert storage(Config(redis_url="redis://h:1/0"))[0] == "redis://h:1/0"
    assert storage(Config(redis_url="redis+cluster://h:1"))[0] == "redis+cluster://h:1"
    assert storage(Config(redis_url="redis://h:1/0?cluster=1"))[0] == "redis+cluster://h:1/0"
    assert storage(Config(redis_url="redis://h:1/0", rate_limit_storage="memory://"))[0] == "fairdeal-memory://"


def test_the_process_counts_start_no_thread_and_still_expire(monkeypatch):
    """The embedded store's counts (ratelimit_memory): limits' MemoryStorage started a Timer thread after nearly
    every request, which walked every count; here no thread is started, an expired count reads as 0, and the walk
    runs inline once SWEEP_EVERY has passed."""
    timers = []

    class Counted(threading.Timer):
        def __init__(self, *a, **k):
            timers.append(self)
            super().__init__(*a, **k)

    monkeypatch.setattr(limits.storage.memory.threading, "Timer", Counted)
    counts = ratelimit_memory.ProcessMemory()
    for i in range(20):
        assert counts.incr(f"k{i}", 0.05) == 1
    assert counts.incr("k0", 0.05) == 2
    assert len(timers) == 1 and timers[0].finished.is_set()  # only MemoryStorage.__init__'s, cancelled
    wait_for(lambda: counts.get("k0") == 0, 5, what="an expired count reads as 0")
    assert counts.sweeps == 0 and "k19" in counts.storage  # nobody read k19: still held
    monkeypatch.setattr(ratelimit_memory, "SWEEP_EVERY", 0.0)
    counts.incr("new", 60)
    assert counts.sweeps == 1 and "k19" not in counts.storage and counts.get("new") == 1


def test_limits_switched_off_refuse_nothing(tmp_path, request):
    api = Api(make_app(tmp_path, "sqlite", request, rate_limits=False, limit_players="1/hour").test_client())
    for _ in range(5):
        api.player()


def test_behind_a_trusted_proxy_the_forwarded_address_is_the_clients(tmp_path, request):
    """FAIRDEAL_TRUSTED_PROXIES=1: X-Forwarded-For names the client; with 0 (the default) a client cannot pick
    its own address by sending the header."""
    behind = Api(make_app(tmp_path / "a", "sqlite", request, limit_players="1/minute", trusted_proxies=1).test_client())
    direct = Api(make_app(tmp_path / "b", "sqlite", request, limit_players="1/minute").test_client())
    for i in range(2):
        assert behind.c.post("/players", json={}, headers={"X-Forwarded-For": f"203.0.113.{i}"}).status_code == 201
    assert direct.c.post("/players", json={}, headers={"X-Forwarded-For": "203.0.113.1"}).status_code == 201
    limited(direct.c.post("/players", json={}, headers={"X-Forwarded-For": "203.0.113.2"}))
