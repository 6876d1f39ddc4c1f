"""Who may play what in Twenty Down: follow suit; void, trump if able; else any card. And the deal's sizes."""

from __future__ import annotations

from collections.abc import Sequence

from fairdeal.core.cards import SUIT_NAMES, Card
from fairdeal.core.fastpath import fast_path

TRICKS = 5
HAND_SIZE = 5
MAX_THROW = 3


def _suit_to_play(hand: Sequence[Card], plays: Sequence[tuple[int, Card]], trump: str | None) -> str | None:
    """The one rule of a card played to a trick holding `plays`: follow suit; void: trump if able; else any card.
    The suit the card must be of, or None: any held card."""
    if not plays:
        return None
    led, trumps = plays[0][1].suit, False
    for c in hand:
        suit = c.suit
        if suit == led:
            return led
        if suit == trump:
            trumps = True
    return trump if trumps else None


def may_play_by_refusal(hand: Sequence[Card], plays: Sequence[tuple[int, Card]], trump: str | None, card: Card) -> bool:
    """play_refusal(hand, plays, trump, card) is None: may_play's general form."""
    return play_refusal(hand, plays, trump, card) is None


@fast_path(general=may_play_by_refusal)
def may_play(hand: Sequence[Card], plays: Sequence[tuple[int, Card]], trump: str | None, card: Card) -> bool:
    """play_refusal(hand, plays, trump, card) is None, without the sentence nor the list of the hand's suits: the
    one card a replay checks at every play (tests/games/twenty_down/test_play_and_scoring.py holds it to
    play_refusal)."""
    if card not in hand:
        return False
    if not plays:
        return True
    led, suit = plays[0][1].suit, card.suit
    if suit == led:
        return True
    for c in hand:
        if c.suit == led:
            return False  # they must follow
    if suit == trump:
        return True
    for c in hand:
        if c.suit == trump:
            return False  # void in the suit led: they must trump
    return True


def play_refusal(hand: Sequence[Card], plays: Sequence[tuple[int, Card]], trump: str | None, card: Card) -> str | None:
    """None when `card` may be played (_suit_to_play), else the sentence."""
    if card not in hand:
        return f"You do not hold {card}."
    must = _suit_to_play(hand, plays, trump)
    if must is None or card.suit == must:
        return None
    led = plays[0][1].suit
    if must == led:
        return f"You must follow {SUIT_NAMES[led]}."
    return f"You must play a trump: you have no {SUIT_NAMES[led]}."


def legal_plays(hand: Sequence[Card], plays: Sequence[tuple[int, Card]], trump: str | None) -> list[Card]:
    """The held cards play_refusal allows, in the hand's order (the same rule, looked up once)."""
    must = _suit_to_play(hand, plays, trump)
    return list(hand) if must is None else [c for c in hand if c.suit == must]
