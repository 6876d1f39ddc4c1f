"""The test vectors of docs/blind.md (tests/vectors/blind.json): the file is what scripts/blind_vectors.py prints
from the reference code, and every value in it is re-derived here from the primitives the specification names —
hashlib, hmac and cryptography used directly, none of fairdeal.core.blind — as an independent implementation
would."""

from __future__ import annotations

import hashlib
import hmac
import json
import subprocess
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

ROOT = Path(__file__).resolve().parents[2]
FILE = ROOT / "tests" / "vectors" / "blind.json"
N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
CURVE = ec.SECP256R1()


@pytest.fixture(scope="module")
def v():
    return json.loads(FILE.read_text())


# --- the primitives, written from docs/blind.md ---------------------------------------------------------------


def point(x: bytes):
    return ec.EllipticCurvePublicKey.from_encoded_point(CURVE, b"\x02" + x)


def mul(k: int, x: bytes) -> bytes:
    return ec.derive_private_key(k, CURVE).exchange(ec.ECDH(), point(x))


def stream(key: bytes, label: str, n: int) -> bytes:
    blocks = b"".join(hmac.digest(key, label.encode() + b"\x00" + i.to_bytes(4, "big"), "sha256") for i in range(4))
    return blocks[:n]


def scalar(secret: bytes, label: str) -> int:
    return int.from_bytes(stream(secret, label, 48), "big") % (N - 1) + 1


def permutation(secret: bytes, label: str, size: int) -> list[int]:
    data = stream(secret, label, 128)  # enough bytes for 51 one-byte draws with rejections, for these vectors
    pos, deck = 0, list(range(size))
    for i in range(size - 1, 0, -1):
        n = i + 1
        while True:
            x = data[pos]
            pos += 1
            if x < n * (256 // n):
                break
        j = x % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def h64(k: int) -> str:
    return k.to_bytes(32, "big").hex()


# --- the checks -------------------------------------------------------------------------------------------------


def test_the_file_is_what_the_script_prints():
    out = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "blind_vectors.py")], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == json.loads(FILE.read_text())


def test_card_points_are_the_first_candidate_on_the_curve(v):
    assert [p["card"] for p in v["card_points"]][:3] == ["2C", "3C", "4C"] and len(v["card_points"]) == 52
    for p in v["card_points"]:
        for ctr in range(p["ctr"] + 1):
            x = hashlib.sha256(b"fairdeal-blind/1 card\x00" + p["card"].encode() + b"\x00" + bytes([ctr])).digest()
            if ctr < p["ctr"]:
                with pytest.raises(ValueError):
                    point(x)
            else:
                point(x)
                assert x.hex() == p["x"]
    assert len({p["x"] for p in v["card_points"]}) == 52


def test_mul(v):
    assert int(v["n"], 16) == N
    for m in v["mul"]:
        assert mul(int(m["k"], 16), bytes.fromhex(m["x"])).hex() == m["out"]
    assert v["mul"][1]["out"] == v["mul"][1]["x"]  # (n-1)·P = -P: the same x


def test_each_seat_derives_its_scalars_permutation_and_keys(v):
    for s in v["seats"]:
        secret = bytes.fromhex(s["secret"])
        assert s["commitment"] == hashlib.sha256(b"fairdeal-blind/1 commit\x00" + secret).hexdigest()
        e = scalar(secret, "box")
        assert h64(e) == s["box_scalar"]
        assert ec.derive_private_key(e, CURVE).public_key().public_numbers().x.to_bytes(32, "big").hex() == s["box_key"]
        assert h64(scalar(secret, f"shuffle|{v['deal']}")) == s["shuffle_scalar"]
        assert permutation(secret, f"perm|{v['deal']}", 52) == s["permutation"]
        assert [h64(scalar(secret, f"lock|{v['deal']}|{j}")) for j in range(52)] == s["lock_scalars"]
        ident = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(s["identity"]))
        assert ident.public_key().public_bytes_raw().hex() == s["sign_key"]


def test_every_message_is_signed_over_its_canonical_bytes(v):
    keys = {s["seat"]: s["sign_key"] for s in v["seats"]}
    first = v["messages"][0]
    body = {k: x for k, x in first.items() if k != "sig"}
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert v["signed_bytes_of_first_commit"] == "fairdeal-blind/1\n" + canonical
    for m in v["messages"]:
        body = {k: x for k, x in m.items() if k != "sig"}
        data = b"fairdeal-blind/1\n" + json.dumps(body, sort_keys=True, separators=(",", ":")).encode()
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(keys[m["seat"]])).verify(bytes.fromhex(m["sig"]), data)


