"""The verifier's fast path for a deal whose every seat revealed (fairdeal.core.blind.check uses it first).

The general form (check._check_deal): each seat's shuffle and lock recomputed from the deck the seat was given,
as published, decoding every published element to multiply it. This path computes every deck of the deal from
the card points instead, under the composed scalars, and compares the published decks with it as text:

  after seat s's shuffle   S_s[j] = (a_0 · ... · a_s) · P_{card at j after s shuffles}
  after seat s's lock      L_s[j] = (a_{s+1} · ... · a_{N-1}) · (b_{0,j} · ... · b_{s,j}) · P_{card at j}

When every published deck equals these, each seat's recomputation from its published input gives exactly its
published output (by induction from the card points), so the general form finds nothing and derives the same
deal; when one differs, the caller runs the general form, which names the seat. Only the card points are ever
decoded (52 points, cached), never a published element. tests/blind/test_composed.py holds the two equal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fairdeal.core.blind import derive
from fairdeal.core.blind.group import N, card_points, mul_each, mul_many


def composed_deal(
    secrets_: Sequence[bytes],
    deal: int,
    pack: Sequence[str],
    shuffles: Sequence[Sequence[str]],
    locks: Sequence[Sequence[str]],
) -> tuple[list[str], list[list[int]]] | None:
    """(the card at each final position, every seat's locks) if every shuffle deck shuffles[s] and lock deck
    locks[s] (64-hex texts, seat order) is the composed one, else None."""
    size = len(pack)
    points = card_points(pack)
    order = list(range(size))
    masks = [derive.shuffle_scalar(secret, deal) for secret in secrets_]
    total = 1
    for secret, a, published in zip(secrets_, masks, shuffles, strict=True):
        perm = derive.permutation(secret, deal, size)
        order = [order[i] for i in perm]
        total = total * a % N
        if [x.hex() for x in mul_many(total, [points[i] for i in order])] != list(published):
            return None
    lock_keys = [derive.lock_scalars(secret, deal, size) for secret in secrets_]
    held = [1] * size  # b_{0,j} ... b_{s,j}
    for s, published in enumerate(locks):
        rest = 1
        for a in masks[s + 1 :]:
            rest = rest * a % N
        keys = lock_keys[s]
        held = [h * b % N for h, b in zip(held, keys, strict=True)]
        computed = mul_each([rest * h % N for h in held], [points[i] for i in order])
        if [x.hex() for x in computed] != list(published):
            return None
    return [pack[i] for i in order], lock_keys


def decks_of(
    by_key: Mapping[tuple[Any, ...], dict[str, Any]], kind: str, deal: int, seats: int
) -> list[list[str]] | None:
    """Every seat's `kind` deck of the deal in seat order, or None if one is missing."""
    out = []
    for s in range(seats):
        m = by_key.get((kind, s, deal))
        if m is None:
            return None
        out.append(m["deck"])
    return out
