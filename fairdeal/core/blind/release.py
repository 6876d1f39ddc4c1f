"""Key releases: how seat s gives holder h its lock b_{s,k,j}, readable by h alone (docs/blind.md, "Releases").

  shared      x(e_s·E_h) = x(e_h·E_s): the two seats' box keys, an ECDH on P-256
  pad         HKDF-SHA256(ikm = shared, salt = game id as UTF-8, info = "fairdeal-blind/1 release|k|s|h|j", 32 bytes)
  value       b_{s,k,j} as 32 bytes big-endian XOR pad, as 64 lowercase hex

HKDF (RFC 5869) in its two HMAC steps, the PRK of a pair of seats kept: the same bytes as cryptography's HKDF
and a browser's WebCrypto HKDF.
"""

from __future__ import annotations

import hmac

from fairdeal.core.blind.group import N, mul
from fairdeal.core.fairness import KeyedHmac

PAD_BYTES = 32


def shared_secret(box_scalar: int, other_box_key: bytes) -> bytes:
    return mul(box_scalar, other_box_key)


def _info(deal: int, sender: int, holder: int, position: int) -> bytes:
    return f"fairdeal-blind/1 release|{deal}|{sender}|{holder}|{position}".encode("ascii")


_expanders: dict[tuple[bytes, str], KeyedHmac] = {}


def pad(shared: bytes, game: str, deal: int, sender: int, holder: int, position: int) -> bytes:
    """HKDF-SHA256 (RFC 5869) in its two HMAC steps: PRK = HMAC(salt, ikm), made once per pair of seats and game
    and kept, and a 32-byte output is the first expand block, HMAC(PRK, info ‖ 0x01). A game's releases are
    thousands of pads under a dozen PRKs; cryptography's HKDF would extract again for each
    (tests/blind/test_derive.py holds the two equal)."""
    expand = _expanders.get((shared, game))
    if expand is None:
        if len(_expanders) > 256:
            _expanders.clear()
        prk = hmac.digest(game.encode("utf-8"), shared, "sha256")
        expand = _expanders[(shared, game)] = KeyedHmac(prk)
    return expand.digest(_info(deal, sender, holder, position) + b"\x01")


def seal(lock: int, pad_bytes: bytes) -> str:
    return (lock ^ int.from_bytes(pad_bytes, "big")).to_bytes(PAD_BYTES, "big").hex()


def unseal(value: str, pad_bytes: bytes) -> int | None:
    """The lock a release value carries, or None if it is no scalar in [1, n-1] (a wrong or garbled value)."""
    k = int.from_bytes(bytes.fromhex(value), "big") ^ int.from_bytes(pad_bytes, "big")
    return k if 1 <= k < N else None
