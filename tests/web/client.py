"""The browser tests' other players and checks talk to the API through fairdeal play's own client
(fairdeal.client.http, fairdeal.client.seating), with what the tests need on top."""

from __future__ import annotations

from fairdeal.client import seating
from fairdeal.client.http import Client


class HttpApi(Client):
    def player(self, name: str) -> HttpApi:
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
        mine = seating.commit(self, table_id, seed, seat)
        self.seed, self.nonce = seed, mine["nonce"]
        return mine["table"]

    def reveal(self, table_id: str) -> dict:
        """Our reveal, after checking the signed seating holds our commitment (as fairdeal play does)."""
        table = self.get(f"/tables/{table_id}")
        return seating.reveal(self, table, table["you"]["seat"], self.seed, self.nonce)

    def play_suggested(self, game_id: str) -> bool:
        """Make this player's move if it is their turn (the suggestion, else the first legal move)."""
        g = self.get(f"/games/{game_id}")
        if not g["your_turn"]:
            return False
        move = g["suggested"] if g["suggested"] in g["legal_moves"] else g["legal_moves"][0]
        self.move(game_id, g["seq"], move)
        return True
