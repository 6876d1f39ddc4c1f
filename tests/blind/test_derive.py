"""The derivations and the group of fairdeal-blind/1: the fast paths equal their general forms, and the
group behaves as docs/blind.md says."""

from __future__ import annotations

import pytest

from fairdeal.core.blind import derive, group
from fairdeal.core.blind.group import N


def test_lock_scalars_is_lock_scalar_for_every_position():
    for secret in (bytes(32), bytes(range(32)), b"\xff" * 32):
        for deal in (0, 7, 123):
            assert derive.lock_scalars(secret, deal, 52) == [derive.lock_scalar(secret, deal, j) for j in range(52)]


def test_scalars_are_in_range_and_differ_by_label():
    secret = bytes(range(32))
    values = {derive.scalar(secret, f"lock|0|{j}") for j in range(200)}
    assert len(values) == 200 and all(1 <= k < N for k in values)
    assert derive.shuffle_scalar(secret, 0) != derive.shuffle_scalar(secret, 1)


def test_permutation_is_a_permutation():
    perm = derive.permutation(bytes(range(32)), 3, 52)
    assert sorted(perm) == list(range(52)) and perm != list(range(52))


def test_mul_commutes_and_inverts():
    x = group.card_point("QH")
    a, b = derive.scalar(b"a" * 32, "t"), derive.scalar(b"b" * 32, "t")
    assert group.mul(a, group.mul(b, x)) == group.mul(b, group.mul(a, x)) == group.mul(a * b % N, x)
    assert group.mul(group.inverse(a), group.mul(a, x)) == x
    assert group.mul(N - 1, x) == x  # x(-P) = x(P)


def test_bad_elements_and_scalars_are_refused():
    with pytest.raises(group.BadElement):
        group.element_from_hex("00" * 31 + "01")  # x = 1 is no x-coordinate of P-256
    with pytest.raises(group.BadElement):
        group.element_from_hex("AB" * 32)  # upper case
    with pytest.raises(ValueError):
        group.mul(0, group.G)
    with pytest.raises(ValueError):
        group.mul(N, group.G)
    with pytest.raises(ValueError):
        group.scalar_from_hex(f"{N:064x}")


def test_pad_is_cryptography_hkdf_and_seal_unseal_round_trip():
    """release.pad writes HKDF out in its two HMAC steps (its PRK kept per pair of seats): the same 32 bytes as
    cryptography's HKDF-SHA256 for every label, game and shared secret."""
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF

    from fairdeal.core.blind import release

    for shared, game in ((bytes(32), "g1"), (bytes(range(32)), "ünï-game"), (b"\xff" * 32, "g1")):
        for deal, s, h, j in ((0, 0, 1, 0), (18, 3, 2, 51), (7, 1, 0, 12)):
            info = f"fairdeal-blind/1 release|{deal}|{s}|{h}|{j}".encode("ascii")
            want = HKDF(algorithm=hashes.SHA256(), length=32, salt=game.encode("utf-8"), info=info).derive(shared)
            assert release.pad(shared, game, deal, s, h, j) == want
            lock = (deal + 1) * 0x1234567 % N
            assert release.unseal(release.seal(lock, want), want) == lock
    assert release.unseal("00" * 32, bytes(32)) is None  # zero is no scalar
