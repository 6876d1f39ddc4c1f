"""The computations of a blind deal, shared by a seat (fairdeal.core.blind.seat) and the verifier
(fairdeal.core.blind.check), so both compute exactly the same thing (docs/blind.md, "A deal").

  initial deck   the card points of the pack in its canonical order (cards.PACK_52 for Spades)
  shuffle        out[j] = mul(a_{s,k}, prev[π_{s,k}[j]])
  lock           out[j] = mul(b_{s,k,j} · a_{s,k}^-1 mod n, prev[j])
  final deck     F_k[j] = (Π_s b_{s,k,j}) · P_{card at j}
  holders        holders[j] = the seat that position j is dealt to (None: not dealt), from the rules' deal layout
"""

from __future__ import annotations

from collections.abc import Sequence

from fairdeal.core.blind import derive
from fairdeal.core.blind.group import N, card_points, inverse, mul, mul_each, mul_many, product
from fairdeal.core.cards import PACK_52, Card, cards_to_str


def pack_texts(pack: Sequence[Card] = PACK_52) -> list[str]:
    return cards_to_str(pack)


def initial_deck(pack: Sequence[str]) -> list[bytes]:
    return card_points(pack)


def card_by_point(pack: Sequence[str]) -> dict[bytes, str]:
    return dict(zip(card_points(pack), pack, strict=False))


def shuffle_deck(secret: bytes, deal: int, prev: Sequence[bytes]) -> list[bytes]:
    a = derive.shuffle_scalar(secret, deal)
    perm = derive.permutation(secret, deal, len(prev))
    return mul_many(a, [prev[i] for i in perm])


def lock_deck(secret: bytes, deal: int, prev: Sequence[bytes], locks: Sequence[int] | None = None) -> list[bytes]:
    """locks: derive.lock_scalars(secret, deal, len(prev)) when the caller has them already."""
    a_inv = inverse(derive.shuffle_scalar(secret, deal))
    locks = derive.lock_scalars(secret, deal, len(prev)) if locks is None else locks
    return mul_each([b * a_inv % N for b in locks], prev)


def unlock(keys: Sequence[int], element: bytes) -> bytes:
    """mul((Π keys)^-1, element): the card point under a final-deck element, given every seat's lock for it."""
    return mul(inverse(product(keys)), element)


def opens(keys: Sequence[int], card: str, element: bytes) -> bool:
    """An open is good when mul(Π keys, P_card) equals the final-deck element (one multiplication)."""
    return mul(product(keys), card_points([card])[0]) == element


def spades_holders(dealer: int, players: int = 4, size: int = 52) -> list[int | None]:
    """The deal layout "spades-4": position j (the j-th card dealt) goes to the seat 1 + j places left of the
    dealer (fairdeal.core.games.spades deals one at a time from the dealer's left, every card)."""
    return [(dealer + 1 + j) % players for j in range(size)]
