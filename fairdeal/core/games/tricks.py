"""The trick-taking core shared by every rule set: tricks and trick winners (seats and sides: seats.py).

What differs between games is data handed in here: which seats play, who leads, and a `strength` function that
ranks a card given the card led (trump-aware, -1 for a card that cannot win). Following rules differ per game and
live with each game; they use the `TrickPlay` state below.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from fairdeal.core.cards import _TEXT, Card

# strength(card, led_card) -> int; higher wins; a card that cannot win the trick returns -1
Strength = Callable[[Card, Card], int]


def rank_table(order_high_to_low: Sequence[int]) -> dict[int, int]:
    """rank -> strength for a suit order written highest first: [14, 13, 12] -> {14: 3, 13: 2, 12: 1}."""
    n = len(order_high_to_low)
    return {rank: n - i for i, rank in enumerate(order_high_to_low)}


@dataclass
class Trick:
    leader: int
    plays: list[tuple[int, Card]] = field(default_factory=list)
    winner: int | None = None
    winning_card: Card | None = None

    @property
    def led(self) -> Card | None:
        return self.plays[0][1] if self.plays else None

    def to_json(self) -> dict[str, Any]:
        # A complete trick never changes, and every view lists the hand's tricks: its JSON form is made once
        # (views are read, never changed in place). The cache is no dataclass field: == and repr ignore it.
        cached = self.__dict__.get("_json")
        if cached is not None and cached[0] == (self.winner, self.winning_card, len(self.plays)):
            made: dict[str, Any] = cached[1]
            return made
        text = _TEXT.get  # a pack card's text form without a call to Card.__str__
        out = {
            "leader": self.leader,
            "plays": [[s, text(c) or str(c)] for s, c in self.plays],
            "winner": self.winner,
            "winning_card": str(self.winning_card) if self.winning_card else None,
        }
        if self.winner is not None:
            self._json = ((self.winner, self.winning_card, len(self.plays)), out)
        return out


def trick_winner(plays: Sequence[tuple[int, Card]], strength: Strength) -> tuple[int, Card]:
    """The seat and card that win: the highest strength; the led card always can win."""
    led = plays[0][1]
    best_seat, best_card = plays[0]
    best = strength(best_card, led)
    for seat, card in plays[1:]:
        s = strength(card, led)
        if s > best:
            best_seat, best_card, best = seat, card, s
    return best_seat, best_card


@cache
def _next_seats(seats: tuple[int, ...]) -> dict[int, int]:
    """Each seat's next seat in turn; shared, never changed."""
    return {s: seats[(i + 1) % len(seats)] for i, s in enumerate(seats)}


class TrickPlay:
    """The play of one hand's tricks by the seats still in it.

    `hands[seat]` is the list of cards of a seat (a dict or a list; the game's own lists, mutated as cards are played);
    `seats` are the seats taking part, in clockwise order; `leader` leads the first trick.
    """

    def __init__(
        self,
        hands: dict[int, list[Card]],
        seats: Sequence[int],
        leader: int,
        strength: Strength,
        tricks_in_hand: int,
        winner: Callable[[Sequence[tuple[int, Card]]], tuple[int, Card]] | None = None,
    ):
        """`winner(plays)`, optional, is a game's faster form of trick_winner(plays, strength): the same answer."""
        self.hands = hands
        self.seats = list(seats)
        self.strength = strength
        self.winner = winner
        self.tricks_in_hand = tricks_in_hand
        self.current = Trick(leader)
        self.done: list[Trick] = []
        self.next_seat = _next_seats(tuple(self.seats))  # seat -> the next seat in turn (read only)
        self._size = len(self.seats)  # cards to a trick (the seats never change during a hand)
        self.to_move: int | None = leader  # the seat to play next; None once the hand's tricks are done

    @property
    def finished(self) -> bool:
        return len(self.done) == self.tricks_in_hand

    def play(self, seat: int, card: Card) -> Trick | None:
        """Play a card (legality is the game's job). Returns the trick when this card completed it."""
        self.hands[seat].remove(card)
        cur = self.current
        plays = cur.plays
        plays.append((seat, card))
        if len(plays) < self._size:
            self.to_move = self.next_seat[seat]
            return None
        winner = self.winner
        w, c = trick_winner(plays, self.strength) if winner is None else winner(plays)
        cur.winner, cur.winning_card = w, c
        done = self.done
        done.append(cur)
        self.current = Trick(w)
        self.to_move = w if len(done) < self.tricks_in_hand else None
        return cur

    def tricks_won(self, seat: int) -> int:
        return sum(1 for t in self.done if t.winner == seat)

    def played_cards(self) -> list[Card]:
        return [c for t in self.done for _, c in t.plays] + [c for _, c in self.current.plays]

    def to_json(self) -> dict[str, Any]:
        return {
            "current": self.current.to_json(),
            "done": [t.to_json() for t in self.done],
        }
