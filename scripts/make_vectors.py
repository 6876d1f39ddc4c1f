"""Prints the test-vector blocks of docs/fairness.md and docs/transcript.md from the reference code.

    python scripts/make_vectors.py fairness      # the fairdeal/2 blocks of docs/fairness.md
    python scripts/make_vectors.py fairness-1    # its "fairdeal/1" section's blocks
    python scripts/make_vectors.py transcript    # the fairdeal/2 blocks of docs/transcript.md
    python scripts/make_vectors.py transcript-1  # its "fairdeal/1" section's block
    python scripts/make_vectors.py move-forms    # its table of each move kind's one form (from MOVE_FORMS)

tests/verifier/test_vectors.py parses the blocks out of the documents and checks the code (and an independent
re-implementation written from the documents) against every one, so a change of the protocol that is not
written into the documents fails the tests. The fairdeal/1 blocks never change: they are what fairdeal/1 is.
Regenerate the others only together with a new protocol version.
"""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from fairdeal.core import fairness, keys, writer  # noqa: E402
from fairdeal.core.canonical import canonical_json  # noqa: E402
from fairdeal.core.cards import PACK_32, PACK_52, cards_from_str, cards_to_str  # noqa: E402
from fairdeal.core.fairness import DerivedRng, SeedChance, derive_bytes, record_salt, shuffle  # noqa: E402
from fairdeal.core.transcript import record_hash  # noqa: E402

SERVER_SEED = bytes(range(32))
GAME_ID = "g-2026-0001"
RULES = {"id": "spades", "players": 4, "settings": {}, "version": 1}
DEAL_LAYOUT = "spades-4"
CLIENT_SEEDS = ["alice's lucky seed", None, 'Bob says "hi" \\o/', None]
NONCES = [bytes(range(32, 64)).hex(), None, bytes(range(64, 96)).hex(), None]  # 32 bytes each, as a client makes
NAMES = ["alice", "Bot 1", "bob", "carol"]
PRIVATE_KEY_HEX = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"  # RFC 8032, test 1
TIMES = {
    "created": "2026-11-29T17:00:00Z",
    "seated": "2026-11-29T17:00:50Z",
    "deadline": "2026-11-29T17:01:20Z",
    "started": "2026-11-29T17:01:00Z",
    "ended": "2026-11-29T17:30:00Z",
}


def _commitment_vector(protocol: str) -> dict:
    return {
        "vector": "commitment",
        "protocol": protocol,
        "server_seed": SERVER_SEED.hex(),
        "game_id": GAME_ID,
        "rules": RULES,
        "preimage": canonical_json(
            {
                "type": "commitment",
                "protocol": protocol,
                "game_id": GAME_ID,
                "rules": RULES,
                "server_seed": SERVER_SEED.hex(),
            }
        ).decode(),
        "commitment": fairness.commitment(SERVER_SEED, GAME_ID, RULES, protocol),
    }


def _game_seed_vectors(protocol: str) -> list[dict]:
    return [
        {
            "vector": "game-seed",
            "protocol": protocol,
            "server_seed": SERVER_SEED.hex(),
            "client_seeds": seeds,
            "message": canonical_json({"type": "game-seed", "protocol": protocol, "client_seeds": seeds}).decode(),
            "game_seed": fairness.game_seed(SERVER_SEED, seeds, protocol).hex(),
        }
        for seeds in (CLIENT_SEEDS, [None, None, None, None])
    ]


