"""Cards and packs.

A card is a (rank, suit) pair; ranks are 2..14 (11 J, 12 Q, 13 K, 14 A), suits are the letters C D H S.
Every card exists once as an interned object, so `card_from_str` and the packs hand out the same objects and
comparisons stay cheap. The text form ("10H", "AS", "5D") is what JSON, transcripts and error sentences use.

The canonical pack orders are part of the fairness protocol (docs/fairness.md): a shuffle permutes exactly this
order, so an independent verifier must build the same list.
  52-card pack: suits C, D, H, S; within each suit ranks 2, 3, ..., 10, J, Q, K, A.
  32-card pack: suits C, D, H, S; within each suit ranks 7, 8, 9, 10, J, Q, K, A.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from fairdeal.core.fastpath import fast_path

SUITS = ("C", "D", "H", "S")
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
RED = frozenset("DH")
RANK_TEXT = {11: "J", 12: "Q", 13: "K", 14: "A"}
RANK_NAMES = {11: "Jack", 12: "Queen", 13: "King", 14: "Ace"}


def written_out(c: tuple[int, str]) -> str:
    """A card's text, its rank and suit written out ("10H", "AS"): the general form of str(card)."""
    return RANK_TEXT.get(c[0], str(c[0])) + c[1]


class Card(NamedTuple):
    rank: int
    suit: str

    @fast_path(general=written_out)
    def __str__(self) -> str:
        # precomputed below (card texts are written for every view and record); a Card made outside the packs
        # with an odd rank or suit is still written the same way
        text = _TEXT.get(self)
        return text if text is not None else RANK_TEXT.get(self.rank, str(self.rank)) + self.suit

    def __repr__(self) -> str:
        return f"Card({self})"

    @property
    def red(self) -> bool:
        return self.suit in RED

    def name(self, suit_word: str | None = None) -> str:
        """'the 4 of hearts', or with suit_word 'drumpfs': 'the 4 of drumpfs'."""
        rank = RANK_NAMES.get(self.rank, str(self.rank))
        return f"the {rank} of {suit_word or SUIT_NAMES[self.suit]}"


class BadCard(ValueError):
    """A card's text form could not be read."""


_ALL = {(r, s): Card(r, s) for s in SUITS for r in range(2, 15)}
_TEXT: dict[tuple[Any, ...], str] = {c: RANK_TEXT.get(c.rank, str(c.rank)) + c.suit for c in _ALL.values()}
_BY_TEXT = {str(c): c for c in _ALL.values()}
_BY_TEXT.update({("T" + s): _ALL[(10, s)] for s in SUITS})

PACK_52: tuple[Card, ...] = tuple(_ALL[(r, s)] for s in SUITS for r in range(2, 15))
PACK_32: tuple[Card, ...] = tuple(_ALL[(r, s)] for s in SUITS for r in range(7, 15))
# A card's place in PACK_52, the canonical order (suits C D H S, ranks 2 to A): the sort key of hands and throws.
PACK_PLACE: dict[Card, int] = {c: i for i, c in enumerate(PACK_52)}


def card(rank: int, suit: str) -> Card:
    return _ALL[(rank, suit)]


def card_from_str(text: str) -> Card:
    """'10H' / 'TH' / 'ah' -> the card. Raises BadCard with a readable message."""
    if type(text) is str:
        found = _BY_TEXT.get(text)  # the usual case: a card's own text form
        if found is not None:
            return found
    elif not isinstance(text, str):
        raise BadCard(f"A card is written like '10H' or 'AS', not {text!r}.")
    found = _BY_TEXT.get(text.strip().upper())
    if found is None:
        raise BadCard(f"'{text}' is not a card; write cards like '10H', 'AS' or '5D'.")
    return found


def cards_from_str(texts: Iterable[str] | str) -> list[Card]:
    """A list of card texts, or one space-separated string: '5H JH AH' -> [5H, JH, AH]."""
    if isinstance(texts, str):
        texts = texts.split()
    return [card_from_str(t) for t in texts]


def cards_one_by_one(texts: Sequence[str]) -> list[Card]:
    """[card_from_str(t) for t in texts]: cards_of_texts' general form."""
    return [card_from_str(t) for t in texts]


@fast_path(general=cards_one_by_one)
def cards_of_texts(texts: Sequence[str]) -> list[Card]:
    """[card_from_str(t) for t in texts], each text looked up at once: the fast path for the card texts a view
    wrote (their own forms; a policy reads them back). Anything else goes the general way, its error included."""
    try:
        return [_BY_TEXT[t] for t in texts]
    except (KeyError, TypeError):
        return [card_from_str(t) for t in texts]


def texts_one_by_one(cards: Iterable[Card]) -> list[str]:
    """[str(c) for c in cards]: cards_to_str's general form."""
    return [str(c) for c in cards]


@fast_path(general=texts_one_by_one)
def cards_to_str(cards: Iterable[Card]) -> list[str]:
    text = _TEXT.get
    return [text(c) or str(c) for c in cards]
