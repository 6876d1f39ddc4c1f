"""Leaving and coming back (docs/api.md): a seat whose player left, or timed out twice in a row, or (without
clocks) sat silent past FAIRDEAL_STANDIN_AFTER, is played by the table's bot as "stand-in" moves until the player
comes back; the host may choose that a leave ends the game instead. The finished game verifies."""

from __future__ import annotations

import pytest

from fairdeal.core.checks import verify_transcript
from tests.service.checks import check_ended
from tests.service.client import Api
from tests.service.conftest import make_app
from tests.service.standin_kit import play_until, two_humans


@pytest.fixture
def timed(request, tmp_path, clock):
    app = make_app(tmp_path, "sqlite", request, now=clock, abandon_after=600.0, standin_after=120.0)
    return Api(app.test_client()), app.extensions["fairdeal"], clock


def records(svc, gid):
    return svc.games.get(gid).transcript["records"]


def test_a_player_who_leaves_is_stood_in_for_and_comes_back_to_their_seat(timed):
    api, svc, clock = timed
    host, guest, gid = two_humans(api)
    assert api.post(f"/tables/{gid}/leave", guest).status_code == 200
    v = play_until(api, [host], gid, lambda v: any(r["by"] == "stand-in" for r in records(svc, gid)))
    seat = v["seats"][2]
    assert seat["away"] == "left" and seat["stand_in"] and seat["gone"]
    first = next(r for r in records(svc, gid) if r["by"] == "stand-in")
    assert first["seat"] == 2 and seat["stand_in_from"] == first["seq"]
    assert not [r for r in records(svc, gid) if r["seat"] == 2 and r["by"] == "timeout"], "no clock for a stand-in"
    # everyone sees it, the spectator too
    assert api.view(None, gid)["seats"][2]["stand_in"]
    back = api.post(f"/tables/{gid}/return", guest)
    assert back.status_code == 200 and back.get_json()["you"]["seat"] == 2
    at = api.view(guest, gid)
    assert at["seats"][2]["away"] is None and not at["seats"][2]["stand_in"]
    v = play_until(api, [host, guest], gid, lambda v: api.view(guest, gid)["your_turn"])
    assert api.view(guest, gid)["your_turn"], "the seat is the player's again"
    seq_back = v["seq"]
    play_until(api, [host, guest], gid, lambda v: False, limit=2000)
    t = api.get(f"/games/{gid}/transcript").get_json()
    check_ended(t, "finished")
    assert not [r for r in t["records"] if r["by"] == "stand-in" and r["seq"] > seq_back]
    report = verify_transcript(t, key=t["commit"]["key"])
    assert report.ok and report.check("bot-moves").fields["stand_ins"] >= 1


def test_two_clock_outs_in_a_row_put_the_bot_in_until_the_player_comes_back(timed):
    api, svc, clock = timed
    host, guest, gid = two_humans(api, clocks={"card": 10, "other": 10})
    for _ in range(40):
        if any(r["by"] == "stand-in" for r in records(svc, gid)):
            break
        v = api.view(host, gid)
        if v["your_turn"]:
            assert api.move(host, gid, v["seq"], v["legal_moves"][0]).status_code == 201
        else:
            clock.advance(11)  # the guest (seat 2) never moves
    mine = [r["by"] for r in records(svc, gid) if r["seat"] == 2]
    assert mine[:3] == ["timeout", "timeout", "stand-in"], mine
    assert api.view(host, gid)["seats"][2]["away"] == "stood-in"
    # joining again with its token is coming back (a client that knows only --join ID --seat N)
    r = api.post(f"/tables/{gid}/join", guest, json={"seat": 2})
    assert r.status_code == 200 and r.get_json()["you"]["seat"] == 2
    assert api.view(guest, gid)["seats"][2]["away"] is None


def test_without_clocks_a_long_silence_puts_the_bot_in(timed):
    api, svc, clock = timed
    host, guest, gid = two_humans(api, clocks="off")
    v = play_until(api, [host], gid, lambda v: v["to_move"] == 2)
    clock.advance(119)
    assert api.view(host, gid)["seq"] == v["seq"]
    clock.advance(2)
    assert api.view(host, gid)["seq"] > v["seq"]
    assert (
        records(svc, gid)[-1]["by"] in ("stand-in", "bot")
        and [r for r in records(svc, gid) if r["seat"] == 2][-1]["by"] == "stand-in"
    )


def test_nobody_stands_in_when_every_player_is_away(timed):
    api, svc, clock = timed
    host, guest, gid = two_humans(api, clocks={"card": 10, "other": 10})
    for _ in range(12):
        clock.advance(11)
        api.view(None, gid)
    assert not [r for r in records(svc, gid) if r["by"] == "stand-in"], "no game of bots alone"


