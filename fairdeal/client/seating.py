"""The player's client seed, commit then reveal (docs/fairness.md, fairdeal/2): a random seed unless the player
names one, a fresh nonce, the commitment sent when the seat is taken, and the reveal once the host starts — but
only after checking that the service signed a seating that holds our commitment unchanged."""

from __future__ import annotations

import secrets

from fairdeal.core import fairness


class Distrust(Exception):
    """The service's answer does not hold what it must (a seating it did not sign): we stop, revealing nothing."""


def new_client_seed() -> str:
    """The seed `fairdeal play` gives when the player names none: 128 random bits."""
    return secrets.token_hex(16)


def commit(c, game_id: str, client_seed: str, seat: int | None = None, blind_commit: dict | None = None) -> dict:
    """Take the seat (or, already seated as the host, give our commitment) with a fresh nonce. Returns
    {"table", "nonce"}: the nonce is kept for the reveal. `blind_commit`: at a dealer-blind table, the seat's
    signed commit (docs/blind.md), sent in the same request."""
    nonce = fairness.new_nonce()
    body: dict = {"client_seed_commitment": fairness.client_seed_commitment(game_id, client_seed, nonce)}
    if seat is not None:
        body["seat"] = seat
    if blind_commit is not None:
        body["blind_commit"] = blind_commit
    table = c.post(f"/tables/{game_id}/join", body)
    return {"table": table, "nonce": nonce}


def check_seating(c, game_id: str, seat: int, commitment: str, key: str | None) -> None:
    """Before revealing: the server has signed the seating, and it holds our commitment unchanged. A seat that
    reveals only after this holds the server's signature on every commitment it revealed against."""
    from fairdeal.core import keys
    from fairdeal.core.canonical import canonical_json

    header = c.get(f"/games/{game_id}/start")
    seating = header.get("seating") or {}
    if key is None or not keys.verify(key, canonical_json(seating), header.get("seating_signature") or ""):
        raise Distrust("the seating record is not signed by the table's key")
    seats = seating.get("seats") or []
    if seat >= len(seats) or seats[seat].get("client_seed_commitment") != commitment:
        raise Distrust("the signed seating does not hold this seat's commitment")


def reveal(c, table: dict, seat: int, client_seed: str, nonce: str) -> dict:
    """Our reveal, when the table waits for it (status "revealing" and our seat not yet revealed)."""
    gid = table["id"]
    if table["status"] != "revealing" or table["seats"][seat].get("revealed"):
        return table
    check_seating(c, gid, seat, fairness.client_seed_commitment(gid, client_seed, nonce), table.get("key"))
    return c.post(f"/tables/{gid}/reveal", {"client_seed": client_seed, "nonce": nonce})
