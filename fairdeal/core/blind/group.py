"""The group of "fairdeal-blind/1": P-256 x-coordinates, every operation a scalar multiplication by OpenSSL.

`cryptography` exposes no point addition, but its ECDH on SECP256R1 computes x(k·P) for a scalar k in [1, n-1]
and any valid point P, in constant time and with point validation. Since x(-P) = x(P), an element is just the
32-byte x-coordinate X (the point with compressed form 02‖X) and mul(a, mul(b, X)) = mul(a·b mod n, X): the
commutative masking a mental-poker deal needs (docs/blind.md, "Group"). Nothing here is hand-written field
arithmetic; scalars are reduced and inverted mod n with Python integers (pow(k, -1, n)).
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from cryptography.hazmat.primitives.asymmetric import ec

CURVE = ec.SECP256R1()
# The order of the P-256 base point (FIPS 186-4, D.1.2.3).
N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
ELEMENT_BYTES = 32
CARD_POINT_PREFIX = b"fairdeal-blind/1 card\x00"
# x(G) of P-256: the element whose multiples are the public box keys E = mul(e, G).
G = bytes.fromhex("6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296")


class BadElement(ValueError):
    """A text or bytes value that is not an element (32 bytes, the x-coordinate of a P-256 point)."""


class _LruCache(OrderedDict[Any, Any]):
    """A small least-recently-used map: the objects OpenSSL builds are costly (k·G for a private key, a square
    root for a decoded point) and a deal reuses them (a seat's shuffle scalar for 52 elements, a lock's input
    deck that was its own shuffle's output)."""

    def __init__(self, size: int):
        super().__init__()
        self.size = size

    def get_or_make(self, key: Any, make: Callable[[Any], Any]) -> Any:
        found = self.get(key)
        if found is not None:
            self.move_to_end(key)
            return found
        value = make(key)
        self[key] = value
        if len(self) > self.size:
            self.popitem(last=False)
        return value


_private_keys = _LruCache(512)
_public_keys = _LruCache(4096)


def check_scalar(k: int) -> int:
    if type(k) is not int or not 1 <= k < N:
        raise ValueError("A scalar is an integer in [1, n-1] (n the P-256 group order).")
    return k


def _private_key(k: int) -> ec.EllipticCurvePrivateKey:
    key: ec.EllipticCurvePrivateKey = _private_keys.get_or_make(k, lambda s: ec.derive_private_key(s, CURVE))
    return key


_card_keys: dict[bytes, ec.EllipticCurvePublicKey] = {}  # the card points' decoded keys, kept for the process


def _public_key(x: bytes) -> ec.EllipticCurvePublicKey:
    pinned = _card_keys.get(x)
    if pinned is not None:
        return pinned

    def decode(xb: bytes) -> ec.EllipticCurvePublicKey:
        try:
            return ec.EllipticCurvePublicKey.from_encoded_point(CURVE, b"\x02" + xb)
        except ValueError:
            raise BadElement(f"{xb.hex()} is not the x-coordinate of a P-256 point.") from None

    key: ec.EllipticCurvePublicKey = _public_keys.get_or_make(x, decode)
    return key


def is_element(x: bytes) -> bool:
    """True if x is 32 bytes and 02‖x decodes to a point of P-256."""
    if type(x) is not bytes or len(x) != ELEMENT_BYTES:
        return False
    try:
        _public_key(x)
    except BadElement:
        return False
    return True


def mul(k: int, x: bytes) -> bytes:
    """x(k·P) for the point P with x-coordinate x: an element. k in [1, n-1]; raises BadElement for a bad x."""
    if type(x) is not bytes or len(x) != ELEMENT_BYTES:
        raise BadElement("An element is 32 bytes.")
    return _private_key(check_scalar(k)).exchange(ec.ECDH(), _public_key(x))


def mul_many(k: int, xs: Sequence[bytes]) -> list[bytes]:
    """[mul(k, x) for x in xs], the private key made once."""
    key = _private_key(check_scalar(k))
    exchange, ecdh = key.exchange, ec.ECDH()
    return [exchange(ecdh, _public_key(x)) for x in xs]


def mul_each(scalars: Sequence[int], xs: Sequence[bytes]) -> list[bytes]:
    """[mul(k, x) for k, x in zip(scalars, xs)] for scalars used once (a lock deck: one scalar per position):
    each private key is made and dropped, never put in the cache it would only churn."""
    if len(scalars) != len(xs):
        raise ValueError("one scalar per element")
    derive, ecdh = ec.derive_private_key, ec.ECDH()
    return [derive(check_scalar(k), CURVE).exchange(ecdh, _public_key(x)) for k, x in zip(scalars, xs, strict=True)]


def base_mul(k: int) -> bytes:
    """x(k·G): a public key's x-coordinate (no exchange needed: OpenSSL computed k·G making the key)."""
    numbers = _private_key(check_scalar(k)).public_key().public_numbers()
    return numbers.x.to_bytes(ELEMENT_BYTES, "big")


def inverse(k: int) -> int:
    """k^-1 mod n."""
    return pow(check_scalar(k), -1, N)


def product(scalars: Sequence[int]) -> int:
    """The product of scalars mod n (each in [1, n-1], so the product is too: n is prime)."""
    out = 1
    for k in scalars:
        out = out * check_scalar(k) % N
    return out


def card_point(text: str, prefix: bytes = CARD_POINT_PREFIX) -> bytes:
    """P_c for card text c: the first X = SHA-256(prefix ‖ c ‖ 0x00 ‖ ctr), ctr = 0, 1, ... (one byte) that is
    the x-coordinate of a point (try-and-increment; about half the candidates are)."""
    for ctr in range(256):
        x = hashlib.sha256(prefix + text.encode("ascii") + b"\x00" + bytes([ctr])).digest()
        if is_element(x):
            return x
    raise AssertionError("no card point within 256 tries")  # probability 2**-256


_card_points: dict[str, bytes] = {}


def card_points(texts: Sequence[str]) -> list[bytes]:
    """[card_point(t) for t in texts], each computed once per process."""
    out = []
    for t in texts:
        p = _card_points.get(t)
        if p is None:
            p = _card_points[t] = card_point(t)
            _card_keys[p] = _public_key(p)
        out.append(p)
    return out


def element_hex(x: bytes) -> str:
    return x.hex()


def element_bytes(text: str) -> bytes:
    """The 32 bytes of an element text already checked to be 64 lowercase hex (not yet checked to be a point)."""
    return bytes.fromhex(text)


def element_from_hex(text: object) -> bytes:
    """An element from its 64 lowercase hex digits, checked to be a point (BadElement otherwise)."""
    if type(text) is not str or len(text) != 2 * ELEMENT_BYTES or text != text.lower():
        raise BadElement("An element is written as 64 lowercase hex digits.")
    try:
        x = bytes.fromhex(text)
    except ValueError:
        raise BadElement("An element is written as 64 lowercase hex digits.") from None
    if not is_element(x):
        raise BadElement(f"{text} is not the x-coordinate of a P-256 point.")
    return x


def scalar_hex(k: int) -> str:
    return check_scalar(k).to_bytes(32, "big").hex()


def scalar_from_hex(text: object) -> int:
    if type(text) is not str or len(text) != 64 or text != text.lower():
        raise ValueError("A scalar is written as 64 lowercase hex digits.")
    try:
        k = int(text, 16)
    except ValueError:
        raise ValueError("A scalar is written as 64 lowercase hex digits.") from None
    if not 1 <= k < N:
        raise ValueError("A scalar is in [1, n-1].")
    return k
