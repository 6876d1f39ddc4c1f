"""Key releases: how seat s gives holder h its lock b_{s,k,j}, readable by h alone (docs/blind.md, "Releases").

  shared      x(e_s·E_h) = x(e_h·E_s): the two seats' box keys, an ECDH on P-256
  pad         HKDF-SHA256(ikm = shared, salt = game id as UTF-8, info = "fairdeal-blind/1 release|k|s|h|j", 32 bytes)
  value       b_{s,k,j} as 32 bytes big-endian XOR pad, as 64 lowercase hex

HKDF (RFC 5869) is cryptography's, so a browser's WebCrypto HKDF gives the same bytes.
"""

from __future__ import annotations

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from fairdeal.core.blind.group import N, mul

PAD_BYTES = 32


def shared_secret(box_scalar: int, other_box_key: bytes) -> bytes:
    return mul(box_scalar, other_box_key)


def pad(shared: bytes, game: str, deal: int, sender: int, holder: int, position: int) -> bytes:
    info = f"fairdeal-blind/1 release|{deal}|{sender}|{holder}|{position}".encode("ascii")
    return HKDF(algorithm=hashes.SHA256(), length=PAD_BYTES, salt=game.encode("utf-8"), info=info).derive(shared)


def seal(lock: int, pad_bytes: bytes) -> str:
    return bytes(a ^ b for a, b in zip(lock.to_bytes(PAD_BYTES, "big"), pad_bytes, strict=False)).hex()


def unseal(value: str, pad_bytes: bytes) -> int | None:
    """The lock a release value carries, or None if it is no scalar in [1, n-1] (a wrong or garbled value)."""
    k = int.from_bytes(bytes(a ^ b for a, b in zip(bytes.fromhex(value), pad_bytes, strict=False)), "big")
    return k if 1 <= k < N else None