def fairness_vectors() -> list[dict]:
    """fairdeal/2: packs, commitment, client-seed commitments, game seeds, and the derivation from the game seed."""
    gs = fairness.game_seed(SERVER_SEED, CLIENT_SEEDS)
    out: list[dict] = [
        {"vector": "pack", "name": "PACK_52", "cards": cards_to_str(PACK_52)},
        {"vector": "pack", "name": "PACK_32", "cards": cards_to_str(PACK_32)},
        _commitment_vector("fairdeal/2"),
    ]
    for seed, nonce in zip(CLIENT_SEEDS, NONCES, strict=True):
        if seed is None:
            continue
        preimage = {
            "type": "client-seed",
            "protocol": "fairdeal/2",
            "game_id": GAME_ID,
            "client_seed": seed,
            "nonce": nonce,
        }
        out.append(
            {
                "vector": "client-seed-commitment",
                "protocol": "fairdeal/2",
                "game_id": GAME_ID,
                "client_seed": seed,
                "nonce": nonce,
                "preimage": canonical_json(preimage).decode(),
                "client_seed_commitment": fairness.client_seed_commitment(GAME_ID, seed, nonce),
            }
        )
    out += _game_seed_vectors("fairdeal/2")
    out.append(
        {
            "vector": "stream",
            "game_seed": gs.hex(),
            "label": "deal/0",
            "block_0_message_hex": (b"deal/0\x00" + (0).to_bytes(4, "big")).hex(),
            "block_1_message_hex": (b"deal/0\x00" + (1).to_bytes(4, "big")).hex(),
            "first_80_bytes_hex": derive_bytes(gs, "deal/0", 80).hex(),
        }
    )
    for label, n in (("bot/1", 52), ("bot/2", 3), ("bot/3", 1000), ("bot/4", 2**40 + 1)):
        rng = DerivedRng(gs, label)
        out.append(
            {
                "vector": "randbelow",
                "game_seed": gs.hex(),
                "label": label,
                "n": n,
                "values": [rng.randbelow(n) for _ in range(10)],
            }
        )
    for label, pack_name, pack in (("deal/0", "PACK_52", PACK_52), ("deal/1", "PACK_32", PACK_32)):
        out.append(
            {
                "vector": "shuffle",
                "game_seed": gs.hex(),
                "label": label,
                "pack": pack_name,
                "deck": cards_to_str(shuffle(gs, label, pack)),
            }
        )
    chance = SeedChance(gs)
    thrown = cards_from_str("KS 2C 10H AH 5D 9C")
    out.append(
        {
            "vector": "reshuffle",
            "game_seed": gs.hex(),
            "hand": 2,
            "round": 1,
            "cards": cards_to_str(thrown),
            "label": "reshuffle/2/1",
            "result": cards_to_str(chance.reshuffle(2, 1, thrown)),
        }
    )
    for players in (2, 3, 4):
        out.append(
            {
                "vector": "first-dealer",
                "game_seed": gs.hex(),
                "players": players,
                "first_dealer": chance.first_dealer(players),
            }
        )
    return out


def fairness_v1_vectors() -> list[dict]:
    """fairdeal/1: what differs (the protocol text in the commitment's and the game seed's preimage)."""
    return [_commitment_vector("fairdeal/1"), *_game_seed_vectors("fairdeal/1")]


# ------------------------------------------------------------------------------------------ transcripts


def _key():
    return keys.private_key_from_hex(PRIVATE_KEY_HEX)


def _seated() -> dict:
    """The example table's signed commit and seating records (fairdeal/2)."""
    key = _key()
    commit = writer.make_commit(
        GAME_ID,
        RULES,
        fairness.commitment(SERVER_SEED, GAME_ID, RULES),
        keys.public_key_text(key),
        TIMES["created"],
        deal_layout=DEAL_LAYOUT,
    )
    t = writer.new_transcript(key, commit)
    writer.add_seating(key, t, writer.make_seating(commit, _seats(), TIMES["deadline"], TIMES["seated"]))
    return t


def _seats() -> list[dict]:
    out = []
    for i, (name, seed, nonce) in enumerate(zip(NAMES, CLIENT_SEEDS, NONCES, strict=True)):
        commitment = fairness.client_seed_commitment(GAME_ID, seed, nonce) if seed else None
        out.append(
            {
                "seat": i,
                "name": name,
                "bot": i == 1,
                "client_seed_commitment": commitment,
                "client_seed": seed,
                "nonce": nonce,
            }
        )
    return out


def example_transcript() -> tuple[dict, list[str]]:
    """fairdeal/2: a Spades table whose two committed seats revealed; two moves (a human bids 3, a bot its policy's
    bid), then the game is abandoned."""
    from fairdeal.core.games.base import Move
    from fairdeal.core.replay import LiveGame

    key = _key()
    t = _seated()
    writer.add_start(
        key, t, writer.make_start(t["commit"], _seats(), {"play": 25, "decide": 30}, TIMES["started"], t["seating"])
    )
    live = LiveGame(t["start"], fairness.game_seed(SERVER_SEED, CLIENT_SEEDS))
    receipts = []
    for i in range(2):
        seat = live.state.to_move
        move, by = (live.bot_move(seat), "bot") if seat in live.bot_seats else (Move.bid(3 + i), "player")
        record = live.apply(seat, move, by, f"2026-11-29T17:01:{10 + i:02d}Z")
        t["records"].append(record)
        receipts.append(record_hash(record))
    writer.finish(key, t, "abandoned", SERVER_SEED, None, TIMES["ended"], deals=live.state.deals)
    return t, receipts


def aborted_transcript() -> dict:
    """fairdeal/2: the same table, but bob (seat 2) does not reveal by the deadline: the table is cancelled."""
    t = _seated()
    reveal = {"seat": 0, "client_seed": CLIENT_SEEDS[0], "nonce": NONCES[0]}
    return writer.finish(_key(), t, "not-revealed", SERVER_SEED, None, "2026-11-29T17:01:20Z", reveals=[reveal])


def _hands(game_seed: bytes, dealer: int) -> list[list[str]]:
    """Deal 0's hands by the deal layout spades-4 (docs/rules/spades.md): deck index i to seat (D + 1 + i) mod 4."""
    deck = cards_to_str(shuffle(game_seed, "deal/0", PACK_52))
    return [[deck[i] for i in range(52) if (dealer + 1 + i) % 4 == seat] for seat in range(4)]


