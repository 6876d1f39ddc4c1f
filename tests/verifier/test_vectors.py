"""The test vectors of docs/fairness.md and docs/transcript.md, checked against the reference code and against
an independent re-implementation written from the documents (so document, code and vectors agree three ways)."""
from __future__ import annotations

import hashlib
import hmac
import json

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tests.verifier.vectors import load_vectors, vectors_of
from fairdeal.verifier import keys
from fairdeal.verifier.canonical import canonical_json
from fairdeal.verifier.cards import PACK_32, PACK_52, cards_from_str, cards_to_str
from fairdeal.verifier.fairness import DerivedRng, SeedChance, commitment, derive_bytes, game_seed, shuffle
from fairdeal.verifier.integrity import check_transcript
from fairdeal.verifier.reader import parse_transcript
from fairdeal.verifier.transcript import record_hash

PACKS = {"PACK_52": PACK_52, "PACK_32": PACK_32}


# ------------------------------------------------------- an independent implementation, from the documents

def doc_canonical(value) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def doc_stream(seed: bytes, label: str):
    i = 0
    while True:
        yield from hmac.new(seed, label.encode("ascii") + b"\x00" + i.to_bytes(4, "big"), hashlib.sha256).digest()
        i += 1


def doc_randbelow(stream, n: int) -> int:
    k = 0
    while 256 ** k < n:
        k += 1
    limit = n * (256 ** k // n)
    while True:
        x = int.from_bytes(bytes(next(stream) for _ in range(k)), "big")
        if x < limit:
            return x % n


def doc_shuffle(seed: bytes, label: str, cards: list) -> list:
    deck, stream = list(cards), doc_stream(seed, label)
    for i in range(len(deck) - 1, 0, -1):
        j = doc_randbelow(stream, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def doc_pack(ranks: str) -> list[str]:
    return [r + s for s in "CDHS" for r in ranks.split()]


DOC_PACKS = {"PACK_52": doc_pack("2 3 4 5 6 7 8 9 10 J Q K A"), "PACK_32": doc_pack("7 8 9 10 J Q K A")}


# ------------------------------------------------------------------------------------- the vectors

def test_every_kind_of_vector_is_in_the_documents():
    fair = {v["vector"] for v in load_vectors("fairness.md")}
    assert fair == {"pack", "commitment", "game-seed", "stream", "randbelow", "shuffle", "reshuffle", "first-dealer"}
    trans = {v["vector"] for v in load_vectors("transcript.md")}
    assert trans == {"canonical-json", "canonical-json-rejects", "record-hash", "ed25519", "transcript"}


@pytest.mark.parametrize("v", vectors_of("fairness.md", "pack"), ids=lambda v: v["name"])
def test_pack_order(v):
    assert cards_to_str(PACKS[v["name"]]) == v["cards"] == DOC_PACKS[v["name"]]


@pytest.mark.parametrize("v", vectors_of("fairness.md", "commitment"))
def test_commitment(v):
    seed = bytes.fromhex(v["server_seed"])
    preimage = {"type": "commitment", "protocol": "fairdeal/1", "game_id": v["game_id"], "rules": v["rules"],
                "server_seed": v["server_seed"]}
    assert doc_canonical(preimage).decode() == v["preimage"]
    assert hashlib.sha256(v["preimage"].encode()).hexdigest() == v["commitment"]
    assert commitment(seed, v["game_id"], v["rules"], "fairdeal/1") == v["commitment"]


@pytest.mark.parametrize("v", vectors_of("fairness.md", "game-seed"))
def test_game_seed(v):
    seed = bytes.fromhex(v["server_seed"])
    message = {"type": "game-seed", "protocol": "fairdeal/1", "client_seeds": v["client_seeds"]}
    assert doc_canonical(message).decode() == v["message"]
    assert hmac.new(seed, v["message"].encode(), hashlib.sha256).hexdigest() == v["game_seed"]
    assert game_seed(seed, v["client_seeds"], "fairdeal/1").hex() == v["game_seed"]


@pytest.mark.parametrize("v", vectors_of("fairness.md", "stream"))
def test_stream(v):
    seed = bytes.fromhex(v["game_seed"])
    assert bytes.fromhex(v["block_0_message_hex"]) == v["label"].encode() + b"\x00" + bytes(4)
    block0 = hmac.new(seed, bytes.fromhex(v["block_0_message_hex"]), hashlib.sha256).digest()
    block1 = hmac.new(seed, bytes.fromhex(v["block_1_message_hex"]), hashlib.sha256).digest()
    expected = bytes.fromhex(v["first_80_bytes_hex"])
    assert expected[:64] == block0 + block1
    assert bytes(b for b, _ in zip(doc_stream(seed, v["label"]), range(80))) == expected
    assert derive_bytes(seed, v["label"], 80) == expected
    assert DerivedRng(seed, v["label"]).read(80) == expected


@pytest.mark.parametrize("v", vectors_of("fairness.md", "randbelow"), ids=lambda v: f"n={v['n']}")
def test_randbelow(v):
    seed = bytes.fromhex(v["game_seed"])
    rng, stream = DerivedRng(seed, v["label"]), doc_stream(seed, v["label"])
    assert [rng.randbelow(v["n"]) for _ in v["values"]] == v["values"]
    assert [doc_randbelow(stream, v["n"]) for _ in v["values"]] == v["values"]


@pytest.mark.parametrize("v", vectors_of("fairness.md", "shuffle"), ids=lambda v: v["pack"])
def test_shuffle(v):
    seed = bytes.fromhex(v["game_seed"])
    assert cards_to_str(shuffle(seed, v["label"], PACKS[v["pack"]])) == v["deck"]
    assert doc_shuffle(seed, v["label"], DOC_PACKS[v["pack"]]) == v["deck"]
    hand = int(v["label"].split("/")[1])
    assert cards_to_str(SeedChance(seed).deck(hand, PACKS[v["pack"]])) == v["deck"]


@pytest.mark.parametrize("v", vectors_of("fairness.md", "reshuffle"))
def test_reshuffle(v):
    seed = bytes.fromhex(v["game_seed"])
    assert v["label"] == f"reshuffle/{v['hand']}/{v['round']}"
    ordered = [c for c in DOC_PACKS["PACK_52"] if c in v["cards"]]  # canonical order first
    assert doc_shuffle(seed, v["label"], ordered) == v["result"]
    chance = SeedChance(seed)
    assert cards_to_str(chance.reshuffle(v["hand"], v["round"], cards_from_str(v["cards"]))) == v["result"]


@pytest.mark.parametrize("v", vectors_of("fairness.md", "first-dealer"), ids=lambda v: f"{v['players']}p")
def test_first_dealer(v):
    seed = bytes.fromhex(v["game_seed"])
    assert SeedChance(seed).first_dealer(v["players"]) == v["first_dealer"]
    assert doc_randbelow(doc_stream(seed, "first-dealer"), v["players"]) == v["first_dealer"]


@pytest.mark.parametrize("v", vectors_of("transcript.md", "canonical-json"))
def test_canonical_json(v):
    assert canonical_json(v["value"]) == v["canonical"].encode("utf-8")
    assert json.loads(v["canonical"]) == v["value"]


@pytest.mark.parametrize("value", vectors_of("transcript.md", "canonical-json-rejects")[0]["values"])
def test_canonical_json_rejects(value):
    with pytest.raises(ValueError):
        canonical_json({"n": value})


@pytest.mark.parametrize("v", vectors_of("transcript.md", "record-hash"))
def test_record_hash(v):
    assert canonical_json(v["record"]).decode() == v["canonical"]
    assert hashlib.sha256(v["canonical"].encode()).hexdigest() == v["hash"]
    assert record_hash(v["record"]) == v["hash"]


@pytest.mark.parametrize("v", vectors_of("transcript.md", "ed25519"))
def test_ed25519(v):
    key = keys.private_key_from_hex(v["private_key_hex"])
    raw = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(v["private_key_hex"])).public_key().public_bytes_raw()
    assert raw.hex() == v["public_key_hex"]
    assert v["public_key_text"] == "ed25519:" + keys.b64url(raw)
    assert keys.public_key_text(key) == v["public_key_text"]
    assert keys.key_id(v["public_key_text"]) == hashlib.sha256(raw).hexdigest()[:16] == v["key_id"]
    message = v["message"].encode("utf-8")
    assert keys.sign(key, message) == v["signature"]
    assert keys.verify(v["public_key_text"], message, v["signature"])


@pytest.mark.parametrize("v", vectors_of("transcript.md", "transcript"))
def test_transcript(v):
    t = parse_transcript(v["transcript"])
    assert check_transcript(t, v["public_key_text"]) == []
    assert [record_hash(r) for r in t["records"]] == v["receipts"]
    seeds = [s["client_seed"] for s in t["start"]["seats"]]
    assert game_seed(bytes.fromhex(t["end"]["server_seed"]), seeds, t["protocol"]).hex() == v["game_seed"]
    assert t["end"]["prev"] == v["receipts"][-1]
    ed = vectors_of("transcript.md", "ed25519")[0]
    assert t["commit_signature"] == ed["signature"] and t["commit"]["key"] == ed["public_key_text"]


def test_the_documents_hold_exactly_what_the_vector_script_prints():
    # scripts/make_vectors.py is how the blocks were made; if it drifts from the documents, one of them is stale
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "scripts" / "make_vectors.py"
    spec = importlib.util.spec_from_file_location("make_vectors", path)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    assert script.fairness_vectors() == load_vectors("fairness.md")
    assert script.transcript_vectors() == load_vectors("transcript.md")
