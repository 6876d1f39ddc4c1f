"""Prints the test-vector blocks of docs/fairness.md and docs/transcript.md from the reference code.

    python scripts/make_vectors.py fairness     # the ```json vectors blocks for docs/fairness.md
    python scripts/make_vectors.py transcript   # ... for docs/transcript.md

tests/verifier/test_vectors.py parses the blocks out of the documents and checks the code (and an independent
re-implementation written from the documents) against every one, so a change of the protocol that is not
written into the documents fails the tests. Regenerate only together with a new protocol version.
"""
from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from fairdeal.verifier import keys  # noqa: E402
from fairdeal.verifier.canonical import canonical_json  # noqa: E402
from fairdeal.verifier.cards import PACK_32, PACK_52, cards_from_str, cards_to_str  # noqa: E402
from fairdeal.verifier.fairness import (DerivedRng, SeedChance, derive_bytes, record_salt,  # noqa: E402
                                        shuffle)
from fairdeal.verifier import fairness  # noqa: E402

PROTOCOL = "fairdeal/1"


def commitment(seed, game_id, rules):
    return fairness.commitment(seed, game_id, rules, PROTOCOL)


def game_seed(seed, seeds):
    return fairness.game_seed(seed, seeds, PROTOCOL)
from fairdeal.verifier import transcript as tr, writer  # noqa: E402

SERVER_SEED = bytes(range(32))
GAME_ID = "g-2026-0001"
RULES = {"id": "spades", "players": 4, "settings": {}, "version": 1}
CLIENT_SEEDS = ["alice's lucky seed", None, 'Bob says "hi" \\o/', None]
PRIVATE_KEY_HEX = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"  # RFC 8032, test 1


def fairness_vectors() -> list[dict]:
    gs = game_seed(SERVER_SEED, CLIENT_SEEDS)
    out: list[dict] = [
        {"vector": "pack", "name": "PACK_52", "cards": cards_to_str(PACK_52)},
        {"vector": "pack", "name": "PACK_32", "cards": cards_to_str(PACK_32)},
        {"vector": "commitment", "server_seed": SERVER_SEED.hex(), "game_id": GAME_ID, "rules": RULES,
         "preimage": canonical_json({"type": "commitment", "protocol": PROTOCOL, "game_id": GAME_ID,
                                     "rules": RULES, "server_seed": SERVER_SEED.hex()}).decode(),
         "commitment": commitment(SERVER_SEED, GAME_ID, RULES)},
    ]
    for seeds in (CLIENT_SEEDS, [None, None, None, None]):
        out.append({"vector": "game-seed", "server_seed": SERVER_SEED.hex(), "client_seeds": seeds,
                    "message": canonical_json({"type": "game-seed", "protocol": PROTOCOL,
                                               "client_seeds": seeds}).decode(),
                    "game_seed": game_seed(SERVER_SEED, seeds).hex()})
    out.append({"vector": "stream", "game_seed": gs.hex(), "label": "deal/0",
                "block_0_message_hex": (b"deal/0\x00" + (0).to_bytes(4, "big")).hex(),
                "block_1_message_hex": (b"deal/0\x00" + (1).to_bytes(4, "big")).hex(),
                "first_80_bytes_hex": derive_bytes(gs, "deal/0", 80).hex()})
    for label, n in (("bot/1", 52), ("bot/2", 3), ("bot/3", 1000), ("bot/4", 2**40 + 1)):
        rng = DerivedRng(gs, label)
        out.append({"vector": "randbelow", "game_seed": gs.hex(), "label": label, "n": n,
                    "values": [rng.randbelow(n) for _ in range(10)]})
    for label, pack_name, pack in (("deal/0", "PACK_52", PACK_52), ("deal/1", "PACK_32", PACK_32)):
        out.append({"vector": "shuffle", "game_seed": gs.hex(), "label": label, "pack": pack_name,
                    "deck": cards_to_str(shuffle(gs, label, pack))})
    chance = SeedChance(gs)
    thrown = cards_from_str("KS 2C 10H AH 5D 9C")
    out.append({"vector": "reshuffle", "game_seed": gs.hex(), "hand": 2, "round": 1,
                "cards": cards_to_str(thrown), "label": "reshuffle/2/1",
                "result": cards_to_str(chance.reshuffle(2, 1, thrown))})
    for players in (2, 3, 4):
        out.append({"vector": "first-dealer", "game_seed": gs.hex(), "players": players,
                    "first_dealer": chance.first_dealer(players)})
    return out


