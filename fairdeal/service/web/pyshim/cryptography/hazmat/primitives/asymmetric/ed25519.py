"""Ed25519 keys by @noble/curves (RFC 8032, strict verification as OpenSSL's: zip215 off, in the JS module)."""

import os

import fairdeal_noble  # the page's JS module (static/js/verifier/python.js)

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.serialization import raw_only


def _raw32(data, what: str) -> bytes:
    data = bytes(data)
    if len(data) != 32:
        raise ValueError(f"An Ed25519 {what} key is 32 bytes long")
    return data


class Ed25519PublicKey:
    def __init__(self, raw: bytes):
        self._raw = raw

    @classmethod
    def from_public_bytes(cls, data) -> "Ed25519PublicKey":
        return cls(_raw32(data, "public"))

    def public_bytes(self, encoding, format) -> bytes:  # noqa: A002 - cryptography's parameter name
        raw_only(encoding, format)
        return self._raw

    def public_bytes_raw(self) -> bytes:
        return self._raw

    def verify(self, signature, data) -> None:
        if not fairdeal_noble.ed25519_verify(bytes(signature).hex(), bytes(data).hex(), self._raw.hex()):
            raise InvalidSignature()

    def __eq__(self, other) -> bool:
        return isinstance(other, Ed25519PublicKey) and other._raw == self._raw

    def __hash__(self) -> int:
        return hash(self._raw)


class Ed25519PrivateKey:
    def __init__(self, seed: bytes):
        self._seed = seed

    @classmethod
    def generate(cls) -> "Ed25519PrivateKey":
        return cls(os.urandom(32))

    @classmethod
    def from_private_bytes(cls, data) -> "Ed25519PrivateKey":
        return cls(_raw32(data, "private"))

    def public_key(self) -> Ed25519PublicKey:
        return Ed25519PublicKey(bytes.fromhex(fairdeal_noble.ed25519_public(self._seed.hex())))

    def private_bytes(self, encoding, format, encryption_algorithm) -> bytes:  # noqa: A002
        raw_only(encoding, format)
        return self._seed

    def private_bytes_raw(self) -> bytes:
        return self._seed

    def sign(self, data) -> bytes:
        return bytes.fromhex(fairdeal_noble.ed25519_sign(bytes(data).hex(), self._seed.hex()))
