"""Clocks, timeout moves (on the next touch and by the sweeper), abandonment and cancellation: every ending
reveals the seed and signs the transcript."""

from __future__ import annotations

import pytest

from fairdeal.service import sweeper
from tests.service.checks import check_ended
from tests.service.client import Api
from tests.service.conftest import make_app


@pytest.fixture
def timed(request, tmp_path, clock):
    app = make_app(tmp_path, "redis", request, now=clock, abandon_after=600.0)
    return Api(app.test_client()), app.extensions["fairdeal"], clock


def started_game(api: Api, **table):
    p = api.player()
    t = api.table(p, rule_set="spades", **table)
    api.start(p, t["id"])
    return p, t["id"]


def test_a_player_out_of_time_gets_the_timeout_move_on_the_next_touch(timed):
    api, svc, clock = timed
    p, gid = started_game(api)
    v = api.view(p, gid)
    assert v["your_turn"] and v["clock"] == "other"  # spades opens with bids: the 30-second clock
    clock.advance(29)
    assert api.view(p, gid)["seq"] == v["seq"]
    clock.advance(2)
    w = api.view(p, gid)
    records = svc.games.get(gid).transcript["records"]
    mine = [r for r in records if r["seat"] == 0]
    assert mine[-1]["by"] == "timeout" and mine[-1]["seq"] == v["seq"] + 1
    assert w["seq"] > v["seq"]


def test_the_sweeper_advances_a_game_nobody_calls(timed):
    api, svc, clock = timed
    p, gid = started_game(api)
    before = svc.store.log_info(gid)[0]
    clock.advance(31)
    assert sweeper.sweep_once(svc) >= 1
    assert svc.store.log_info(gid)[0] > before
    c = svc.games.get(gid)
    assert any(r["by"] == "timeout" for r in c.transcript["records"])


def test_a_card_decision_runs_on_the_card_clock(timed):
    api, svc, clock = timed
    p, gid = started_game(api, clocks={"card": 7, "other": 9})
    for _ in range(20):
        v = api.view(p, gid)
        if v["clock"] == "card" and v["your_turn"]:
            break
        assert api.move(p, gid, v["seq"], v["legal_moves"][0]).status_code == 201
    assert v["clock"] == "card"
    clock.advance(6)
    assert api.view(p, gid)["seq"] == v["seq"]
    clock.advance(2)
    assert api.view(p, gid)["seq"] > v["seq"]


def test_clocks_off_never_time_out_but_silence_abandons(timed):
    api, svc, clock = timed
    p, gid = started_game(api, clocks="off")
    v = api.view(p, gid)
    assert v["deadline"] is None
    clock.advance(599)
    sweeper.sweep_once(svc)
    assert api.view(p, gid)["seq"] == v["seq"] and not svc.games.get(gid).ended
    clock.advance(2)
    sweeper.sweep_once(svc)
    assert svc.games.get(gid).ended
    assert api.get(f"/tables/{gid}").get_json()["status"] == "over"
    check_ended(api.get(f"/games/{gid}/transcript").get_json(), "abandoned")


def test_a_game_whose_every_human_left_is_abandoned(timed):
    api, svc, clock = timed
    p, gid = started_game(api)
    r = api.post(f"/tables/{gid}/leave", p)
    assert r.status_code == 200 and r.get_json()["status"] == "over"
    check_ended(api.get(f"/games/{gid}/transcript").get_json(), "abandoned")


def test_a_seat_whose_player_left_is_played_by_the_stand_in_at_once(timed):
    api, svc, clock = timed
    a, b = api.player(), api.player()
    t = api.table(a, rule_set="spades", clocks={"card": 3600, "other": 3600})
    api.post(f"/tables/{t['id']}/join", b, json={"seat": 2})
    api.start(a, t["id"])
    api.post(f"/tables/{t['id']}/leave", b)
    for _ in range(30):  # a keeps playing; b's turns are taken by the table's bot standing in, without waiting
        v = api.view(a, t["id"])
        if v["status"] == "over":  # a short game (nil bids set twice) may end first
            break
        assert v["your_turn"]  # never waiting for the seat that left
        assert api.move(a, t["id"], v["seq"], v["legal_moves"][0]).status_code == 201
    recs = svc.games.get(t["id"]).transcript["records"]
    assert len([r for r in recs if r["seat"] == 2]) >= 10
    assert {r["by"] for r in recs if r["seat"] == 2} == {"stand-in"}


def test_without_clocks_a_seat_whose_player_left_is_stood_in_never_timed_out(timed):
    # No clock, no timeout move (fairdeal/2): the table's bot stands in for the player who left (recorded as
    # "stand-in", checked as a bot move), nothing is relabelled as a timeout and the others play on.
    api, svc, clock = timed
    a, b = api.player(), api.player()
    t = api.table(a, rule_set="spades", clocks="off")
    api.post(f"/tables/{t['id']}/join", b, json={"seat": 2})
    api.start(a, t["id"])
    api.post(f"/tables/{t['id']}/leave", b)
    for _ in range(30):
        v = api.view(a, t["id"])
        if v["status"] == "over":
            break
        assert v["your_turn"]
        assert api.move(a, t["id"], v["seq"], v["legal_moves"][0]).status_code == 201
    records = svc.games.get(t["id"]).transcript["records"]
    assert all(r["by"] != "timeout" for r in records)
    assert {r["by"] for r in records if r["seat"] == 2} == {"stand-in"} and len(records) > 30


def test_the_host_cancels_a_running_game(timed):
    api, svc, clock = timed
    p, gid = started_game(api)
    other = api.player()
    assert api.post(f"/tables/{gid}/cancel", other).status_code == 403
    r = api.post(f"/tables/{gid}/cancel", p)
    assert r.status_code == 200 and r.get_json()["end_reason"] == "cancelled"
    check_ended(api.get(f"/games/{gid}/transcript").get_json(), "cancelled")
    assert api.move(p, gid, 0, {"kind": "pass"}).status_code == 409


def test_a_table_cancelled_before_the_start_still_reveals_its_seed(timed):
    api, svc, clock = timed
    p = api.player()
    t = api.table(p, rule_set="spades")
    assert api.post(f"/tables/{t['id']}/cancel", p).status_code == 200
    transcript = api.get(f"/games/{t['id']}/transcript").get_json()
    assert "start" not in transcript
    check_ended(transcript, "cancelled")
    assert all(x["id"] != t["id"] for x in api.get("/lobby").get_json()["tables"])


def test_a_table_of_bots_plays_to_the_end_and_verifies(timed):
    api, svc, clock = timed
    host = api.player()
    t = api.table(host, rule_set="spades", seat=None, clocks="off")
    started = api.start(host, t["id"])
    assert started["bots"] == 4
    for _ in range(10):  # a long game may need more than one touch; the sweeper finds it due at once
        sweeper.sweep_once(svc)
        if svc.games.get(t["id"]).ended:
            break
    transcript = api.get(f"/games/{t['id']}/transcript").get_json()
    check_ended(transcript, "finished")
    assert {r["by"] for r in transcript["records"]} == {"bot"}