def transcript_vectors() -> list[dict]:
    key = _key()
    pub = keys.public_key_text(key)
    t, receipts = example_transcript()
    gs = fairness.game_seed(SERVER_SEED, CLIENT_SEEDS)
    values = [
        {"b": [1, True, None], "a": "x"},
        {"text": "caf\u00e9 \u20ac \U0001f0a1", "ctrl": 'tab\there\nline \u0001 "q" \\ /', "del": "\u007f"},
        {"big": 9007199254740991, "neg": -42, "empty": {}, "list": []},
        {"\u00e9": 1, "z": 2, "A": 3, "a": 4, "aa": 5, "a\u0000": 6},
    ]
    out: list[dict] = [
        {"vector": "canonical-json", "value": v, "canonical": canonical_json(v).decode()} for v in values
    ]
    out.append({"vector": "canonical-json-rejects", "values": [1.5, 1e3, 9007199254740992, -9007199254740992]})
    move = t["records"][0]
    out.append(
        {"vector": "record-hash", "record": move, "canonical": canonical_json(move).decode(), "hash": record_hash(move)}
    )
    message = canonical_json(t["commit"])
    out.append(
        {
            "vector": "ed25519",
            "private_key_hex": PRIVATE_KEY_HEX,
            "public_key_text": pub,
            "public_key_hex": keys.load_public_key(pub).public_bytes_raw().hex(),
            "key_id": keys.key_id(pub),
            "message": message.decode(),
            "signature": keys.sign(key, message),
        }
    )
    dealer = t["end"]["deals"][0]["dealer"]
    out.append(
        {
            "vector": "transcript",
            "protocol": "fairdeal/2",
            "public_key_text": pub,
            "game_seed": gs.hex(),
            "receipts": receipts,
            "hands": _hands(gs, dealer),
            "transcript": t,
        }
    )
    out.append(
        {
            "vector": "transcript",
            "protocol": "fairdeal/2",
            "public_key_text": pub,
            "game_seed": None,
            "receipts": [],
            "transcript": aborted_transcript(),
        }
    )
    return out


def example_transcript_v1() -> tuple[dict, list[str]]:
    """fairdeal/1: the same Spades table with the seeds in clear (no seating, no deals in the end)."""
    key = _key()
    protocol = "fairdeal/1"
    commit = writer.make_commit(
        GAME_ID,
        RULES,
        fairness.commitment(SERVER_SEED, GAME_ID, RULES, protocol),
        keys.public_key_text(key),
        TIMES["created"],
        protocol=protocol,
    )
    t = writer.new_transcript(key, commit)
    seats = [
        writer.make_seat(0, "alice", False, CLIENT_SEEDS[0]),
        writer.make_seat(1, "Bot 1", True),
        writer.make_seat(2, "bob", False, CLIENT_SEEDS[2]),
        writer.make_seat(3, "carol", False),
    ]
    writer.add_start(key, t, writer.make_start(commit, seats, {"play": 25, "decide": 30}, TIMES["started"]))
    gs = fairness.game_seed(SERVER_SEED, CLIENT_SEEDS, protocol)
    dealer = SeedChance(gs).first_dealer(4)
    receipts = []
    for i, bid in enumerate((3, 4)):
        _, r = writer.append_move(
            t,
            (dealer + 1 + i) % 4,
            "player",
            {"kind": "bid", "value": bid},
            f"2026-11-29T17:01:{10 + i:02d}Z",
            salt=record_salt(gs, i + 1),
        )
        receipts.append(r)
    writer.finish(key, t, "abandoned", SERVER_SEED, None, TIMES["ended"])
    return t, receipts


def transcript_v1_vectors() -> list[dict]:
    t, receipts = example_transcript_v1()
    return [
        {
            "vector": "transcript",
            "protocol": "fairdeal/1",
            "public_key_text": keys.public_key_text(_key()),
            "game_seed": fairness.game_seed(SERVER_SEED, CLIENT_SEEDS, "fairdeal/1").hex(),
            "receipts": receipts,
            "transcript": t,
        }
    ]


def move_forms_table() -> str:
    """docs/transcript.md's table of every move kind's one form, from the engine's MOVE_FORMS (the one definition)."""
    from fairdeal.core.games.base import MOVE_FORMS

    rows = ["| kind | its one form | what it is |", "|---|---|---|"]
    for kind, form in MOVE_FORMS.items():
        rows.append(f"| `{kind}` | `{form.form}` | {form.meaning} |")
    return "\n".join(rows)


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


SETS = {
    "fairness": fairness_vectors,
    "fairness-1": fairness_v1_vectors,
    "transcript": transcript_vectors,
    "transcript-1": transcript_v1_vectors,
}

if __name__ == "__main__":
    which = sys.argv[1] if len(sys.argv) > 1 else ""
    if which == "move-forms":
        print(move_forms_table())
    elif which in SETS:
        print(blocks(SETS[which]()))
    else:
        raise SystemExit(__doc__)
