"""The card orders and the following rules of 120s-house and 120s-traditional, written again straight from
docs/rules/120s-house.md and docs/rules/120s-traditional.md ("Play"), independently of the engine's power tables,
so property tests can compare the engine with the rules on random hands."""

from __future__ import annotations

from fairdeal.core.cards import Card, card_from_str

RED_PLAIN = "A K Q J 10 9 8 7 6 5 4 3 2"
BLACK_PLAIN = "A K Q J 2 3 4 5 6 7 8 9 10"
RED_PLAIN_ACES_LOW = "K Q J 10 9 8 7 6 5 4 3 2 A"  # "lowest in diamonds"
BLACK_PLAIN_ACES_LOW = "K Q J A 2 3 4 5 6 7 8 9 10"  # "below the Jack in clubs and spades"
ACE_OF_HEARTS = card_from_str("AH")


def trump_order(trump: str) -> list[Card]:
    """120s-house's numbered list: 5, J, A of hearts, A (not hearts), K, Q, then the small trumps."""
    small = "10 9 8 7 6 4 3 2" if trump in "DH" else "2 3 4 6 7 8 9 10"
    ranks = ["5", "J", "AH", "A", "K", "Q"] + small.split()
    out = []
    for r in ranks:
        c = ACE_OF_HEARTS if r == "AH" else card_from_str(r + trump)
        if c not in out:
            out.append(c)
    return out


def is_trump(c: Card, trump: str) -> bool:
    return c.suit == trump or c == ACE_OF_HEARTS


def plain_place(c: Card, aces_low: bool) -> int:
    """0 for the best card of its suit; used only to compare cards of one suit."""
    red = c.suit in "DH"
    order = (RED_PLAIN_ACES_LOW if red else BLACK_PLAIN_ACES_LOW) if aces_low else (RED_PLAIN if red else BLACK_PLAIN)
    return order.split().index(str(c)[:-1])


def trick_winner(cards: list[Card], trump: str, aces_low: bool) -> int:
    """Index of the card that wins: the highest trump, else the highest card of the suit led."""
    order = trump_order(trump)
    trumps = [i for i, c in enumerate(cards) if is_trump(c, trump)]
    if trumps:
        return min(trumps, key=lambda i: order.index(cards[i]))
    led = cards[0].suit
    return min((i for i, c in enumerate(cards) if c.suit == led), key=lambda i: plain_place(cards[i], aces_low))


def may_play(hand: list[Card], led: Card | None, trump: str, void_must_trump: bool) -> set[Card]:
    """120s-house's "What you may play" (void_must_trump) and 120s-traditional's following and reneging, as
    docs/rules/<id>.md "Play" says them."""
    if led is None:
        return set(hand)
    trumps = [c for c in hand if is_trump(c, trump)]
    if is_trump(led, trump):
        if not trumps:
            return set(hand)
        order = trump_order(trump)
        big = {card_from_str("5" + trump), card_from_str("J" + trump), ACE_OF_HEARTS}
        if all(c in big and order.index(c) < order.index(led) for c in trumps):
            return set(hand)  # reneging: only big three cards above the card led
        return set(trumps)
    follow = [c for c in hand if c.suit == led.suit and not is_trump(c, trump)]
    if follow:
        return set(follow) | set(trumps)
    if trumps and void_must_trump:
        return set(trumps)
    return set(hand)


def ten_trick(winning: list[Card], trump: str, aces_low: bool) -> int:
    """Index of the trick worth 5 more: the highest trump that won a trick; if no trump won one, the winning card
    highest in its own suit's order (docs/rules/<id>.md "Scoring"); the earlier trick on a tie."""
    order = trump_order(trump)
    trumps = [i for i, c in enumerate(winning) if is_trump(c, trump)]
    if trumps:
        return min(trumps, key=lambda i: order.index(winning[i]))
    return min(range(len(winning)), key=lambda i: (plain_place(winning[i], aces_low), i))
