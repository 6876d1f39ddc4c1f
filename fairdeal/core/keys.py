"""Ed25519 keys and signatures (docs/transcript.md, "Keys and signatures").

Text forms, all copy-pasteable:
  public key   "ed25519:" + base64url without padding of the 32 raw public-key bytes (51 characters in all)
  key id       the first 16 hex digits of SHA-256 of the 32 raw public-key bytes
  signature    base64url without padding of the 64-byte Ed25519 signature (86 characters)
  private key  PKCS#8 PEM (unencrypted), or the 32 raw private bytes as 64 hex digits
Ed25519 is deterministic: one key and one message always give the same signature.
"""

from __future__ import annotations

import base64
import binascii
import functools
import hashlib
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

KEY_PREFIX = "ed25519:"
_RAW = (serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    """Strict: only the base64url alphabet, no padding, no whitespace, and canonical trailing bits."""
    if not isinstance(text, str) or not text.isascii() or "=" in text or len(text) % 4 == 1:
        raise ValueError("not base64url without padding")
    data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    if b64url(data) != text:  # also rejects characters outside the alphabet and non-zero spare bits
        raise ValueError("not canonical base64url")
    return data


def generate_private_key() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.generate()


def private_key_to_pem(key: Ed25519PrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


def private_key_from_pem(data: bytes | str) -> Ed25519PrivateKey:
    if isinstance(data, str):
        data = data.encode("ascii", "replace")
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"This is not an unencrypted PEM private key ({exc}).") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise ValueError("This PEM private key is not an Ed25519 key.")
    return key


def private_key_to_hex(key: Ed25519PrivateKey) -> str:
    return key.private_bytes(
        serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption()
    ).hex()


def private_key_from_hex(text: str) -> Ed25519PrivateKey:
    try:
        raw = bytes.fromhex(text)
    except (ValueError, TypeError):
        raw = b""
    if len(raw) != 32:
        raise ValueError("An Ed25519 private key in hex is 64 hex digits (32 bytes).")
    return Ed25519PrivateKey.from_private_bytes(raw)


def _public(key: Any) -> Ed25519PublicKey:
    if isinstance(key, Ed25519PrivateKey):
        return key.public_key()
    if isinstance(key, Ed25519PublicKey):
        return key
    raise ValueError("An Ed25519 key object is needed.")


def public_key_text(key: Ed25519PublicKey | Ed25519PrivateKey) -> str:
    """'ed25519:' + base64url (no padding) of the raw 32-byte public key. A private key gives its public key."""
    return KEY_PREFIX + b64url(_public(key).public_bytes(*_RAW))


def load_public_key(text: str) -> Ed25519PublicKey:
    """The key of a public key text, or ValueError saying what is wrong with it."""
    if not isinstance(text, str) or not text.startswith(KEY_PREFIX):
        raise ValueError(
            f"A public key is written '{KEY_PREFIX}' followed by 43 base64url characters, not {text!r:.60}."
        )
    return _loaded(text)


@functools.lru_cache(maxsize=256)
def _loaded(text: str) -> Ed25519PublicKey:
    # An audit reads the same few keys in every transcript, several times each; a key object is immutable.
    # (A text that is refused raises, and lru_cache keeps nothing of it.)
    try:
        raw = b64url_decode(text[len(KEY_PREFIX) :])
    except (ValueError, binascii.Error):
        raw = b""
    if len(raw) != 32:
        raise ValueError(
            f"A public key is '{KEY_PREFIX}' followed by the base64url form (no padding) of "
            f"32 bytes; {text!r:.60} is not."
        )
    return Ed25519PublicKey.from_public_bytes(raw)


def key_id(text: str) -> str:
    """A short fingerprint of a public key text: the first 16 hex digits of SHA-256 of the raw key."""
    load_public_key(text)  # refuses what is not a key text
    return _key_id(text)


@functools.lru_cache(maxsize=256)
def _key_id(text: str) -> str:
    return hashlib.sha256(_loaded(text).public_bytes(*_RAW)).hexdigest()[:16]


def sign(private_key: Ed25519PrivateKey, data: bytes) -> str:
    """The Ed25519 signature of data, as base64url without padding."""
    if not isinstance(private_key, Ed25519PrivateKey):
        raise ValueError("Signing needs an Ed25519 private key.")
    return b64url(private_key.sign(bytes(data)))


def verify(public_text: str, data: bytes, signature: str) -> bool:
    """True when signature is a valid signature of data under the public key text; False for anything else
    (a bad key, a bad signature text, wrong types). Never raises."""
    try:
        key = load_public_key(public_text)
        sig = b64url_decode(signature)
        if len(sig) != 64:
            return False
        key.verify(sig, bytes(data))
        return True
    except (InvalidSignature, ValueError, TypeError, binascii.Error):
        return False
    except Exception:  # noqa: BLE001 - a verifier must answer False, never crash, on hostile input
        return False
