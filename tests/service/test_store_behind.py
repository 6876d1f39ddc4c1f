"""A store that lost writes (a Redis failover with asynchronous replication, a restored backup) under a process
whose cached game is ahead of it: the process must notice, rebuild from the store, and never append on top of,
serve or sign anything but the store's own chain."""

from __future__ import annotations

import itertools
import json

import pytest

from fairdeal.core.transcript import record_hash
from tests.service.checks import check_ended, run_verifier
from tests.service.client import Api
from tests.service.conftest import STORES, make_app
from tests.service.store_faults import drop_last


def last_record(store, game_id: str) -> dict:
    return json.loads(store.records(game_id)[-1])


def assert_chain_holds(store, game_id: str) -> list[dict]:
    """The store's move records, each carrying the hash of the one before."""
    moves = [e for e in map(json.loads, store.records(game_id)) if e.get("type") == "move"]
    for before, after in itertools.pairwise(moves):
        assert after["prev"] == record_hash(before), f"the stored chain breaks at seq {after['seq']}"
    return moves


def services(app):
    return app.extensions["fairdeal"]


@pytest.fixture(params=STORES)
def two(request, tmp_path, clock):
    """Two instances of the service (two processes' caches) on one store."""
    a = make_app(tmp_path, request.param, request, now=clock)
    b = make_app(tmp_path, request.param, request, now=clock)
    return a, b


def until_bot_last(api: Api, store, host: dict, gid: str) -> dict:
    """Play the host's moves until the log's last record is a bot's move; the host's view then."""
    for _ in range(50):
        v = api.view(host, gid)
        if last_record(store, gid).get("by") == "bot" and v["your_turn"]:
            return v
        assert v["your_turn"]
        r = api.move(host, gid, v["seq"], v["legal_moves"][0])
        assert r.status_code == 201, r.get_json()
    raise AssertionError("no bot move came last")


def game_on_two(two) -> tuple:
    """A game of the host and three bots on instance A, its log ending with a bot's move: (A's and B's clients,
    the store, the host, the game id, the host's view)."""
    app_a, app_b = two
    a, b = Api(app_a.test_client()), Api(app_b.test_client())
    store = services(app_a).store
    host = a.player("host")
    gid = a.table(host, rule_set="120s-house", players=4)["id"]
    a.start(host, gid)
    return a, b, store, host, gid, until_bot_last(a, store, host, gid)


def test_a_stale_cache_never_appends_on_top_of_a_store_that_lost_a_record(two, clock):
    a, b, store, host, gid, v = game_on_two(two)
    lost = last_record(store, gid)

    drop_last(store, gid)  # the bot's move is lost; A still holds it
    clock.advance(1.5)
    b.view(host, gid)  # B (a fresh cache) re-makes the bot's move, at another time
    remade = last_record(store, gid)
    assert remade["seq"] == lost["seq"] and remade != lost

    r = a.move(host, gid, v["seq"], v["legal_moves"][0])  # A's copy is at the same seq, with the lost record
    assert r.status_code == 201, r.get_json()
    assert_chain_holds(store, gid)

    r = a.post(f"/tables/{gid}/cancel", host)
    assert r.status_code == 200, r.get_json()
    served_a = a.get(f"/games/{gid}/transcript").get_json()
    served_b = b.get(f"/games/{gid}/transcript").get_json()
    assert served_a == served_b  # A serves the store's chain, not its own copy
    check_ended(served_a, "cancelled")
    run_verifier(served_a)


def test_a_stale_cache_rebuilds_when_the_store_is_shorter(two, clock):
    """The store lost the last records and nobody re-made them yet: A's view is the store's, not its copy."""
    a, b, store, host, gid, v = game_on_two(two)
    drop_last(store, gid, 2)
    clock.advance(1.5)
    seen = a.view(host, gid)  # A reads the store: it re-makes the lost bot moves on the store's chain
    assert seen == b.view(host, gid)
    assert seen["seq"] == v["seq"]
    assert [r["seq"] for r in assert_chain_holds(store, gid)] == list(range(1, v["seq"] + 1))
    r = a.post(f"/tables/{gid}/cancel", host)
    assert r.status_code == 200, r.get_json()
    served = a.get(f"/games/{gid}/transcript").get_json()
    assert served == b.get(f"/games/{gid}/transcript").get_json()
    run_verifier(served)


def test_a_retry_whose_move_was_lost_and_replayed_by_another_is_not_given_their_receipt(two, clock):
    """The store lost the host's move but kept its idempotency key, and the host's clock then ran out: a timeout
    move took that position. The retry is told the game moved on, not handed the timeout record's receipt."""
    a, b, store, host, gid, v = game_on_two(two)
    r = a.move(host, gid, v["seq"], v["legal_moves"][0], key="mine")
    assert r.status_code == 201, r.get_json()
    mine = r.get_json()
    while last_record(store, gid)["seq"] >= mine["seq"]:  # the host's move and the bots' answers are lost
        drop_last(store, gid)
    clock.advance(60)  # past the host's clock
    b.view(host, gid)  # B writes the timeout move (and the bots answer)
    taken = next(e for e in map(json.loads, store.records(gid)) if e.get("type") == "move" and e["seq"] == mine["seq"])
    assert (taken["seq"], taken["by"]) == (mine["seq"], "timeout")
    r = b.move(host, gid, v["seq"], v["legal_moves"][0], key="mine")
    assert r.status_code == 409 and r.get_json()["code"] == "stale-sequence", r.get_json()


def test_a_table_marked_over_whose_end_record_the_store_lost_goes_on_from_the_stores_chain(two, clock):
    """The end record was appended and the table marked over, then the store lost the end (a failover or a
    restored backup between the two writes): the table must not stay over without an end on the store's chain.
    It goes back to playing and the game goes on from the store's last record."""
    a, b, store, host, gid, v = game_on_two(two)
    r = a.post(f"/tables/{gid}/cancel", host)
    assert r.status_code == 200, r.get_json()
    assert "end" in last_record(store, gid)
    drop_last(store, gid)  # the end is lost; the table document still says over
    assert "end" not in last_record(store, gid)
    for api in (b, a):  # a fresh cache and the one that wrote the end
        seen = api.view(host, gid)
        assert seen["status"] != "over" and seen["seq"] == v["seq"], seen
    assert services(two[0]).tables.load(gid)[0]["status"] == "playing"
    r = a.move(host, gid, v["seq"], v["legal_moves"][0])
    assert r.status_code == 201, r.get_json()  # the game goes on, on the store's chain
    assert_chain_holds(store, gid)
