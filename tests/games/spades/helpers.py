"""Concrete Spades deals for the scenario tests.

A deal is written as each seat's thirteen cards; `deck_for` turns it into the explicit deck FixedChance deals
(index 0 is the first card dealt, to the dealer's left, then one card at a time round the table).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from fairdeal.core.cards import Card, cards_from_str
from fairdeal.core.games import make_rules
from fairdeal.core.games.base import FixedChance, Move
from fairdeal.core.games.spades import SpadesState

# Each seat holds one whole suit: whoever holds the spades takes every trick.
SUITED = {
    0: "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC",
    1: "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
    2: "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
    3: "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS",
}

# Dealer 0, so seat 1 leads. Seat 3 is void in hearts; seat 1 holds the AH and four low spades.
MIXED = {
    0: "4H 5H 6H 7H 8H 9H 10H JH JD QD QS KS AS",
    1: "AH KD 2C 3C 4C 5C 6C 7C 8C 2S 3S 4S 5S",
    2: "KH QH 2H 3H AD 9C 10C JC QC KC AC 6S 7S",
    3: "2D 3D 4D 5D 6D 7D 8D 9D 10D 8S 9S 10S JS",
}

# Dealer 0, seat 1 leads: three top clubs, then nothing but spades (2S..JS); seat 2 holds QS KS AS.
SPADES_AFTER_CLUBS = {
    0: "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QH KH AH",
    1: "AC KC QC 2S 3S 4S 5S 6S 7S 8S 9S 10S JS",
    2: "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QS KS AS",
    3: "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
}


def deck_for(dealer: int, hands: Mapping[int, str]) -> list[Card]:
    """The explicit deck that deals `hands` (13 cards per seat) when `dealer` deals."""
    cards = {s: cards_from_str(h) for s, h in hands.items()}
    assert sorted(cards) == [0, 1, 2, 3] and all(len(c) == 13 for c in cards.values())
    assert len({c for cs in cards.values() for c in cs}) == 52
    return [cards[(dealer + 1 + i % 4) % 4][i // 4] for i in range(52)]


def new_game(*deals: Mapping[int, str], first_dealer: int = 0) -> SpadesState:
    """A game whose k-th hand deals deals[k] (the dealer moves left each hand)."""
    decks = [deck_for((first_dealer + k) % 4, d) for k, d in enumerate(deals)]
    return make_rules("spades").new_game(FixedChance(decks, first_dealer=first_dealer))


def bid(game: SpadesState, bids: Mapping[int, int]) -> None:
    """Every seat bids bids[seat], in turn from the dealer's left."""
    for _ in range(4):
        seat = game.to_move
        game.apply(seat, Move.bid(bids[seat]))


def play(game: SpadesState, *cards: str) -> None:
    """Each card in turn by the seat to move."""
    for text in cards:
        game.apply(game.to_move, Move.play(cards_from_str(text)[0]))


def play_out(game: SpadesState) -> None:
    """Finish the hand, each seat playing its first legal card (the SUITED deal's tricks do not depend on it)."""
    hand = game.hand_number
    while not game.is_over and game.hand_number == hand and game.phase == "play":
        seat = game.to_move
        game.apply(seat, game.legal_moves(seat)[0])


def view_for(
    seat: int,
    hand: str,
    plays: Sequence[tuple[int, str]] = (),
    bids: Sequence[int] = (3, 3, 3, 3),
    taken: Sequence[int] = (0, 0, 0, 0),
    spades_broken: bool = False,
    tricks: Sequence[Sequence[tuple[int, str]]] = (),
) -> dict:
    """A seat's view in the play phase, written by hand for the policy tests (only the keys the policies read,
    in the shape SpadesState.view gives them)."""
    return {
        "rule_set": "spades",
        "seat": seat,
        "phase": "play",
        "to_move": seat,
        "hand": hand.split(),
        "bids": list(bids),
        "tricks_taken": list(taken),
        "trick": {"leader": plays[0][0] if plays else seat, "plays": [[s, c] for s, c in plays]},
        "tricks": [{"plays": [[s, c] for s, c in t]} for t in tricks],
        "spades_broken": spades_broken,
    }
