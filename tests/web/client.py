"""A small HTTP client of the API for the browser tests' other players and checks (standard library only)."""
from __future__ import annotations

import json
import urllib.error
import urllib.request
import uuid


class HttpError(Exception):
    def __init__(self, status: int, body: dict):
        super().__init__(f"{status}: {body.get('detail')}")
        self.status, self.body = status, body


class HttpApi:
    def __init__(self, base: str, token: str | None = None):
        self.base, self.token = base, token

    def call(self, method: str, path: str, body=None, headers=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=dict(headers or {}))
        if data is not None:
            req.add_header("Content-Type", "application/json")
        if self.token:
            req.add_header("Authorization", "Bearer " + self.token)
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return json.loads(r.read() or b"null")
        except urllib.error.HTTPError as exc:
            raise HttpError(exc.code, json.loads(exc.read() or b"{}")) from None

    def get(self, path: str):
        return self.call("GET", path)

    def post(self, path: str, body=None, headers=None):
        return self.call("POST", path, body if body is not None else {}, headers)

    def player(self, name: str) -> "HttpApi":
        p = self.post("/players", {"name": name})
        api = HttpApi(self.base, p["token"])
        api.identity = {"id": p["id"], "name": p["name"], "token": p["token"]}
        return api

    # fairdeal/2: sit down with a commitment to a client seed, reveal it when the table starts
    def open_table(self, body: dict, seed: str | None = None) -> dict:
        table = self.post("/tables", body)
        if seed is not None:
            self.commit(table["id"], seed)
        return table

    def commit(self, table_id: str, seed: str, seat: int | None = None) -> dict:
        from fairdeal.verifier import fairness
        self.seed, self.nonce = seed, fairness.new_nonce()
        body = {"client_seed_commitment": fairness.client_seed_commitment(table_id, seed, self.nonce)}
        if seat is not None:
            body["seat"] = seat
        return self.post(f"/tables/{table_id}/join", body)

    def reveal(self, table_id: str) -> dict:
        return self.post(f"/tables/{table_id}/reveal", {"client_seed": self.seed, "nonce": self.nonce})

    def move(self, game_id: str, seq: int, move: dict):
        return self.post(f"/games/{game_id}/moves", {"seq": seq, "move": move},
                         {"Idempotency-Key": uuid.uuid4().hex})

    def play_suggested(self, game_id: str) -> bool:
        """Make this player's move if it is their turn (the suggestion, else the first legal move)."""
        g = self.get(f"/games/{game_id}")
        if not g["your_turn"]:
            return False
        move = g["suggested"] if g["suggested"] in g["legal_moves"] else g["legal_moves"][0]
        self.move(game_id, g["seq"], move)
        return True
