"""fairdeal.core.keys: Ed25519 key forms, signatures, and a verify() that never raises."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairdeal.core import keys

KEY = keys.private_key_from_hex("11" * 32)
PUB = keys.public_key_text(KEY)


def test_public_key_text_form():
    assert PUB.startswith("ed25519:") and len(PUB) == 51 and "=" not in PUB
    assert keys.public_key_text(KEY.public_key()) == PUB
    assert keys.public_key_text(keys.load_public_key(PUB)) == PUB


def test_private_key_round_trips():
    fresh = keys.generate_private_key()
    pub = keys.public_key_text(fresh)
    assert keys.public_key_text(keys.private_key_from_pem(keys.private_key_to_pem(fresh))) == pub
    assert keys.public_key_text(keys.private_key_from_pem(keys.private_key_to_pem(fresh).decode())) == pub
    assert keys.private_key_to_hex(
        keys.private_key_from_hex(keys.private_key_to_hex(fresh))
    ) == keys.private_key_to_hex(fresh)
    assert keys.public_key_text(fresh) != PUB


@pytest.mark.parametrize(
    "text",
    [
        "",
        "ed25519:",
        "ED25519:" + PUB[8:],
        PUB + "A",
        PUB[:-1],
        PUB + "=",
        "ed25519:" + "!" * 43,
        "rsa:" + PUB[8:],
        None,
        5,
    ],
)
def test_load_public_key_refuses_with_a_clear_message(text):
    with pytest.raises(ValueError, match="ed25519:"):
        keys.load_public_key(text)


@pytest.mark.parametrize("bad", ["not pem", b"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"])
def test_bad_pem_is_refused(bad):
    with pytest.raises(ValueError, match="PEM"):
        keys.private_key_from_pem(bad)


def test_bad_hex_private_key_is_refused():
    with pytest.raises(ValueError, match="64 hex digits"):
        keys.private_key_from_hex("abc")


def test_key_id_is_a_short_stable_fingerprint():
    kid = keys.key_id(PUB)
    assert len(kid) == 16 and int(kid, 16) >= 0 and kid == keys.key_id(PUB)
    assert kid != keys.key_id(keys.public_key_text(keys.generate_private_key()))


def test_sign_and_verify():
    sig = keys.sign(KEY, b"message")
    assert len(sig) == 86 and sig == keys.sign(KEY, b"message")  # deterministic
    assert keys.verify(PUB, b"message", sig)
    assert not keys.verify(PUB, b"messagf", sig)
    other = keys.public_key_text(keys.generate_private_key())
    assert not keys.verify(other, b"message", sig)


@settings(max_examples=60, deadline=None)
@given(position=st.integers(0, 85), char=st.sampled_from("AQgw_-9z"))
def test_any_changed_signature_character_fails(position, char):
    sig = keys.sign(KEY, b"message")
    changed = sig[:position] + char + sig[position + 1 :]
    if changed != sig:
        assert not keys.verify(PUB, b"message", changed)


@pytest.mark.parametrize(
    "public, data, sig",
    [
        ("garbage", b"m", "x"),
        (PUB, b"m", ""),
        (PUB, b"m", None),
        (None, b"m", "x"),
        (PUB, None, "x"),
        (PUB, b"m", "A" * 86),
        (PUB, b"m", "A" * 85 + "="),
        (PUB, b"m", 12),
        (PUB, b"m", "\u00e9" * 86),
    ],
)
def test_verify_never_raises(public, data, sig):
    assert keys.verify(public, data, sig) is False
