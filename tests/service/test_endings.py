"""How the service ends a game its rules have not ended (fairdeal/service/endings.py): the move cap
(FAIRDEAL_MAX_MOVES, reason "move-cap"), a table of bots only (reason "no-humans" after the silence limit), and a
seat whose player left at a decision whose kind has no clock (abandoned: nobody may move for them). Each end is
signed and verifies."""

from __future__ import annotations

from fairdeal.core.checks import verify_transcript
from fairdeal.service import sweeper
from tests.service.client import Api
from tests.service.conftest import Clock, make_app


class Ticking(Clock):
    """A clock that moves a second every time it is read: time passes while bots play."""

    def __call__(self) -> float:
        self.t += 1.0
        return self.t


def verified(api: Api, gid: str, reason: str) -> dict:
    t = api.get(f"/games/{gid}/transcript").get_json()
    assert t["end"]["reason"] == reason
    report = verify_transcript(t)
    assert report.exit_code == 0, [c.to_json() for c in report.failed]
    return t


def run_out(svc, gid: str, sweeps: int = 20) -> None:
    for _ in range(sweeps):  # a touch runs at most MAX_STEPS bot moves; the sweeper finds the game due at once
        if svc.games.get(gid).ended:
            return
        sweeper.sweep_once(svc)
    assert svc.games.get(gid).ended


def bots_table(api: Api, **table) -> str:
    host = api.player()
    t = api.table(host, rule_set="spades", seat=None, **table)  # the host sits nobody down: four bots
    assert api.start(host, t["id"])["bots"] == 4
    return t["id"]


def test_a_game_at_the_move_cap_ends_there_as_move_cap(request, tmp_path, clock):
    app = make_app(tmp_path, "sqlite", request, now=clock, max_moves=100)
    api, svc = Api(app.test_client()), app.extensions["fairdeal"]
    gid = bots_table(api)  # an all-bot Spades game takes some 600 moves
    run_out(svc, gid)
    t = verified(api, gid, "move-cap")
    assert len(t["records"]) == 100 and t["end"]["result"] is None
    assert api.get(f"/tables/{gid}").get_json()["status"] == "over"


def test_a_player_at_the_move_cap_is_told_the_game_is_over(request, tmp_path, clock):
    app = make_app(tmp_path, "sqlite", request, now=clock, max_moves=100)
    api = Api(app.test_client())
    p = api.player()
    gid = api.table(p, rule_set="spades", clocks="off")["id"]
    api.start(p, gid)
    for _ in range(200):
        v = api.view(p, gid)
        if v["status"] == "over":
            break
        assert api.move(p, gid, v["seq"], v["legal_moves"][0]).status_code == 201
    assert len(verified(api, gid, "move-cap")["records"]) == 100
    answer = api.move(p, gid, v["seq"], {"kind": "pass"})
    assert answer.status_code == 409 and answer.get_json()["type"].endswith("game-over")


def test_a_table_of_bots_is_ended_as_no_humans_after_the_silence_limit(request, tmp_path):
    app = make_app(tmp_path, "sqlite", request, now=Ticking(), abandon_after=60.0)
    api, svc = Api(app.test_client()), app.extensions["fairdeal"]
    gid = bots_table(api)
    run_out(svc, gid)
    t = verified(api, gid, "no-humans")
    assert 0 < len(t["records"]) < 100 and t["end"]["result"] is None


def test_a_table_of_bots_that_ends_in_time_is_finished(request, tmp_path, clock):
    # the control: the silence limit is what ends the table above, not its having bots only
    app = make_app(tmp_path, "sqlite", request, now=clock, abandon_after=60.0)
    api, svc = Api(app.test_client()), app.extensions["fairdeal"]
    gid = bots_table(api)
    run_out(svc, gid)
    verified(api, gid, "finished")


def test_a_seat_whose_player_left_is_stood_in_for_at_every_kind_and_never_timed_out_where_its_clock_is_off(
    request, tmp_path, clock
):
    # {"card": null, "other": 30}: nobody may play a card by timeout for the seat that left; the table's bot
    # stands in for it (issue 24: "stand-in", the default on_leave), at both kinds of decision
    app = make_app(tmp_path, "sqlite", request, now=clock)
    api = Api(app.test_client())
    a, b = api.player(), api.player()
    t = api.table(a, rule_set="spades", clocks={"card": None, "other": 30})
    api.post(f"/tables/{t['id']}/join", b, json={"seat": 2})
    api.start(a, t["id"])
    api.post(f"/tables/{t['id']}/leave", b)
    for _ in range(400):
        v = api.view(a, t["id"])
        if v["status"] == "over":
            break
        assert v["your_turn"]
        assert api.move(a, t["id"], v["seq"], v["legal_moves"][0]).status_code == 201
    transcript = verified(api, t["id"], "finished")
    mine = [r for r in transcript["records"] if r["seat"] == 2]
    assert mine and all(r["by"] == "stand-in" for r in mine)
    assert {r["move"]["kind"] for r in mine} >= {"play"}


def test_a_new_twenty_down_table_commits_to_the_rules_version_that_ends_every_game(request, tmp_path, clock):
    app = make_app(tmp_path, "sqlite", request, now=clock)
    api = Api(app.test_client())
    p = api.player()
    gid = api.table(p, rule_set="twenty-down")["id"]
    assert api.get(f"/games/{gid}/transcript").get_json()["transcript"]["commit"]["rules"]["version"] == 2
