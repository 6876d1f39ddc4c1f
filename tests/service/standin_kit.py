"""Two humans at a Spades table, played move by move through the API test client (the stand-in tests)."""

from __future__ import annotations

from tests.service.client import Api


def two_humans(api: Api, **table):
    host, guest = api.player(), api.player()
    t = api.table(host, rule_set="spades", **table)
    assert api.post(f"/tables/{t['id']}/join", guest, json={"seat": 2}).status_code == 200
    api.start(host, t["id"])
    return host, guest, t["id"]


def play_until(api, players, gid, done, limit=400):
    """Each human plays its first legal move in turn until done(view of players[0]) or the game ends."""
    for _ in range(limit):
        v = api.view(players[0], gid)
        if done(v) or v["status"] == "over":
            return v
        for p in players:
            w = api.view(p, gid)
            if w["your_turn"]:
                assert api.move(p, gid, w["seq"], w["legal_moves"][0]).status_code == 201
                break
        else:
            raise AssertionError("nobody's turn, and the game is not over")
    raise AssertionError("the condition never came")
