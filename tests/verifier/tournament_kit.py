"""Tournaments for the tournament tests: played by the policies (pure, so the same every run) and tampered with
the way a dishonest organiser holding the signing key would (re-signing what it changes)."""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

from fairdeal.core.keys import private_key_from_hex, public_key_text
from fairdeal.core.tournament.play import play_tournament
from fairdeal.core.tournament.records import transcript_hash
from fairdeal.core.writer import sign_record

KEY = private_key_from_hex("c3" * 32)
PUBLIC = public_key_text(KEY)
SERVER_SEED = bytes(range(32))


def entries(n: int, size: int) -> list[dict[str, Any]]:
    """n entries of `size` members; the odd ones bots (no client seed), the even ones with a client seed."""
    return [
        {
            "name": f"entry {i}",
            "members": [f"p{i}.{m}" for m in range(size)],
            "bot": i % 2 == 1,
            "client_seed": None if i % 2 else f"seed of entry {i}",
        }
        for i in range(n)
    ]


@cache
def _played(rule_set: str, players: int, fmt: str, rounds: int, n: int, size: int) -> dict:
    return play_tournament(
        KEY,
        SERVER_SEED,
        tournament_id=f"T-{rule_set}-{fmt}",
        rule_set=rule_set,
        players=players,
        fmt=fmt,
        rounds=rounds,
        entries=entries(n, size),
    )


def tournament(
    rule_set: str = "spades", players: int = 4, fmt: str = "swiss", rounds: int = 2, n: int = 5, size: int = 2
) -> dict:
    """A fresh copy of a played tournament's export (the tests change their copies)."""
    return copy.deepcopy(_played(rule_set, players, fmt, rounds, n, size))


def resign_round(export: dict, index: int) -> dict:
    """Re-sign round `index`'s records after a change, naming its games' new hashes in the result."""
    rnd = export["rounds"][index]
    rnd["result"]["games"] = [
        {"table": t, "game_id": g["commit"]["game_id"], "transcript_hash": transcript_hash(g)}
        for t, g in enumerate(rnd["games"])
    ]
    rnd["round_signature"] = sign_record(KEY, rnd["round"])
    rnd["result_signature"] = sign_record(KEY, rnd["result"])
    return export


def resign_end(export: dict) -> dict:
    export["end_signature"] = sign_record(KEY, export["end"])
    return export
