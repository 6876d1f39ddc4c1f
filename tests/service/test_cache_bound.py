"""The replay cache is bounded by bytes (FAIRDEAL_CACHE_BYTES): the stored size of the cached games' logs."""

from __future__ import annotations

from tests.service.client import Api, play_to_end
from tests.service.conftest import make_app


def pick(v):
    return v["suggested"] if v["suggested"] in v["legal_moves"] else v["legal_moves"][0]


def test_the_cache_keeps_no_more_log_bytes_than_its_bound(request, tmp_path):
    bound = 40_000
    app = make_app(tmp_path, "sqlite", request, cache_bytes=bound, rate_limits=False)
    api, games = Api(app.test_client()), app.extensions["fairdeal"].games
    p = api.player()
    ids, sizes = [], []
    for _ in range(4):
        gid = api.table(p, rule_set="twenty-down", clocks="off")["id"]
        api.start(p, gid)
        play_to_end(api, gid, [p], choose=pick)
        ids.append(gid)
        sizes.append(sum(len(t) for t in games.store.records(gid)))
        cached = list(games.cache.entries.values())
        assert games.cache.cached_bytes == sum(c.bytes for c in cached)  # the running total is exact
        assert games.cache.cached_bytes <= bound + max(sizes)  # at most one game past the bound
    assert sum(sizes) > 2 * bound  # the games did not all fit
    assert ids[0] not in games.cache.entries  # the least recently used went first
    first = api.get(f"/games/{ids[0]}/transcript").get_json()  # evicted: replayed from the store
    assert first["end"]["reason"] == "finished" and len(first["records"]) > 0


def test_a_game_larger_than_the_bound_is_still_served(request, tmp_path):
    app = make_app(tmp_path, "sqlite", request, cache_bytes=1024, rate_limits=False)
    api, games = Api(app.test_client()), app.extensions["fairdeal"].games
    p = api.player()
    gid = api.table(p, rule_set="120s-house", players=2, clocks="off")["id"]
    api.start(p, gid)
    v = play_to_end(api, gid, [p], choose=pick)
    assert v["status"] == "over" and list(games.cache.entries) == [gid]
    assert games.cache.cached_bytes == sum(len(t) for t in games.store.records(gid))
