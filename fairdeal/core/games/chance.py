"""Where the cards come from, and a bot's randomness (see fairdeal.core.games.base): deals are chance events, never
moves."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from fairdeal.core.cards import Card, card_from_str


class Chance(Protocol):
    """The source of every random event of one game (see fairdeal.core.fairness for the seeded one)."""

    def first_dealer(self, players: int) -> int: ...

    def deck(self, hand: int, pack: Sequence[Card]) -> list[Card]:
        """Hand `hand`'s shuffled pack (hand counts every deal from 0, redeals included)."""

    def reshuffle(self, hand: int, round: int, cards: Sequence[Card]) -> list[Card]:
        """Hand `hand`'s seeded reshuffle number `round` of thrown cards."""


class FixedChance:
    """Explicit deck orders: decks[k] is hand k's pack, top card first (the first card dealt).

    A deck may be shorter than the pack when the remaining order does not matter; the engine completes it
    with the pack's missing cards in canonical order. Reshuffles keep the given order.
    """

    def __init__(self, decks: Sequence[Sequence[Card | str]], first_dealer: int = 0):
        self.decks = [[c if isinstance(c, Card) else card_from_str(c) for c in d] for d in decks]
        self._first_dealer = first_dealer

    def first_dealer(self, players: int) -> int:
        return self._first_dealer % players

    def deck(self, hand: int, pack: Sequence[Card]) -> list[Card]:
        if hand >= len(self.decks):
            raise IndexError(f"FixedChance has no deck for hand {hand}")
        given = list(self.decks[hand])
        if len(set(given)) != len(given) or not set(given) <= set(pack):
            raise ValueError("an explicit deck must name distinct cards of the pack")
        seen = set(given)
        return given + [c for c in pack if c not in seen]

    def reshuffle(self, hand: int, round: int, cards: Sequence[Card]) -> list[Card]:
        return list(cards)


class Rng(Protocol):
    """Seed-derived randomness handed to a bot for one decision (fairdeal.core.fairness.DerivedRng)."""

    def randbelow(self, n: int) -> int: ...


class FirstChoiceRng:
    """An Rng that always picks 0: for tests that want a bot without a seed."""

    def randbelow(self, n: int) -> int:
        return 0
