"""The test vectors of docs/fairness.md and docs/transcript.md, checked against the reference code and against
an independent re-implementation written from the documents (so document, code and vectors agree three ways).
The re-implementation below uses only hashlib, hmac, json and cryptography's Ed25519, as a verifier written in
another language would: it checks the transcript vectors whole (signatures, chain, commitments, reveals, salts,
the first dealer and deal 0's hands) without the reference verifier."""

from __future__ import annotations

import base64
import hashlib
import hmac
import itertools
import json

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from fairdeal.core import keys
from fairdeal.core.canonical import canonical_json
from fairdeal.core.cards import PACK_32, PACK_52, cards_from_str, cards_to_str
from fairdeal.core.checks import verify_transcript
from fairdeal.core.fairness import (
    DerivedRng,
    SeedChance,
    client_seed_commitment,
    commitment,
    derive_bytes,
    game_seed,
    shuffle,
)
from fairdeal.core.integrity import check_transcript
from fairdeal.core.reader import parse_transcript
from fairdeal.core.replay import LiveGame
from fairdeal.core.transcript import record_hash
from tests.verifier.vectors import DOCS, load_vectors, vectors_of

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
    while 256**k < n:
        k += 1
    limit = n * (256**k // n)
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


def doc_sha256_hex(value) -> str:
    return hashlib.sha256(doc_canonical(value)).hexdigest()


def doc_b64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def doc_signed(key_text: str, message: bytes, signature: str) -> bool:
    key = Ed25519PublicKey.from_public_bytes(doc_b64url(key_text[len("ed25519:") :]))
    try:
        key.verify(doc_b64url(signature), message)
        return True
    except InvalidSignature:
        return False


def doc_verify(t: dict, key_text: str) -> dict:
    """A whole transcript checked from transcript.md and fairness.md alone: returns what it found, raises
    AssertionError at the first thing that is wrong. No rules engine: deals are checked where the layout is given."""
    protocol = t["protocol"]
    headers = [
        n for n in (("commit", "seating", "start") if protocol == "fairdeal/2" else ("commit", "start")) if n in t
    ]
    for name in headers:
        assert doc_signed(key_text, doc_canonical(t[name]), t[name + "_signature"]), name
        assert t[name]["key"] == key_text and t[name]["protocol"] == protocol
    body = {k: v for k, v in t.items() if k not in ("signature", "log")}
    assert doc_signed(key_text, doc_canonical(body), t["signature"])
    commit, end = t["commit"], t["end"]
    server_seed = bytes.fromhex(end["server_seed"])
    assert (
        doc_sha256_hex(
            {
                "type": "commitment",
                "protocol": protocol,
                "game_id": commit["game_id"],
                "rules": commit["rules"],
                "server_seed": end["server_seed"],
            }
        )
        == commit["commitment"]
    )
    prev = doc_sha256_hex(t[headers[-1]])
    for i, rec in enumerate(t["records"] + [end], start=1):
        assert rec["seq"] == i and rec["prev"] == prev
        prev = doc_sha256_hex(rec)

    def opens(commitment_, seed, nonce):
        return (
            doc_sha256_hex(
                {
                    "type": "client-seed",
                    "protocol": protocol,
                    "game_id": commit["game_id"],
                    "client_seed": seed,
                    "nonce": nonce,
                }
            )
            == commitment_
        )

    found: dict = {}
    if "start" not in t:
        committed = {
            s["seat"]: s["client_seed_commitment"] for s in t["seating"]["seats"] if s["client_seed_commitment"]
        }
        for r in end["reveals"]:
            assert opens(committed[r["seat"]], r["client_seed"], r["nonce"])
        assert end["unrevealed"] == sorted(set(committed) - {r["seat"] for r in end["reveals"]})
        assert end["deals"] == [] and end["result"] is None
        found["unrevealed"] = end["unrevealed"]
        return found
    seats = t["start"]["seats"]
    if protocol == "fairdeal/2":
        assert [{k: s[k] for k in ("seat", "name", "bot", "client_seed_commitment")} for s in seats] == t["seating"][
            "seats"
        ]
        for s in seats:
            if s["client_seed_commitment"] is None:
                assert s["client_seed"] is None and s["nonce"] is None
            else:
                assert opens(s["client_seed_commitment"], s["client_seed"], s["nonce"])
    message = {"type": "game-seed", "protocol": protocol, "client_seeds": [s["client_seed"] for s in seats]}
    gs = hmac.new(server_seed, doc_canonical(message), hashlib.sha256).digest()
    for rec in t["records"]:
        assert rec["salt"] == bytes(itertools.islice(doc_stream(gs, f"salt/{rec['seq']}"), 32)).hex()
    players = commit["rules"]["players"]
    dealer = doc_randbelow(doc_stream(gs, "first-dealer"), players)
    assert t["records"][0]["seat"] == (dealer + 1) % players  # the first bid is from the dealer's left
    if protocol == "fairdeal/2":
        assert end["deals"][0] == {"hand": 0, "dealer": dealer}
    found.update(game_seed=gs.hex(), dealer=dealer)
    if commit.get("deal_layout") == "spades-4":
        deck = doc_shuffle(gs, "deal/0", DOC_PACKS["PACK_52"])
        found["hands"] = [[deck[i] for i in range(52) if (dealer + 1 + i) % 4 == seat] for seat in range(4)]
    return found


# ------------------------------------------------------------------------------------- the vectors


def test_every_kind_of_vector_is_in_the_documents():
    fair = {v["vector"] for v in load_vectors("fairness.md")}
    assert fair == {
        "pack",
        "commitment",
        "client-seed-commitment",
        "game-seed",
        "stream",
        "randbelow",
        "shuffle",
        "reshuffle",
        "first-dealer",
    }
    trans = {v["vector"] for v in load_vectors("transcript.md")}
    assert trans == {"canonical-json", "canonical-json-rejects", "record-hash", "ed25519", "transcript"}
    protocols = {
        (v["vector"], v["protocol"])
        for doc in ("fairness.md", "transcript.md")
        for v in load_vectors(doc)
        if "protocol" in v
    }
    assert protocols == {
        (k, p) for k in ("commitment", "game-seed", "transcript") for p in ("fairdeal/1", "fairdeal/2")
    } | {("client-seed-commitment", "fairdeal/2")}
    aborted = [v for v in vectors_of("transcript.md", "transcript") if "start" not in v["transcript"]]
    assert len(aborted) == 1 and aborted[0]["transcript"]["end"]["reason"] == "not-revealed"


@pytest.mark.parametrize("v", vectors_of("fairness.md", "pack"), ids=lambda v: v["name"])
def test_pack_order(v):
    assert cards_to_str(PACKS[v["name"]]) == v["cards"] == DOC_PACKS[v["name"]]


@pytest.mark.parametrize("v", vectors_of("fairness.md", "commitment"), ids=lambda v: v["protocol"])
def test_commitment(v):
    seed = bytes.fromhex(v["server_seed"])
    preimage = {
        "type": "commitment",
        "protocol": v["protocol"],
        "game_id": v["game_id"],
        "rules": v["rules"],
        "server_seed": v["server_seed"],
    }
    assert doc_canonical(preimage).decode() == v["preimage"]
    assert hashlib.sha256(v["preimage"].encode()).hexdigest() == v["commitment"]
    assert commitment(seed, v["game_id"], v["rules"], v["protocol"]) == v["commitment"]


@pytest.mark.parametrize("v", vectors_of("fairness.md", "client-seed-commitment"), ids=lambda v: v["client_seed"])
def test_client_seed_commitment(v):
    preimage = {
        "type": "client-seed",
        "protocol": v["protocol"],
        "game_id": v["game_id"],
        "client_seed": v["client_seed"],
        "nonce": v["nonce"],
    }
    assert doc_canonical(preimage).decode() == v["preimage"]
    assert len(bytes.fromhex(v["nonce"])) == 32 and v["nonce"] == v["nonce"].lower()
    assert hashlib.sha256(v["preimage"].encode()).hexdigest() == v["client_seed_commitment"]
    assert client_seed_commitment(v["game_id"], v["client_seed"], v["nonce"]) == v["client_seed_commitment"]


@pytest.mark.parametrize(
    "v",
    vectors_of("fairness.md", "game-seed"),
    ids=lambda v: f"{v['protocol']}-{sum(s is not None for s in v['client_seeds'])}-seeds",
)
def test_game_seed(v):
    seed = bytes.fromhex(v["server_seed"])
    message = {"type": "game-seed", "protocol": v["protocol"], "client_seeds": v["client_seeds"]}
    assert doc_canonical(message).decode() == v["message"]
    assert hmac.new(seed, v["message"].encode(), hashlib.sha256).hexdigest() == v["game_seed"]
    assert game_seed(seed, v["client_seeds"], v["protocol"]).hex() == v["game_seed"]


def test_the_derivation_vectors_use_the_fairdeal_2_game_seed():
    first = next(v for v in vectors_of("fairness.md", "game-seed") if v["protocol"] == "fairdeal/2")
    for kind in ("stream", "randbelow", "shuffle", "reshuffle", "first-dealer"):
        assert {v["game_seed"] for v in vectors_of("fairness.md", kind)} == {first["game_seed"]}


@pytest.mark.parametrize("v", vectors_of("fairness.md", "stream"))
def test_stream(v):
    seed = bytes.fromhex(v["game_seed"])
    assert bytes.fromhex(v["block_0_message_hex"]) == v["label"].encode() + b"\x00" + bytes(4)
    block0 = hmac.new(seed, bytes.fromhex(v["block_0_message_hex"]), hashlib.sha256).digest()
    block1 = hmac.new(seed, bytes.fromhex(v["block_1_message_hex"]), hashlib.sha256).digest()
    expected = bytes.fromhex(v["first_80_bytes_hex"])
    assert expected[:64] == block0 + block1
    assert bytes(itertools.islice(doc_stream(seed, v["label"]), 80)) == expected
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
    assert doc_signed(v["public_key_text"], message, v["signature"])


TRANSCRIPTS = vectors_of("transcript.md", "transcript")


def _name(v) -> str:
    return f"{v['protocol']}-{v['transcript']['end']['reason']}"


@pytest.mark.parametrize("v", TRANSCRIPTS, ids=_name)
def test_transcript_by_the_documents_alone(v):
    found = doc_verify(v["transcript"], v["public_key_text"])
    t = v["transcript"]
    if "start" in t:
        assert found["game_seed"] == v["game_seed"]
        assert [doc_sha256_hex(r) for r in t["records"]] == v["receipts"]
    if "hands" in v:
        assert found["hands"] == v["hands"]


@pytest.mark.parametrize("v", TRANSCRIPTS, ids=_name)
def test_transcript_by_the_reference_code(v):
    t = parse_transcript(v["transcript"])
    assert check_transcript(t, v["public_key_text"]) == []
    assert [record_hash(r) for r in t["records"]] == v["receipts"]
    if "start" in t:
        seeds = [s["client_seed"] for s in t["start"]["seats"]]
        assert game_seed(bytes.fromhex(t["end"]["server_seed"]), seeds, t["protocol"]).hex() == v["game_seed"]
        assert t["end"]["prev"] == v["receipts"][-1]
    report = verify_transcript(
        v["transcript"], key=v["public_key_text"], receipts=list(enumerate(v["receipts"], start=1))
    )
    assert report.exit_code == 0, [c.to_json() for c in report.failed]
    if "hands" in v:
        game = LiveGame(t["start"], bytes.fromhex(v["game_seed"]))
        assert [sorted(game.state.view(s)["hand"]) for s in range(4)] == [sorted(h) for h in v["hands"]]
        assert t["commit"]["deal_layout"] == game.rules.deal_layout == "spades-4"


def test_the_ed25519_vector_signs_the_first_transcripts_commit():
    ed = vectors_of("transcript.md", "ed25519")[0]
    first = TRANSCRIPTS[0]["transcript"]
    assert first["protocol"] == "fairdeal/2"
    assert first["commit_signature"] == ed["signature"] and first["commit"]["key"] == ed["public_key_text"]
    assert canonical_json(first["commit"]).decode() == ed["message"]


def _vector_script():
    """scripts/make_vectors.py, loaded as a module."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_vectors", DOCS.parent / "scripts" / "make_vectors.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    return script


def test_the_documents_hold_exactly_what_the_vector_script_prints():
    # scripts/make_vectors.py is how the blocks were made; if it drifts from the documents, one of them is stale
    script = _vector_script()
    assert script.fairness_vectors() + script.fairness_v1_vectors() == load_vectors("fairness.md")
    assert script.transcript_vectors() + script.transcript_v1_vectors() == load_vectors("transcript.md")


def test_the_move_forms_table_of_transcript_md_is_the_engines_definition():
    assert _vector_script().move_forms_table() in (DOCS / "transcript.md").read_text(encoding="utf-8")
