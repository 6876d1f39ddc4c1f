"""Several processes share one game through the store: each catches up from the log, and compare-and-append
lets exactly one of two racing writers record a move."""

from __future__ import annotations

import threading

from fairdeal.service.app import create_app
from fairdeal.service.config import Config
from fairdeal.service.store.redis import RedisStore
from tests.service.checks import check_finished
from tests.service.client import Api


def two_apps(tmp_path, redis_url):
    cfg = Config(data_dir=str(tmp_path))  # one data dir: the same signing keys, as operations.md asks
    return [create_app(cfg, store=RedisStore(redis_url)) for _ in range(2)]


def pick(v):
    return v["suggested"] if v["suggested"] in v["legal_moves"] else v["legal_moves"][0]


def test_a_game_played_through_two_processes_in_turn_verifies(tmp_path, redis_url):
    apps = [Api(a.test_client()) for a in two_apps(tmp_path, redis_url)]
    p = apps[0].player()
    t = apps[0].table(p, rule_set="spades")
    apps[1].start(p, t["id"])
    for i in range(5000):
        api = apps[i % 2]
        v = api.view(p, t["id"])
        if v["status"] == "over":
            break
        r = apps[(i + 1) % 2].move(p, t["id"], v["seq"], pick(v))
        assert r.status_code == 201, r.get_json()
    check_finished(apps[0].get(f"/games/{t['id']}/transcript").get_json())
    assert (
        apps[1].get(f"/games/{t['id']}/transcript").get_json() == apps[0].get(f"/games/{t['id']}/transcript").get_json()
    )


def test_racing_moves_on_one_seq_record_exactly_one(tmp_path, redis_url):
    apps = [Api(a.test_client()) for a in two_apps(tmp_path, redis_url)]
    p = apps[0].player()
    t = apps[0].table(p, rule_set="spades", clocks="off")
    apps[0].start(p, t["id"])
    v = apps[0].view(p, t["id"])
    apps[1].view(p, t["id"])  # both processes hold the game at this seq
    moves = v["legal_moves"][:2] if len(v["legal_moves"]) > 1 else v["legal_moves"] * 2
    codes = []

    def go(i):
        codes.append(apps[i].move(p, t["id"], v["seq"], moves[i]).status_code)

    threads = [threading.Thread(target=go, args=(i,)) for i in range(2)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(codes) == [201, 409]
    a, b = apps[0].view(p, t["id"]), apps[1].view(p, t["id"])
    assert a["seq"] == b["seq"] and a["last_hash"] == b["last_hash"]
    mine = [
        r
        for r in apps[0].get(f"/games/{t['id']}/events?after=0&wait=0", p).get_json()["records"]
        if r["seq"] == v["seq"] + 1
    ]
    assert len(mine) == 1 and mine[0]["by"] == "player"


def test_games_evicted_from_the_cache_are_replayed_from_the_log(request, tmp_path):
    from tests.service.conftest import make_app

    api = Api(make_app(tmp_path, "redis", request, cache_size=1).test_client())
    p = api.player()
    games = []
    for _ in range(2):
        t = api.table(p, rule_set="spades", clocks="off")
        api.start(p, t["id"])
        games.append(t["id"])
    for _ in range(20):  # alternate: each request evicts the other game
        for gid in games:
            v = api.view(p, gid)
            assert api.move(p, gid, v["seq"], pick(v)).status_code == 201
    for gid in games:
        t = api.get(f"/games/{gid}/transcript", p).get_json()["transcript"]
        assert len(t["records"]) >= 20 and [r["seq"] for r in t["records"]] == list(range(1, len(t["records"]) + 1))
