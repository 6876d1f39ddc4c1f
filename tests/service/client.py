"""A small scripted client over the Flask test client (or any object with .get/.post returning JSON)."""

from __future__ import annotations

import itertools
import uuid

from fairdeal.core import fairness

_names = itertools.count()


class Api:
    def __init__(self, client):
        self.c = client

    def player(self, name: str | None = None) -> dict:
        r = self.c.post("/players", json={"name": name or f"p{next(_names)}"})
        assert r.status_code == 201, r.get_json()
        p = r.get_json()
        p["h"] = {"Authorization": "Bearer " + p["token"]}
        return p

    def table(self, p: dict, **body) -> dict:
        r = self.c.post("/tables", json=body, headers=p["h"])
        assert r.status_code == 201, r.get_json()
        return r.get_json()

    def post(self, path: str, p: dict | None = None, json=None, headers=None):
        h = dict(p["h"]) if p else {}
        h.update(headers or {})
        return self.c.post(path, json=json, headers=h)

    def get(self, path: str, p: dict | None = None):
        return self.c.get(path, headers=p["h"] if p else {})

    def start(self, p: dict, tid: str) -> dict:
        r = self.post(f"/tables/{tid}/start", p)
        assert r.status_code == 200, r.get_json()
        return r.get_json()

    def commit(self, p: dict, tid: str, seed: str, seat: int | None = None) -> str:
        """Sit down (or, seated, commit) with a commitment to `seed`; returns the nonce, kept for the reveal."""
        nonce = fairness.new_nonce()
        body = {"client_seed_commitment": fairness.client_seed_commitment(tid, seed, nonce)}
        if seat is not None:
            body["seat"] = seat
        r = self.post(f"/tables/{tid}/join", p, json=body)
        assert r.status_code == 200, r.get_json()
        return nonce

    def reveal(self, p: dict, tid: str, seed: str, nonce: str) -> dict:
        r = self.post(f"/tables/{tid}/reveal", p, json={"client_seed": seed, "nonce": nonce})
        assert r.status_code == 200, r.get_json()
        return r.get_json()

    def start_revealing(self, host: dict, tid: str, reveals: list[tuple[dict, str, str]]) -> dict:
        """The host starts; each (player, seed, nonce) reveals; the table is playing afterwards."""
        table = self.start(host, tid)
        for p, seed, nonce in reveals:
            table = self.reveal(p, tid, seed, nonce)
        assert table["status"] in ("playing", "over"), table
        return table

    def view(self, p: dict | None, gid: str) -> dict:
        r = self.get(f"/games/{gid}", p)
        assert r.status_code == 200, r.get_json()
        return r.get_json()

    def move(self, p: dict, gid: str, seq: int, move: dict, key: str | None = None):
        return self.post(
            f"/games/{gid}/moves",
            p,
            json={"seq": seq, "move": move},
            headers={"Idempotency-Key": key or uuid.uuid4().hex},
        )


def play_to_end(
    api: Api,
    gid: str,
    players: list[dict],
    choose=None,
    max_moves: int = 5000,
    on_view=None,
    receipts: dict | None = None,
) -> dict:
    """Every human seat plays its first legal move (or `choose(view)`) until the game ends."""
    for _ in range(max_moves):
        views = [api.view(p, gid) for p in players]
        if on_view:
            for p, v in zip(players, views, strict=True):
                on_view(p, v)
        if views[0]["status"] == "over":
            return views[0]
        mover = [(p, v) for p, v in zip(players, views, strict=True) if v["your_turn"]]
        assert mover, "no human is to move, yet the game waits"
        p, v = mover[0]
        move = choose(v) if choose else v["legal_moves"][0]
        r = api.move(p, gid, v["seq"], move)
        assert r.status_code == 201, r.get_json()
        if receipts is not None:
            receipts[r.get_json()["seq"]] = r.get_json()["receipt"]
    raise AssertionError("the game did not end")


def suggested_or_first(view: dict) -> dict:
    """The move the view suggests when it is legal, else the first legal one."""
    return view["suggested"] if view["suggested"] in view["legal_moves"] else view["legal_moves"][0]


def finished_game(api: Api, rule_set: str = "spades") -> tuple[dict, dict]:
    """(table, final transcript) of a game one player plays to its end against bots."""
    p = api.player()
    t = api.table(p, rule_set=rule_set)
    api.start(p, t["id"])
    play_to_end(api, t["id"], [p], choose=suggested_or_first)
    return t, api.get(f"/games/{t['id']}/transcript").get_json()