def test_the_deal_recomputed_from_the_secrets(v):
    seats = {s["seat"]: s for s in v["seats"]}
    shuffles = [m for m in v["messages"] if m["type"] == "shuffle"]
    locks = [m for m in v["messages"] if m["type"] == "lock"]
    assert [m["seat"] for m in shuffles] == [m["seat"] for m in locks] == [0, 1, 2, 3]
    prev = [bytes.fromhex(p["x"]) for p in v["card_points"]]
    for m in shuffles:
        s = seats[m["seat"]]
        a, perm = int(s["shuffle_scalar"], 16), s["permutation"]
        prev = [mul(a, prev[perm[j]]) for j in range(52)]
        assert [x.hex() for x in prev] == m["deck"]
    for m in locks:
        s = seats[m["seat"]]
        a_inv = pow(int(s["shuffle_scalar"], 16), -1, N)
        prev = [mul(int(s["lock_scalars"][j], 16) * a_inv % N, prev[j]) for j in range(52)]
        assert [x.hex() for x in prev] == m["deck"]
    assert v["final_deck"] == locks[-1]["deck"]
    # the deal: each position's element unlocked with every lock is its card's point
    by_x = {bytes.fromhex(p["x"]): p["card"] for p in v["card_points"]}
    for j, x in enumerate(prev):
        total = 1
        for s in seats.values():
            total = total * int(s["lock_scalars"][j], 16) % N
        assert by_x[mul(pow(total, -1, N), x)] == v["deck"][j]
    assert v["holders"] == [(v["dealer"] + 1 + j) % 4 for j in range(52)]
    for s in seats.values():
        assert s["cards"] == [v["deck"][j] for j in range(52) if v["holders"][j] == s["seat"]]


def test_the_releases_unseal_to_the_senders_locks(v):
    seats = {s["seat"]: s for s in v["seats"]}
    ex = v["release_example"]
    shared = mul(int(seats[ex["sender"]]["box_scalar"], 16), bytes.fromhex(seats[ex["holder"]]["box_key"]))
    assert shared == mul(int(seats[ex["holder"]]["box_scalar"], 16), bytes.fromhex(seats[ex["sender"]]["box_key"]))
    assert shared.hex() == ex["shared"]
    releases = [m for m in v["messages"] if m["type"] == "release"]
    assert len(releases) == 4
    for m in releases:
        s = m["seat"]
        owed = {(h, j) for j, h in enumerate(v["holders"]) if h != s}
        assert {(int(h), int(j)) for h, pads in m["keys"].items() for j in pads} == owed
        for h, pads in m["keys"].items():
            shared = mul(int(seats[s]["box_scalar"], 16), bytes.fromhex(seats[int(h)]["box_key"]))
            for j, value in pads.items():
                info = f"fairdeal-blind/1 release|{v['deal']}|{s}|{h}|{j}".encode()
                pad = HKDF(hashes.SHA256(), 32, v["game"].encode(), info).derive(shared)
                if (s, int(h), int(j)) == (ex["sender"], ex["holder"], ex["position"]):
                    assert pad.hex() == ex["pad"]
                lock = bytes(a ^ b for a, b in zip(bytes.fromhex(value), pad, strict=True))
                assert lock.hex() == seats[s]["lock_scalars"][int(j)]


def test_the_opens_fit_the_final_deck(v):
    points = {p["card"]: bytes.fromhex(p["x"]) for p in v["card_points"]}
    opens = [m for m in v["messages"] if m["type"] == "open"]
    assert [m["position"] for m in opens] == [0, 1, 51]
    for m in opens:
        assert m["seat"] == v["holders"][m["position"]] and m["card"] == v["deck"][m["position"]]
        total = 1
        for key in m["keys"]:
            total = total * int(key, 16) % N
        assert mul(total, points[m["card"]]).hex() == v["final_deck"][m["position"]]


def test_the_reveals_open_the_commitments(v):
    commits = {m["seat"]: m for m in v["messages"] if m["type"] == "commit"}
    for m in (m for m in v["messages"] if m["type"] == "reveal"):
        secret = bytes.fromhex(m["secret"])
        assert hashlib.sha256(b"fairdeal-blind/1 commit\x00" + secret).hexdigest() == commits[m["seat"]]["commitment"]


def test_the_reference_verifier_passes_the_vectors(v):
    from fairdeal.core.blind.check import audit

    result = audit(v["game"], 4, v["messages"], {v["deal"]: v["holders"]})
    assert result.findings == []
    assert result.decks[v["deal"]] == v["deck"]
