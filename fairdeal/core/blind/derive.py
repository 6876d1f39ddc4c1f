"""A seat's secrets in "fairdeal-blind/1": everything it uses derives from one 32-byte secret σ (docs/blind.md,
"Derivation"), in the derivation style of fairdeal.core.fairness (an HMAC-SHA256 stream keyed by the secret,
one label per use; unbiased integers by rejection).

  scalar(label)      (int.from_bytes(stream(σ, label)[:48]) mod (n-1)) + 1   (48 bytes: bias below 2**-128)
  a_{s,k}            scalar("shuffle|k")        the shuffle mask of deal k
  π_{s,k}            Fisher-Yates of [0..51] under "perm|k" (fairness.shuffle): deck[j] = mul(a, prev[π[j]])
  b_{s,k,j}          scalar("lock|k|j")         the lock of deck position j
  e_s, E_s           scalar("box"), x(e_s·G)    the box key pair of the key releases
  commitment         SHA-256("fairdeal-blind/1 commit\\x00" ‖ σ)
"""

from __future__ import annotations

import hashlib
import secrets as _os_random

from fairdeal.core.blind.group import N, base_mul
from fairdeal.core.fairness import KeyedHmac, derive_bytes, shuffle

SECRET_BYTES = 32
SCALAR_STREAM_BYTES = 48
COMMIT_PREFIX = b"fairdeal-blind/1 commit\x00"


def new_secret() -> bytes:
    """A seat's fresh σ from the operating system's CSPRNG."""
    return _os_random.token_bytes(SECRET_BYTES)


def check_secret(secret: object) -> bytes:
    if type(secret) is not bytes or len(secret) != SECRET_BYTES:
        raise ValueError(f"A seat secret is {SECRET_BYTES} bytes.")
    return secret


def scalar(secret: bytes, label: str) -> int:
    """A scalar in [1, n-1] from the secret's stream under `label`."""
    return int.from_bytes(derive_bytes(check_secret(secret), label, SCALAR_STREAM_BYTES), "big") % (N - 1) + 1


def _count(value: object, what: str) -> int:
    if type(value) is not int or value < 0:
        raise ValueError(f"A {what} is a non-negative integer.")
    return value


def shuffle_scalar(secret: bytes, deal: int) -> int:
    return scalar(secret, f"shuffle|{_count(deal, 'deal number')}")


def permutation(secret: bytes, deal: int, size: int) -> list[int]:
    """π_{s,k} as a list: position j of the seat's shuffled deck takes the element at π[j] of its input."""
    return shuffle(check_secret(secret), f"perm|{_count(deal, 'deal number')}", range(size))


def lock_scalar(secret: bytes, deal: int, position: int) -> int:
    return scalar(secret, f"lock|{_count(deal, 'deal number')}|{_count(position, 'position')}")


def lock_scalars(secret: bytes, deal: int, size: int) -> list[int]:
    """[lock_scalar(secret, deal, j) for j in range(size)], the fast path: the secret's HMAC pads hashed once
    (fairness.KeyedHmac) and each scalar's two stream blocks made directly (48 bytes: blocks 0 and 1)."""
    mac = KeyedHmac(check_secret(secret)).digest
    out = []
    for j in range(size):
        prefix = f"lock|{_count(deal, 'deal number')}|{j}\x00".encode("ascii")
        data = mac(prefix + b"\x00\x00\x00\x00") + mac(prefix + b"\x00\x00\x00\x01")
        out.append(int.from_bytes(data[:SCALAR_STREAM_BYTES], "big") % (N - 1) + 1)
    return out


def box_scalar(secret: bytes) -> int:
    return scalar(secret, "box")


def box_key(secret: bytes) -> bytes:
    """E_s = x(e_s·G), the public half of the box key, as an element."""
    return base_mul(box_scalar(secret))


def commitment(secret: bytes) -> str:
    """The commit message's "commitment": 64 lowercase hex digits."""
    return hashlib.sha256(COMMIT_PREFIX + check_secret(secret)).hexdigest()
