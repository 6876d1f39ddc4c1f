"""A small scripted client over the Flask test client (or any object with .get/.post returning JSON)."""
from __future__ import annotations

import itertools
import uuid

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

    def view(self, p: dict | None, gid: str) -> dict:
        r = self.get(f"/games/{gid}", p)
        assert r.status_code == 200, r.get_json()
        return r.get_json()

    def move(self, p: dict, gid: str, seq: int, move: dict, key: str | None = None):
        return self.post(f"/games/{gid}/moves", p, json={"seq": seq, "move": move},
                         headers={"Idempotency-Key": key or uuid.uuid4().hex})


def play_to_end(api: Api, gid: str, players: list[dict], choose=None, max_moves: int = 5000,
                on_view=None, receipts: dict | None = None) -> dict:
    """Every human seat plays its first legal move (or `choose(view)`) until the game ends."""
    for _ in range(max_moves):
        views = [api.view(p, gid) for p in players]
        if on_view:
            for p, v in zip(players, views):
                on_view(p, v)
        if views[0]["status"] == "over":
            return views[0]
        mover = [(p, v) for p, v in zip(players, views) if v["your_turn"]]
        assert mover, "no human is to move, yet the game waits"
        p, v = mover[0]
        move = choose(v) if choose else v["legal_moves"][0]
        r = api.move(p, gid, v["seq"], move)
        assert r.status_code == 201, r.get_json()
        if receipts is not None:
            receipts[r.get_json()["seq"]] = r.get_json()["receipt"]
    raise AssertionError("the game did not end")