def test_the_host_may_choose_that_a_leave_ends_the_game(timed):
    api, svc, clock = timed
    host, guest, gid = two_humans(api, on_leave="end")
    assert api.get(f"/tables/{gid}").get_json()["on_leave"] == "end"
    assert api.post(f"/tables/{gid}/leave", guest).status_code == 200
    assert api.get(f"/tables/{gid}").get_json()["status"] == "over"
    check_ended(api.get(f"/games/{gid}/transcript").get_json(), "abandoned")


def test_a_bad_on_leave_is_refused_and_a_stranger_cannot_come_back(timed):
    api, svc, clock = timed
    p = api.player()
    r = api.post("/tables", p, json={"rule_set": "spades", "on_leave": "vanish"})
    assert r.status_code == 422 and r.get_json()["type"].endswith("bad-on-leave")
    host, guest, gid = two_humans(api)
    r = api.post(f"/tables/{gid}/return", api.player())
    assert r.status_code == 403 and r.get_json()["type"].endswith("not-seated")


def test_the_lobby_lists_the_tables_being_played_to_watch_newest_first(timed):
    api, svc, clock = timed
    host, guest, first = two_humans(api)
    clock.advance(5)
    _, _, second = two_humans(api)
    waiting = api.table(api.player(), rule_set="spades")
    lobby = api.get("/lobby").get_json()
    running = [t["id"] for t in lobby["running"]]
    assert running[:2] == [second, first] and waiting["id"] not in running
    assert waiting["id"] in [t["id"] for t in lobby["tables"]] and first not in [t["id"] for t in lobby["tables"]]
    api.post(f"/tables/{first}/cancel", host)
    assert first not in [t["id"] for t in api.get("/lobby").get_json()["running"]], "an ended game leaves the list"


def test_play_again_opens_the_next_table_with_the_same_seats(timed):
    api, svc, clock = timed
    host, guest, gid = two_humans(api, clocks="off")
    r = api.post(f"/tables/{gid}/again", host)
    assert r.status_code == 409 and r.get_json()["type"].endswith("table-not-over")
    api.post(f"/tables/{gid}/cancel", host)
    assert api.post(f"/tables/{gid}/again", guest).status_code == 403
    r = api.post(f"/tables/{gid}/again", host)
    assert r.status_code == 201
    nxt = r.get_json()
    assert nxt["status"] == "open" and nxt["id"] != gid and nxt["you"]["seat"] == 0
    assert [s["name"] for s in nxt["seats"]][:3:2] == [host["name"], guest["name"]] and not nxt["seats"][1]["taken"]
    assert api.get(f"/tables/{gid}", guest).get_json()["next"] == nxt["id"], "the finished table points to it"
    assert api.post(f"/tables/{gid}/again", host).get_json()["id"] == nxt["id"], "asking again: the same table"
    # the guest is seated already: it commits to a new seed, then the host starts
    nonce = api.commit(guest, nxt["id"], "a new seed")
    assert api.get(f"/tables/{nxt['id']}", guest).get_json()["you"]["seat"] == 2
    api.start(host, nxt["id"])
    api.reveal(guest, nxt["id"], "a new seed", nonce)
    assert api.get(f"/tables/{nxt['id']}").get_json()["status"] == "playing"


def test_moves_without_clocks_write_the_sweepers_schedule_a_few_times_and_it_stands_in_on_time(timed, monkeypatch):
    """The stand-in time moves with every move; the sweeper's index holds it rounded up to a twentieth of
    standin_after (6 s here), so quick moves write the index once or twice, not each time (clocks.schedule), and
    the sweeper, at the index's time, finds the stand-in due."""
    from fairdeal.service import sweeper

    api, svc, clock = timed
    host, guest, gid = two_humans(api, clocks="off")
    writes = []
    index_set = svc.store.index_set

    def counted(index, member, score):
        if index == "schedule":
            writes.append(score)
        return index_set(index, member, score)

    monkeypatch.setattr(svc.store, "index_set", counted)
    for _ in range(10):  # ten human moves in 2 s (the bots answer at once)
        mover = next(p for p in (host, guest) if api.view(p, gid)["your_turn"])
        v = api.view(mover, gid)
        assert api.move(mover, gid, v["seq"], v["legal_moves"][0]).status_code == 201
        clock.advance(0.2)
    assert 1 <= len(writes) <= 2, writes  # one a move before
    game = svc.games.touch(gid)
    exact, stored = svc.games.clocks.next_check(game), svc.store.index_score("schedule", gid)
    assert exact <= stored < exact + 6.01  # never earlier than due: the sweeper is never early for nothing
    seq = game.seq
    clock.advance(stored - clock())
    assert sweeper.sweep_once(svc) == 1
    assert [r for r in records(svc, gid) if r["seq"] > seq and r["by"] == "stand-in"]
