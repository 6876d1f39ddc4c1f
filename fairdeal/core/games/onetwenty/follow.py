"""Which card a player may play (docs/rules/<id>.md "Play": following and reneging), and the sentence when they
may not.

Pure functions of a hand, the card led and the trump suit, so the table, the bots and the timeout policy all
read the same rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from fairdeal.core.cards import SUIT_NAMES, Card
from fairdeal.core.fastpath import fast_path

from .ranks import ACE_OF_HEARTS, TRUMP_BASE, power_table, privileged


def card_name(c: Card, trump: str | None, word: str) -> str:
    """'the 4 of drumpfs' for a card of the trump suit, else its own suit's name; the ace of hearts, one of the
    top three whatever the trump, is always 'the Ace of hearts'."""
    return c.name(word + "s" if c.suit == trump and c != ACE_OF_HEARTS else None)


class Following:
    """The following rules under one trump suit, its tables looked up once: a hand's play asks for every card.
    `legal` is the list of cards a hand may play; `allows` answers for one card without building that list (a
    replay checks one card per position) and always equals `c in legal(...)`
    (tests/games/onetwenty/test_fast_paths.py)."""

    __slots__ = ("power", "trumps", "keep", "void_must_trump")

    def __init__(self, trump: str, void_must_trump: bool, aces_low: bool):
        self.power = power_table(trump, aces_low)
        self.trumps = frozenset(c for c, p in self.power.items() if p > TRUMP_BASE)
        self.keep = privileged(trump)
        self.void_must_trump = void_must_trump

    def legal(self, hand: Sequence[Card], led: Card | None, lead_trump: bool = False) -> list[Card]:
        trumps = self.trumps
        if led is None:
            if lead_trump:
                held = [c for c in hand if c in trumps]
                if held:
                    return held
            return list(hand)
        held = [c for c in hand if c in trumps]
        if led in trumps:
            # A trump led: play a trump, but the 5, J and A of hearts may be kept back against a lower card led.
            power, keep = self.power, self.keep
            led_power = power[led]
            if any(c not in keep or power[c] < led_power for c in held):
                return held
            return list(hand)
        suit = led.suit
        for c in hand:
            if c.suit == suit and c not in trumps:  # they can follow: the suit led or a trump
                return [c for c in hand if c in trumps or c.suit == suit]
        if held and self.void_must_trump:
            return held
        return list(hand)

    def allows_by_legal(self, hand: Sequence[Card], c: Card, led: Card | None, lead_trump: bool = False) -> bool:
        """c in legal(hand, led, lead_trump): allows' general form."""
        return c in self.legal(hand, led, lead_trump)

    @fast_path(general=allows_by_legal)
    def allows(self, hand: Sequence[Card], c: Card, led: Card | None, lead_trump: bool = False) -> bool:
        # plain loops rather than any(...) over generators: this runs for every card a replay checks
        if c not in hand:
            return False
        trumps = self.trumps
        if led is None:
            if not lead_trump or c in trumps:
                return True
            for x in hand:
                if x in trumps:
                    return False  # the first lead of a 30 must be a trump, and they hold one
            return True
        if c in trumps:
            return True  # a trump may always be played (to follow a trump, or instead of the suit led)
        if led in trumps:
            power, keep = self.power, self.keep
            led_power = power[led]
            for x in hand:
                if x in trumps and (x not in keep or power[x] < led_power):
                    return False  # a trump they must play
            return True
        suit = led.suit
        if c.suit == suit:
            return True
        for x in hand:
            if x.suit == suit and x not in trumps:
                return False  # they can follow suit
        if self.void_must_trump:
            for x in hand:
                if x in trumps:
                    return False  # void in the suit led, they must trump
        return True


@cache
def following(trump: str, void_must_trump: bool, aces_low: bool = False) -> Following:
    return Following(trump, void_must_trump, aces_low)


def legal_cards(
    hand: Sequence[Card],
    led: Card | None,
    trump: str,
    *,
    void_must_trump: bool,
    aces_low: bool = False,
    lead_trump: bool = False,
) -> list[Card]:
    """The cards of `hand` that may be played to a trick whose first card is `led` (None: leading).
    `lead_trump`: this is the first lead of a 30 and must be a trump if the leader holds one."""
    return following(trump, void_must_trump, aces_low).legal(hand, led, lead_trump)


def why_not_card(
    hand: Sequence[Card],
    c: Card,
    led: Card | None,
    trump: str,
    word: str,
    *,
    void_must_trump: bool,
    aces_low: bool = False,
    lead_trump: bool = False,
) -> str | None:
    """None if `c` may be played, else the sentence a player needs."""
    if c not in hand:
        return f"You do not hold {card_name(c, trump, word)}."
    allowed = legal_cards(hand, led, trump, void_must_trump=void_must_trump, aces_low=aces_low, lead_trump=lead_trump)
    if c in allowed:
        return None
    power = power_table(trump, aces_low)
    lowest = min(allowed, key=power.__getitem__)
    held = card_name(lowest, trump, word)
    if led is None:
        return f"On a bid of 30 the first lead must be a {word}, and you hold {held}."
    if power[led] > TRUMP_BASE:
        keep = privileged(trump)
        forcing = min((x for x in allowed if x not in keep or power[x] < power[led]), key=power.__getitem__)
        return f"You must play a {word}: a {word} was led and you hold {card_name(forcing, trump, word)}."
    suit = SUIT_NAMES[led.suit]
    if any(x.suit == led.suit and power[x] < TRUMP_BASE for x in allowed):
        follow = min((x for x in allowed if x.suit == led.suit and power[x] < TRUMP_BASE), key=power.__getitem__)
        return (
            f"You must follow {suit} or play a {word}: {suit} were led and you hold {card_name(follow, trump, word)}."
        )
    return f"You must play a {word}: you have no {suit} and you hold {held}."