def example_transcript() -> tuple[dict, list[str]]:
    key = keys.private_key_from_hex(PRIVATE_KEY_HEX)
    commit = writer.make_commit(GAME_ID, RULES, commitment(SERVER_SEED, GAME_ID, RULES), keys.public_key_text(key),
                                "2026-11-29T17:00:00Z", protocol=PROTOCOL)
    t = writer.new_transcript(key, commit)
    seats = [writer.make_seat(0, "alice", False, CLIENT_SEEDS[0]), writer.make_seat(1, "Bot 1", True),
             writer.make_seat(2, "bob", False, CLIENT_SEEDS[2]), writer.make_seat(3, "carol", False)]
    writer.add_start(key, t, writer.make_start(commit, seats, {"play": 25, "decide": 30}, "2026-11-29T17:01:00Z"))
    dealer = SeedChance(game_seed(SERVER_SEED, CLIENT_SEEDS)).first_dealer(4)
    receipts = []
    for i, bid in enumerate((3, 4)):
        _, r = writer.append_move(t, (dealer + 1 + i) % 4, "player", {"kind": "bid", "value": bid},
                              f"2026-11-29T17:01:{10 + i:02d}Z",
                              salt=record_salt(game_seed(SERVER_SEED, CLIENT_SEEDS), i + 1))
        receipts.append(r)
    writer.finish(key, t, "abandoned", SERVER_SEED, None, "2026-11-29T17:30:00Z")
    return t, receipts


def transcript_vectors() -> list[dict]:
    key = keys.private_key_from_hex(PRIVATE_KEY_HEX)
    pub = keys.public_key_text(key)
    t, receipts = example_transcript()
    values = [
        {"b": [1, True, None], "a": "x"},
        {"text": "caf\u00e9 \u20ac \U0001F0A1", "ctrl": "tab\there\nline \u0001 \"q\" \\ /", "del": "\u007f"},
        {"big": 9007199254740991, "neg": -42, "empty": {}, "list": []},
        {"\u00e9": 1, "z": 2, "A": 3, "a": 4, "aa": 5, "a\u0000": 6},
    ]
    out: list[dict] = [{"vector": "canonical-json", "value": v, "canonical": canonical_json(v).decode()}
                       for v in values]
    out.append({"vector": "canonical-json-rejects", "values": [1.5, 1e3, 9007199254740992, -9007199254740992]})
    move = t["records"][0]
    out.append({"vector": "record-hash", "record": move, "canonical": canonical_json(move).decode(),
                "hash": tr.record_hash(move)})
    message = canonical_json(t["commit"])
    out.append({"vector": "ed25519", "private_key_hex": PRIVATE_KEY_HEX, "public_key_text": pub,
                "public_key_hex": keys.load_public_key(pub).public_bytes_raw().hex(),
                "key_id": keys.key_id(pub), "message": message.decode(),
                "signature": keys.sign(key, message)})
    out.append({"vector": "transcript", "public_key_text": pub,
                "game_seed": game_seed(SERVER_SEED, CLIENT_SEEDS).hex(),
                "receipts": receipts, "transcript": t})
    return out


def pretty(value, indent: str = "") -> str:
    """JSON with one key per line but lists of plain values on one line; non-ASCII as \\u escapes so that
    every character of a vector is visible in the document."""
    if isinstance(value, dict) and value:
        inner = indent + "  "
        items = [f"{inner}{json.dumps(k)}: {pretty(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value):
        inner = indent + "  "
        return "[\n" + ",\n".join(inner + pretty(v, inner) for v in value) + "\n" + indent + "]"
    return json.dumps(value, separators=(", ", ": "))


def blocks(vectors: list[dict]) -> str:
    return "\n\n".join("```json vectors\n" + pretty(v) + "\n```" for v in vectors)


if __name__ == "__main__":
    which = sys.argv[1] if len(sys.argv) > 1 else ""
    if which not in ("fairness", "transcript"):
        raise SystemExit(__doc__)
    print(blocks(fairness_vectors() if which == "fairness" else transcript_vectors()))
