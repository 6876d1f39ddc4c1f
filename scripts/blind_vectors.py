"""Prints the test vectors of docs/blind.md ("fairdeal-blind/1") as JSON, from the reference code:

    python scripts/blind_vectors.py > tests/vectors/blind.json

tests/blind/test_vectors.py checks that the file is what this prints and re-derives every value from the
primitives (hashlib, hmac and cryptography used directly, not fairdeal.core.blind); the browser's code checks the
same file in Chromium. Everything is fixed: the seats' secrets and identity keys are given below, Ed25519
signatures are deterministic.
"""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey  # noqa: E402

from fairdeal.core.blind import derive, group, release  # noqa: E402
from fairdeal.core.blind.deal import pack_texts, spades_holders  # noqa: E402
from fairdeal.core.blind.local import final_deck, run_deal  # noqa: E402
from fairdeal.core.blind.messages import signed_bytes  # noqa: E402
from fairdeal.core.blind.seat import BlindSeat  # noqa: E402

GAME = "g-blind-0001"
DEAL = 0
DEALER = 3
SECRETS = [bytes([0x10 * (s + 1) + i for i in range(32)]) for s in range(4)]  # made up, never reuse
IDENTITIES = [bytes([0xA0 + s] * 32) for s in range(4)]


def card_points() -> list[dict]:
    out = []
    for c in pack_texts():
        x = group.card_point(c)
        ctr = next(i for i in range(256) if group.card_point(c) == _candidate(c, i))
        out.append({"card": c, "ctr": ctr, "x": x.hex()})
    return out


def _candidate(c: str, ctr: int) -> bytes:
    import hashlib

    return hashlib.sha256(group.CARD_POINT_PREFIX + c.encode() + b"\x00" + bytes([ctr])).digest()


def vectors() -> dict:
    seats = [
        BlindSeat(GAME, s, 4, secret=SECRETS[s], identity=Ed25519PrivateKey.from_private_bytes(IDENTITIES[s]))
        for s in range(4)
    ]
    holders = spades_holders(DEALER)
    commits = [s.commit() for s in seats]
    deal = run_deal(seats, DEAL, holders)
    opens = [seats[holders[j]].open(DEAL, j) for j in (0, 1, 51)]
    reveals = [s.reveal() for s in seats]
    p0 = group.card_point("2C")
    k = derive.shuffle_scalar(SECRETS[0], DEAL)
    shared = release.shared_secret(derive.box_scalar(SECRETS[0]), derive.box_key(SECRETS[1]))
    return {
        "protocol": "fairdeal-blind/1",
        "n": hex(group.N),
        "g_x": group.G.hex(),
        "card_points": card_points(),
        "mul": [
            {"k": group.scalar_hex(k), "x": p0.hex(), "out": group.mul(k, p0).hex()},
            {"k": group.scalar_hex(group.N - 1), "x": p0.hex(), "out": group.mul(group.N - 1, p0).hex()},
            {"k": group.scalar_hex(2), "x": group.G.hex(), "out": group.mul(2, group.G).hex()},
        ],
        "seats": [
            {
                "seat": s,
                "secret": SECRETS[s].hex(),
                "identity": IDENTITIES[s].hex(),
                "sign_key": seats[s].sign_key,
                "commitment": derive.commitment(SECRETS[s]),
                "box_scalar": group.scalar_hex(derive.box_scalar(SECRETS[s])),
                "box_key": derive.box_key(SECRETS[s]).hex(),
                "shuffle_scalar": group.scalar_hex(derive.shuffle_scalar(SECRETS[s], DEAL)),
                "permutation": derive.permutation(SECRETS[s], DEAL, 52),
                "lock_scalars": [group.scalar_hex(derive.lock_scalar(SECRETS[s], DEAL, j)) for j in range(52)],
                "cards": [seats[s].cards[(DEAL, j)] for j in range(52) if holders[j] == s],
            }
            for s in range(4)
        ],
        "release_example": {
            "sender": 0,
            "holder": 1,
            "deal": DEAL,
            "position": 4,
            "shared": shared.hex(),
            "pad": release.pad(shared, GAME, DEAL, 0, 1, 4).hex(),
        },
        "game": GAME,
        "deal": DEAL,
        "dealer": DEALER,
        "holders": holders,
        "signed_bytes_of_first_commit": signed_bytes(commits[0]).decode(),
        "messages": commits + deal + opens + reveals,
        "final_deck": final_deck(deal),
        "deck": _deck(seats),
    }


def _deck(seats) -> list[str]:
    return [next(s.cards[(DEAL, j)] for s in seats if (DEAL, j) in s.cards) for j in range(52)]


if __name__ == "__main__":
    print(json.dumps(vectors(), indent=1, ensure_ascii=False))
