"""Abort records on self-played blind games, for the stall tests (tests/blind/test_stall.py) and the page's
JavaScript port (tests/web/test_browser_blind.py): the key, the seed, a game cut after SHORT moves, whose turn it
is, and a transcript with an abort record signed again."""

from __future__ import annotations

import copy

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from fairdeal.core.blind.hidden import blind_live_game
from fairdeal.core.integrity import game_seed_of
from fairdeal.core.writer import sign_transcript

KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
SEED = bytes(range(32))
SHORT = 60  # moves: the first hand and the bids of the second (the second deal is ready)
AT, DEADLINE = "2026-01-01T00:30:00.00Z", "2026-01-01T00:29:50.00Z"  # within the selfplay's start and end


def hand_lengths(t: dict) -> list[int]:
    """The number of records of each hand, by a replay without the hands."""
    game, out = blind_live_game(t["start"], game_seed_of(t)), []
    for record in t["records"]:
        while len(out) <= game.state.hand_number:
            out.append(0)
        out[game.state.hand_number] += 1
        game.apply_record(record, chain=False, policies=False)
    return out


def to_move(t: dict) -> int:
    game = blind_live_game(t["start"], game_seed_of(t))
    for record in t["records"]:
        game.apply_record(record, chain=False, policies=False)
    return game.state.to_move


def with_abort(t: dict, **abort) -> dict:
    """t with the abort record (after: the messages before the first reveal, unless given), signed again."""
    t = copy.deepcopy(t)
    kinds = [m["type"] for m in t["blind"]["messages"]]
    after = kinds.index("reveal") if "reveal" in kinds else len(kinds)
    t["blind"]["abort"] = {"after": after, "at": AT, "deadline": DEADLINE, **abort}
    t["end"]["reason"] = "aborted"
    t["signature"] = sign_transcript(KEY, t)
    return t
