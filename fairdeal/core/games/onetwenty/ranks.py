"""Card orders of 120s (docs/rules/<id>.md "Play"), precomputed once per (trump suit, plain-aces-low).

A card's *power* under a trump suit is one integer:
- trumps: 100 + their place from the bottom of the trump order (5, J, A of hearts, A, K, Q, then red 10..2 /
  black 2..10), so any trump beats any plain card;
- plain cards: their place in their own suit's order counted from the bottom of a full 13-card order, so "a king
  is a king in every suit" (the ace of hearts, always a trump, leaves a gap in hearts rather than moving the king).
The trick strength and the 10-point trick both read this one table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

from fairdeal.core.cards import PACK_52, SUITS, Card, card
from fairdeal.core.fastpath import fast_path
from fairdeal.core.games.tricks import trick_winner

TRUMP_BASE = 100
ACE_OF_HEARTS = card(14, "H")
RED_SMALL = (10, 9, 8, 7, 6, 5, 4, 3, 2)  # high to low
BLACK_SMALL = (2, 3, 4, 5, 6, 7, 8, 9, 10)


def small_cards(suit: str) -> tuple[int, ...]:
    """'Highest in red; lowest in black': the small cards of a suit, highest first."""
    return RED_SMALL if suit in "DH" else BLACK_SMALL


def plain_order(suit: str, aces_low: bool = False) -> tuple[int, ...]:
    """A plain suit's ranks, highest first, as a full 13-card order (the ace of hearts' slot is kept)."""
    small = small_cards(suit)
    if not aces_low:
        return (14, 13, 12, 11) + small
    if suit in "DH":  # diamonds K Q J 10..2 A (hearts has no plain ace; its order is the same)
        return (13, 12, 11) + small + (14,)
    return (13, 12, 11, 14) + small  # black K Q J A 2..10


def trump_order(trump: str) -> tuple[Card, ...]:
    """The trump suit's cards, highest first: 5, J, A of hearts, A (not hearts), K, Q, small cards."""
    top = [card(5, trump), card(11, trump), ACE_OF_HEARTS]
    if trump != "H":
        top.append(card(14, trump))
    top += [card(13, trump), card(12, trump)]
    return tuple(top) + tuple(card(r, trump) for r in small_cards(trump) if r != 5)


@cache
def power_table(trump: str, aces_low: bool = False) -> dict[Card, int]:
    """card -> power under this trump suit (see the module doc)."""
    order = trump_order(trump)
    table = {c: TRUMP_BASE + len(order) - i for i, c in enumerate(order)}
    for suit in SUITS:
        ranks = plain_order(suit, aces_low)
        for i, rank in enumerate(ranks):
            c = card(rank, suit)
            if c not in table:
                table[c] = len(ranks) - i
    assert len(table) == len(PACK_52)
    return table


def is_trump(c: Card, trump: str) -> bool:
    return c.suit == trump or c is ACE_OF_HEARTS or c == ACE_OF_HEARTS


def privileged(trump: str) -> frozenset[Card]:
    """The cards that may be kept back against a lower trump led: the 5 and J of trumps and the ace of hearts."""
    return frozenset((card(5, trump), card(11, trump), ACE_OF_HEARTS))


@cache
def make_strength(trump: str, aces_low: bool = False) -> Callable[[Card, Card], int]:
    """The strength function for fairdeal.core.games.tricks: any trump beats any plain card; among plain cards only
    the suit led can win."""
    power = power_table(trump, aces_low)

    def strength(c: Card, led: Card) -> int:
        p = power[c]
        if p > TRUMP_BASE:
            return p
        if power[led] > TRUMP_BASE or c.suit != led.suit:
            return -1
        return p

    return strength


def winner_by_strength(trump: str, aces_low: bool = False) -> Callable[[Sequence[tuple[int, Card]]], tuple[int, Card]]:
    """trick_winner(plays, make_strength(trump, aces_low)) as a function of the plays: make_winner's general form."""
    strength = make_strength(trump, aces_low)
    return lambda plays: trick_winner(plays, strength)


def beaters_by_strength(trump: str, aces_low: bool = False) -> Callable[[Sequence[Card], Card, Card], list[Card]]:
    """beaters(cards, best, led) read from the strength function, one call per card: make_beaters' general form."""
    strength = make_strength(trump, aces_low)
    return lambda cards, best, led: [c for c in cards if strength(c, led) > strength(best, led)]


@cache
@fast_path(general=winner_by_strength, factory=True)
def make_winner(trump: str, aces_low: bool = False) -> Callable[[Sequence[tuple[int, Card]]], tuple[int, Card]]:
    """The seat and card that win a trick: what fairdeal.core.games.tricks.trick_winner gives with make_strength(trump,
    aces_low), without a call per card. The card led's strength is its power; a later card beats the best so far
    if its power is higher and it is a trump or of the suit led (a plain card of another suit never wins)."""
    power = power_table(trump, aces_low)

    def winner(plays: Sequence[tuple[int, Card]]) -> tuple[int, Card]:
        best_seat, best_card = plays[0]
        led_suit = best_card.suit
        best = power[best_card]
        for seat, c in plays[1:]:
            p = power[c]
            if p > best and (p > TRUMP_BASE or c.suit == led_suit):
                best_seat, best_card, best = seat, c, p
        return best_seat, best_card

    return winner


@cache
@fast_path(general=beaters_by_strength, factory=True)
def make_beaters(trump: str, aces_low: bool = False) -> Callable[[Sequence[Card], Card, Card], list[Card]]:
    """beaters(cards, best, led): the cards c of `cards` with strength(c, led) > strength(best, led), in their order
    (strength: make_strength(trump, aces_low)), without a call per card. A card's strength is its power when it
    is a trump, or a plain card of the suit led when a plain card was led; else -1, which beats nothing."""
    power = power_table(trump, aces_low)

    def beaters(cards: Sequence[Card], best: Card, led: Card) -> list[Card]:
        plain_led = power[led] <= TRUMP_BASE
        led_suit = led.suit
        p = power[best]
        to_beat = p if p > TRUMP_BASE or (plain_led and best.suit == led_suit) else -1
        if plain_led:
            return [c for c in cards if power[c] > to_beat and (power[c] > TRUMP_BASE or c.suit == led_suit)]
        return [c for c in cards if power[c] > to_beat and power[c] > TRUMP_BASE]

    return beaters
