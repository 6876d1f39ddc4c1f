"""End to end: for every rule set, a scripted player and bots play a whole game over HTTP; then the
transcript is checked (signatures, chain, commitment) and replayed from the revealed seed."""

from __future__ import annotations

import pytest

from fairdeal.core.games import available
from tests.service.checks import check_ended, check_finished
from tests.service.client import Api, play_to_end


def suggested_or_first(view: dict) -> dict:
    return view["suggested"] if view["suggested"] in view["legal_moves"] else view["legal_moves"][0]


SIZES = [(r, None) for r in available()] + [("120s-house", 2)] * ("120s-house" in available())


@pytest.mark.parametrize("rule_set,players", SIZES, ids=[f"{r}-{n or 'default'}" for r, n in SIZES])
def test_full_game_over_http_verifies(api: Api, rule_set, players):
    host = api.player("host")
    table = api.table(host, rule_set=rule_set, **({"players": players} if players else {}))
    assert table["players"] == (players or 4)
    assert table["commitment"] and table["status"] == "open"
    nonce = api.commit(host, table["id"], "my own seed")
    started = api.start_revealing(host, table["id"], [(host, "my own seed", nonce)])
    assert started["bots"] == table["players"] - 1
    assert all(s["bot"] for s in started["seats"][1:])
    receipts = {}

    def choose(view):
        return suggested_or_first(view)

    final = play_to_end(api, table["id"], [host], choose=choose, receipts=receipts)
    assert final["end_reason"] == "finished" and final["result"]["winners"]
    t = api.get(f"/games/{table['id']}/transcript").get_json()
    keys = api.get("/keys").get_json()
    check_finished(t, keys["current"], receipts=dict(list(receipts.items())[-3:]), client_seeds={0: "my own seed"})
    assert t["protocol"] == "fairdeal/2"
    assert t["start"]["seats"][0]["client_seed"] == "my own seed" and t["start"]["seats"][0]["nonce"] == nonce
    assert t["start"]["seats"][0]["bot"] is False
    assert [s["bot"] for s in t["start"]["seats"][1:]] == [True] * (table["players"] - 1)


def test_two_humans_finish_a_game_on_each_store(app):
    api = Api(app.test_client())
    a, b = api.player("a"), api.player("b")
    rule_set = available()[0]
    table = api.table(a, rule_set=rule_set)
    nonce = api.commit(b, table["id"], "bee", seat=1)
    api.start_revealing(a, table["id"], [(b, "bee", nonce)])
    play_to_end(api, table["id"], [a, b], choose=suggested_or_first)
    check_finished(api.get(f"/games/{table['id']}/transcript").get_json())


def test_a_game_on_a_redis_cluster_of_three_primaries(request, tmp_path):
    """Sixty of the player's moves (and the bots' answers) on a cluster, then the host cancels: the transcript
    is signed, chained, reveals the committed seed and replays."""
    from fairdeal.service.app import create_app
    from fairdeal.service.config import Config
    from fairdeal.service.store.redis import RedisStore

    store = RedisStore(request.getfixturevalue("redis_cluster_url"))
    api = Api(create_app(Config(data_dir=str(tmp_path)), store=store).test_client())
    p = api.player()
    t = api.table(p, rule_set="spades")
    api.start(p, t["id"])
    for _ in range(60):
        v = api.view(p, t["id"])
        if v["status"] == "over":
            break
        assert api.move(p, t["id"], v["seq"], suggested_or_first(v)).status_code == 201
    over = api.view(p, t["id"])["status"] == "over"  # a short game may have ended by its rules first
    if not over:
        assert api.post(f"/tables/{t['id']}/cancel", p).status_code == 200
    transcript = api.get(f"/games/{t['id']}/transcript").get_json()
    assert len(transcript["records"]) >= 60
    check_ended(transcript, "finished" if over else "cancelled")
