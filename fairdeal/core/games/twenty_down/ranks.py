"""The card order of Twenty Down: plain suits and the trump suit (which differ only with Jass order), and each
card's value and trick strength under a trump suit."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from fairdeal.core.cards import PACK_32, Card
from fairdeal.core.games.tricks import rank_table

SUITS = ("C", "D", "H", "S")
PLAIN_ORDER = (14, 10, 13, 12, 11, 9, 8, 7)  # A 10 K Q J 9 8 7
STANDARD_ORDER = (14, 13, 12, 11, 10, 9, 8, 7)  # A K Q J 10 9 8 7 (variant "standard order")
JASS_TRUMP_ORDER = (11, 9, 14, 10, 13, 12, 8, 7)  # J 9 A 10 K Q 8 7 (variant "Jass order", trumps only)
TRUMP_BONUS = 100  # a trump's strength is above every plain card's

Strength = Callable[[Card, Card], int]  # (card, card led) -> its strength in the trick
SortKey = Callable[[Card], tuple[int, int]]
_Tables = tuple[dict[str | None, dict[Card, int]], dict[str | None, SortKey], dict[str | None, Strength]]
_ORDER_TABLES: dict[tuple[tuple[int, ...], tuple[int, ...]], _Tables] = {}


class Order:
    """The table's card order: plain suits and the trump suit (which differ only with Jass order)."""

    def __init__(self, settings: Mapping[str, Any]):
        self.plain_ranks = STANDARD_ORDER if settings["standard_order"] else PLAIN_ORDER
        self.trump_ranks = JASS_TRUMP_ORDER if settings["jass_order"] else self.plain_ranks
        self.plain = rank_table(self.plain_ranks)
        self.trump = rank_table(self.trump_ranks)
        # per trump suit, made when first asked and shared by every table of the same order (a replay makes a
        # table a game): the card values, the view's hand order and the trick strength
        self._values, self._sort_keys, self._strengths = _ORDER_TABLES.setdefault(
            (self.plain_ranks, self.trump_ranks), ({}, {}, {})
        )

    def value(self, card: Card, trump: str | None) -> int:
        """Rank within its own suit's order, trumps above everything."""
        if card.suit == trump:
            return TRUMP_BONUS + self.trump[card.rank]
        return self.plain[card.rank]

    def values(self, trump: str | None) -> Mapping[Card, int]:
        """value(card, trump) of every card of the pack, worked out once a trump suit (the trick strength, the
        view's hand order and the policies read it at every card)."""
        table = self._values.get(trump)
        if table is None:
            table = self._values[trump] = {c: self.value(c, trump) for c in PACK_32}
        return table

    def strength(self, trump: str | None) -> Strength:
        """The trick strength with `trump` (one function a trump suit, made once)."""
        strength = self._strengths.get(trump)
        if strength is None:
            value = self.values(trump).__getitem__

            def strength(card: Card, led: Card) -> int:
                if card.suit == trump or card.suit == led.suit:
                    return value(card)
                return -1

            self._strengths[trump] = strength
        return strength

    def sort_key(self, trump: str | None) -> SortKey:
        """The hand's order in a view: by suit (C D H S), highest first."""
        key = self._sort_keys.get(trump)
        if key is None:
            keys = {c: (SUITS.index(c.suit), -v) for c, v in self.values(trump).items()}
            key = self._sort_keys[trump] = keys.__getitem__
        return key
