"""Who may play what in Spades, and who takes a trick: from a hand, the current trick and "spades broken" (the
state and the bots both use them, so a bot sees exactly the rules the table enforces)."""

from __future__ import annotations

from collections.abc import Sequence

from fairdeal.core.cards import PACK_PLACE, SUIT_NAMES, Card
from fairdeal.core.fastpath import fast_path
from fairdeal.core.games.tricks import trick_winner

PLAYERS = 4
HAND_SIZE = 13
SPADE = "S"


def strength(card: Card, led: Card) -> int:
    """Trick strength: any spade beats every other card; otherwise only the led suit can win."""
    if card.suit == SPADE:
        return 100 + card.rank
    if card.suit == led.suit:
        return card.rank
    return -1


def winner_by_strength(plays: Sequence[tuple[int, Card]]) -> tuple[int, Card]:
    """trick_winner(plays, strength): winner_of's general form."""
    return trick_winner(plays, strength)


@fast_path(general=winner_by_strength)
def winner_of(plays: Sequence[tuple[int, Card]]) -> tuple[int, Card]:
    """trick_winner(plays, strength), card by card without the strength call: the card taking the trick so far
    is of the suit led or a spade, so a card beats it when of its suit and higher, or a spade over a non-spade
    (tests/games/spades/test_legal_cards.py holds it to trick_winner)."""
    best = plays[0]
    best_suit, best_rank = best[1].suit, best[1].rank
    for play in plays[1:]:
        card = play[1]
        suit = card.suit
        if suit == best_suit:
            if card.rank > best_rank:
                best, best_rank = play, card.rank
        elif suit == SPADE:
            best, best_suit, best_rank = play, SPADE, card.rank
    return best[0], best[1]


def _restriction(hand: Sequence[Card], trick: Sequence[Card], spades_broken: bool) -> tuple[str, bool] | None:
    """The one rule that limits which held card may be played to a trick holding `trick` (cards in play order):
    (suit, True) only that suit (follow it), (suit, False) anything but that suit (spades not broken), or None:
    any held card."""
    if not trick:
        if not spades_broken:
            for c in hand:
                if c.suit != SPADE:
                    return SPADE, False
        return None
    led = trick[0].suit
    for c in hand:
        if c.suit == led:
            return led, True
    return None


def why_not_card(hand: Sequence[Card], card: Card, trick: Sequence[Card], spades_broken: bool) -> str | None:
    """None if `card` may be played to a trick holding `trick` (cards in play order), else the sentence."""
    if card not in hand:
        return f"You do not hold {card.name()}."
    rule = _restriction(hand, trick, spades_broken)
    if rule is None or (card.suit == rule[0]) == rule[1]:
        return None
    return f"You must follow {SUIT_NAMES[rule[0]]}." if rule[1] else "Spades are not broken yet."


def may_play_by_refusal(
    hand: Sequence[Card], card: Card, plays: Sequence[tuple[int, Card]], spades_broken: bool
) -> bool:
    """why_not_card(hand, card, [c for _, c in plays], spades_broken) is None: may_play's general form."""
    return why_not_card(hand, card, [c for _, c in plays], spades_broken) is None


@fast_path(general=may_play_by_refusal)
def may_play(hand: Sequence[Card], card: Card, plays: Sequence[tuple[int, Card]], spades_broken: bool) -> bool:
    """why_not_card(hand, card, [c for _, c in plays], spades_broken) is None, from the trick's (seat, card)
    plays as they lie and without the sentence: the one card a replay checks at every play. Plain loops, no
    generators (tests/games/spades/test_legal_cards.py holds it to why_not_card)."""
    if card not in hand:
        return False
    suit = card.suit
    if plays:
        led = plays[0][1].suit
        if suit == led:
            return True
        for c in hand:
            if c.suit == led:
                return False  # they can follow the suit led
        return True
    if spades_broken or suit != SPADE:
        return True
    for c in hand:
        if c.suit != SPADE:
            return False  # a spade led before spades are broken by one who holds another suit
    return True


def legal_cards(hand: Sequence[Card], trick: Sequence[Card], spades_broken: bool) -> list[Card]:
    """The held cards why_not_card allows, in the hand's order (the same rule, looked up once)."""
    rule = _restriction(hand, trick, spades_broken)
    if rule is None:
        return list(hand)
    suit, only = rule
    return [c for c in hand if (c.suit == suit) == only]


def sort_cards(cards: Sequence[Card]) -> list[Card]:
    """Cards of the pack by suit, then rank: the pack's own order (C D H S, 2 to A), looked up."""
    return sorted(cards, key=PACK_PLACE.__getitem__)
