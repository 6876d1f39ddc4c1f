"""Concrete Twenty Down deals for the scenario tests.

A deal is written as each seat's first packet and second packet (and optionally the stock's top cards); `deck_for`
turns it into the explicit deck FixedChance deals: index 0 is the first card dealt, to the dealer's left, one packet
per seat round to the dealer, then the second packets in the same order, then the stock (its top card first).
Cards not named anywhere follow in canonical order (FixedChance completes the deck).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from fairdeal.core.cards import PACK_32, Card, cards_from_str
from fairdeal.core.games import make_rules
from fairdeal.core.games.base import FixedChance, Move
from fairdeal.core.games.twenty_down import TwentyDownState

SPARE_DECKS = 24  # later deals of a test game use canonical-order decks


def deck_for(
    dealer: int, first: Mapping[int, str], second: Mapping[int, str] | None = None, stock: str = ""
) -> list[Card]:
    """Packets not given are filled with cards named nowhere else, in canonical order."""
    first_cards = {s: cards_from_str(t) for s, t in first.items()}
    second_cards = {s: cards_from_str(t) for s, t in (second or {}).items()}
    named = [c for p in (*first_cards.values(), *second_cards.values()) for c in p] + cards_from_str(stock)
    assert len(set(named)) == len(named), "a card is named twice"
    spare = iter([c for c in PACK_32 if c not in set(named)])
    size = len(next(iter(first_cards.values()), [None, None]))
    order = [(dealer + 1 + i) % 4 for i in range(4)]
    cards: list[Card] = []
    for packets, n in ((first_cards, size), (second_cards, 5 - size)):
        for s in order:
            cards.extend(packets[s] if s in packets else [next(spare) for _ in range(n)])
    return cards + cards_from_str(stock)


def game(*decks: Sequence[Card], dealer: int = 0, version: int | None = None, **settings) -> TwentyDownState:
    """A game (of the newest rules version unless `version`) whose k-th shuffle is decks[k]; later shuffles are
    canonical packs."""
    all_decks = list(decks) + [[] for _ in range(SPARE_DECKS)]
    return make_rules("twenty-down", settings, 4, version).new_game(FixedChance(all_decks, first_dealer=dealer))


def hand(state: TwentyDownState, seat: int) -> set[str]:
    return set(state.view(seat)["hand"])


def name_trump(state: TwentyDownState, suit: str) -> None:
    if state.phase == "blind":
        state.apply(state.to_move, Move("pass"))
    state.apply(state.to_move, Move.trump(suit))


def exchange_nothing(state: TwentyDownState) -> None:
    while state.phase == "exchange":
        state.apply(state.to_move, Move.throw(()))


def answer_stay(state: TwentyDownState, drops: Sequence[int] = ()) -> None:
    """Everyone asked stays in, except the seats in `drops`."""
    while state.phase == "stay":
        seat = state.to_move
        state.apply(seat, Move("drop") if seat in drops else Move("stay"))


def to_play(state: TwentyDownState, suit: str, drops: Sequence[int] = ()) -> None:
    """Name `suit`, nobody exchanges, everyone stays in except `drops`."""
    name_trump(state, suit)
    for _ in range(2):
        exchange_nothing(state)
        answer_stay(state, drops)
    assert state.phase == "play"


def play(state: TwentyDownState, *cards: str) -> None:
    """Play cards in turn, each by the seat to move."""
    for c in cards:
        state.apply(state.to_move, Move.play(cards_from_str(c)[0]))


def walkover_deal(state: TwentyDownState, suit: str = "S") -> None:
    """A quick deal: trump maker names `suit` (unless the deal has no choice), nobody exchanges, all asked drop."""
    deal = state.deal_no
    if state.phase in ("blind", "trump"):
        name_trump(state, suit)
    for _ in range(2):
        if state.deal_no == deal:
            exchange_nothing(state)
        if state.deal_no == deal:
            answer_stay(state, drops=range(4))
    while state.deal_no == deal and not state.is_over:  # a deal with no choice is played out by timeouts
        seat = state.to_move
        state.apply(seat, state.rules.timeout_move(state.view(seat)))
