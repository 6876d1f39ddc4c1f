"""Partners in a live tournament (docs/tournaments.md, "Partners"): the registrant of a team entry invites another
player to a member place, who takes it before the start and plays that member's seats through the game API; a
place nobody took stays the stand-in's. Each refusal is a problem and changes nothing."""

from fairdeal.core.tournament.check import CHECKS, verify_tournament
from tests.service.client import Api, suggested_or_first
from tests.waiting import wait_for


def _spades(api, org, alice):
    tid = api.post("/tournaments", org, json={"rule_set": "spades", "rounds": 1}).get_json()["id"]
    body = {"name": "Pair", "members": ["alice", "bob"]}
    entry = api.post(f"/tournaments/{tid}/entries", alice, json=body).get_json()["you"]["entry"]
    return tid, entry


def test_two_partners_play_their_own_seats_and_the_export_verifies(app):
    from fairdeal.service.sweeper import sweep_once

    api = Api(app.test_client())
    org, alice, bob = api.player(), api.player(), api.player()
    tid, entry = _spades(api, org, alice)
    inv = api.post(f"/tournaments/{tid}/entries/{entry}/members/1/invite", alice)
    assert inv.status_code == 201 and inv.get_json()["name"] == "bob", inv.get_json()
    took = api.post(
        f"/tournaments/{tid}/entries/{entry}/members/1/take", bob, json={"invite": inv.get_json()["invite"]}
    )
    assert took.status_code == 200, took.get_json()
    assert "places" not in took.get_json()["entries"][entry]  # the invite is not shown to anyone
    body = {"name": "bots", "members": ["b0n", "b0s"], "bot": True}
    assert api.post(f"/tournaments/{tid}/entries", org, json=body).status_code == 201
    assert api.post(f"/tournaments/{tid}/close", org).status_code == 200
    assert api.post(f"/tournaments/{tid}/start", org).status_code == 200
    assert api.get(f"/tournaments/{tid}/me", bob).get_json()["entries"] == [entry]
    for _ in range(40):
        sweep_once(app.extensions["fairdeal"])
        if api.get(f"/tournaments/{tid}/me", bob).get_json()["next_table"] is not None:
            break
    tables = {
        who: api.get(f"/tournaments/{tid}/me", p).get_json()["next_table"] for who, p in (("a", alice), ("b", bob))
    }
    assert tables["a"]["game_id"] == tables["b"]["game_id"] and tables["a"]["seat"] != tables["b"]["seat"], tables
    gid = tables["a"]["game_id"]
    for _ in range(6000):
        views = [api.view(p, gid) for p in (alice, bob)]
        if views[0]["status"] == "over":
            break
        turn = [(p, v) for p, v in zip((alice, bob), views, strict=True) if v["your_turn"]]
        assert turn, views[0]  # the bots move at once: the game waits only for alice or bob
        p, v = turn[0]
        r = api.move(p, gid, v["seq"], suggested_or_first(v))
        assert r.status_code == 201, r.get_json()

    def over() -> bool:  # the sweeper ends the round and the tournament: on a busy machine that takes a while
        sweep_once(app.extensions["fairdeal"])
        return api.get(f"/tournaments/{tid}").get_json()["status"] == "over"

    wait_for(over, timeout=30, interval=0.1, what="the tournament over")
    export = api.get(f"/tournaments/{tid}/export").get_json()
    report = verify_tournament(export, key=export["tournament"]["key"])
    assert {c: s for c, s, _ in report.checks} == {**{c: "pass" for c in CHECKS}, "tournament-log": "pass"}
    game = next(g for rnd in export["rounds"] for g in rnd["games"] if g["commit"]["game_id"] == gid)
    seats = {s["name"]: s["seat"] for s in game["start"]["seats"]}
    by = {(r["seat"], r["by"]) for r in game["records"] if "by" in r}
    assert (seats["alice"], "player") in by and (seats["bob"], "player") in by
    assert not any(seat in (seats["alice"], seats["bob"]) and how != "player" for seat, how in by), by


def _problem(r, status, code):
    assert r.status_code == status and r.get_json()["type"].endswith(code), (r.status_code, r.get_json())


def test_member_places_are_refused_with_a_problem_and_nothing_changes(app):
    api = Api(app.test_client())
    org, alice, bob, carol = api.player(), api.player(), api.player(), api.player()
    tid, entry = _spades(api, org, alice)
    base = f"/tournaments/{tid}/entries/{entry}/members"
    _problem(api.post(f"{base}/1/invite", bob), 403, "not-your-entry")  # the registrant is not forced
    _problem(api.post(f"{base}/0/invite", alice), 422, "bad-member")  # the registrant's own place
    _problem(api.post(f"{base}/2/invite", alice), 422, "bad-member")
    _problem(api.post(f"/tournaments/{tid}/entries/9/members/1/invite", alice), 404, "not-found")
    _problem(api.post(f"{base}/1/take", bob, json={"invite": "0" * 32}), 403, "bad-invite")  # none made yet
    code = api.post(f"{base}/1/invite", alice).get_json()["invite"]
    before = api.get(f"/tournaments/{tid}").get_json()
    _problem(api.post(f"{base}/1/take", bob, json={"invite": "0" * 32}), 403, "bad-invite")
    _problem(api.post(f"{base}/1/take", alice, json={"invite": code}), 409, "already-entered")  # two places
    assert api.get(f"/tournaments/{tid}").get_json() == before
    assert api.post(f"{base}/1/take", bob, json={"invite": code}).status_code == 200
    _problem(api.post(f"{base}/1/take", carol, json={"invite": code}), 409, "member-taken")  # taken once
    _problem(api.post(f"{base}/1/invite", alice), 409, "member-taken")
    body = {"name": "Bob's", "members": ["bob2", "bob3"]}
    _problem(api.post(f"/tournaments/{tid}/entries", bob, json=body), 409, "already-entered")
    other = api.post(f"/tournaments/{tid}/entries", carol, json={"name": "C", "members": ["c1", "c2"]}).get_json()
    code2 = api.post(f"/tournaments/{tid}/entries/{other['you']['entry']}/members/1/invite", carol).get_json()
    _problem(
        api.post(f"/tournaments/{tid}/entries/1/members/1/take", bob, json={"invite": code2["invite"]}),
        409,
        "already-entered",
    )
    assert api.post(f"/tournaments/{tid}/close", org).status_code == 200
    assert api.post(f"/tournaments/{tid}/start", org).status_code == 200
    _problem(api.post(f"/tournaments/{tid}/entries/1/members/1/invite", carol), 409, "tournament-started")
    _problem(
        api.post(f"/tournaments/{tid}/entries/1/members/1/take", org, json={"invite": code2["invite"]}),
        409,
        "tournament-started",
    )
