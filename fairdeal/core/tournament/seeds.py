"""The tournament's randomness (docs/tournaments.md, "Seeds"): commitment, entry commitments, tournament seed,
its labelled streams and the board seeds. The streams and randbelow are fairdeal/2's (fairness.py), keyed by the
tournament seed instead of a game seed."""

from __future__ import annotations

import hmac
from collections.abc import Mapping, Sequence
from typing import Any

from fairdeal.core.canonical import canonical_json, sha256_hex
from fairdeal.core.fairness import (
    SEED_BYTES,
    DerivedRng,
    derive_bytes,
    is_hex64,
    shuffle,
    validate_client_seed,
    validate_nonce,
)

PROTOCOL = "fairdeal-tournament/1"
FORMATS = ("swiss", "round-robin")


def _seed(server_seed: Any) -> bytes:
    if not isinstance(server_seed, (bytes, bytearray)) or len(server_seed) != SEED_BYTES:
        raise ValueError(f"A seed is {SEED_BYTES} bytes.")
    return bytes(server_seed)


def tournament_commitment(
    server_seed: bytes, tournament_id: str, fmt: str, rules: Mapping[str, Any], rounds: int
) -> str:
    """What the service publishes (signed, and a transparency-log leaf) before any entry is seated."""
    if fmt not in FORMATS:
        raise ValueError(f"The formats are {', '.join(FORMATS)}, not {fmt!r}.")
    payload = {
        "type": "tournament-commitment",
        "protocol": PROTOCOL,
        "tournament_id": tournament_id,
        "format": fmt,
        "rules": dict(rules),
        "rounds": rounds,
        "server_seed": _seed(server_seed).hex(),
    }
    return sha256_hex(canonical_json(payload))


def entry_commitment(tournament_id: str, client_seed: str, nonce: str) -> str:
    """An entry's commitment to its client seed when it registers (its own type: never a game's client-seed
    commitment, even for a tournament id that is also some game's id)."""
    payload = {
        "type": "tournament-client-seed",
        "protocol": PROTOCOL,
        "tournament_id": tournament_id,
        "client_seed": validate_client_seed(client_seed),
        "nonce": validate_nonce(nonce),
    }
    return sha256_hex(canonical_json(payload))


def tournament_seed(server_seed: bytes, tournament_id: str, client_seeds: Sequence[str | None]) -> bytes:
    """HMAC-SHA256(server seed, canonical_json of every registered entry's client seed in registration order)."""
    seeds = [None if s is None else validate_client_seed(s) for s in client_seeds]
    msg = canonical_json(
        {"type": "tournament-seed", "protocol": PROTOCOL, "tournament_id": tournament_id, "client_seeds": seeds}
    )
    return hmac.digest(_seed(server_seed), msg, "sha256")


def seeded_order(tseed: bytes, entries: int) -> list[int]:
    """The entries' seeded order: a Fisher-Yates shuffle of 0..n-1 under "order". It is round 1's ranking, the
    last tie-break and the round-robin's circle."""
    return shuffle(tseed, "order", list(range(entries)))


def sides_rng(tseed: bytes, round_no: int) -> DerivedRng:
    """The stream that turns each table of round r: which entry takes which side."""
    return DerivedRng(tseed, f"sides/{_count(round_no)}")


def board_seed(tseed: bytes, round_no: int) -> bytes:
    """Round r's board seed: the first 32 bytes of "board/{r}". Every table of the round is dealt from it."""
    return derive_bytes(tseed, f"board/{_count(round_no)}", SEED_BYTES)


def table_server_seed(tseed: bytes, round_no: int, table: int) -> bytes:
    """The server seed of round r's table t's game: the first 32 bytes of "game/{r}/{t}". Derived, not drawn, so
    the organiser cannot choose a table's bot choices (which the game seed drives) once it knows the boards."""
    if type(table) is not int or table < 0:
        raise ValueError(f"A table number is a non-negative integer, not {table!r}.")
    return derive_bytes(tseed, f"game/{_count(round_no)}/{table}", SEED_BYTES)


def board_commitment(board_seed_: bytes, tournament_id: str, round_no: int) -> str:
    """What a table's commit record names, so the board seed cannot change once a table is committed."""
    payload = {
        "type": "board-commitment",
        "protocol": PROTOCOL,
        "tournament_id": tournament_id,
        "round": round_no,
        "board_seed": _seed(board_seed_).hex(),
    }
    return sha256_hex(canonical_json(payload))


def board_commitment_of_record(board: Mapping[str, Any], board_seed_: bytes) -> str | None:
    """board_commitment for a game commit's "board" member (None when its members are not usable)."""
    tid, rnd = board.get("tournament_id"), board.get("round")
    if not isinstance(tid, str) or type(rnd) is not int:
        return None
    return board_commitment(board_seed_, tid, rnd)


def seed_from_hex(text: Any) -> bytes:
    if not is_hex64(text):
        raise ValueError("A seed is written as 64 lowercase hex digits.")
    return bytes.fromhex(text)


def _count(value: Any) -> int:
    if type(value) is not int or value < 1:
        raise ValueError(f"A round number is a positive integer, not {value!r}.")
    return value
