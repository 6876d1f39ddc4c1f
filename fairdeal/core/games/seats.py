"""Seats and sides, for every rule set: the one place that says who sits where and who plays with whom.

Seats are numbered clockwise from 0; the player to the left of seat s is seat s+1 (mod the table size). At a
partnership table partners sit opposite: with four players seats 0 and 2 are side 0, seats 1 and 3 side 1.
Otherwise everyone plays alone and each seat is its own side (side i is seat i).
"""

from __future__ import annotations


def left_of(seat: int, players: int, steps: int = 1) -> int:
    """The seat `steps` places to the left (clockwise) of `seat`."""
    return (seat + steps) % players


def clockwise_from(start: int, players: int) -> list[int]:
    """All seats in turn order, beginning with `start`."""
    return [(start + i) % players for i in range(players)]


class Sides:
    """Who plays with whom at one table. Scores are kept per side: `count` of them."""

    __slots__ = ("players", "partners", "groups", "side")

    def __init__(self, players: int, partners: bool):
        if partners and players % 2:
            raise ValueError("partners sit opposite: a partnership table has an even number of seats")
        self.players = players
        self.partners = partners  # True: two sides of partners sitting opposite; False: everyone alone
        half = players // 2
        self.groups: tuple[tuple[int, ...], ...] = (
            tuple((k, k + half) for k in range(half)) if partners else tuple((s,) for s in range(players))
        )
        self.side: tuple[int, ...] = tuple(s % half if partners else s for s in range(players))  # seat -> side

    @property
    def count(self) -> int:
        return len(self.groups)

    def side_of(self, seat: int) -> int:
        return self.side[seat]

    def seats_of(self, side: int) -> tuple[int, ...]:
        return self.groups[side]

    def partner_of(self, seat: int) -> int | None:
        """The seat opposite at a partnership table; None when everyone plays alone."""
        return left_of(seat, self.players, self.players // 2) if self.partners else None

    def same_side(self, a: int, b: int) -> bool:
        return self.side[a] == self.side[b]

    def to_json(self) -> list[list[int]] | None:
        """The views' and results' `sides`: each side's seats, or None when everyone plays alone."""
        return [list(g) for g in self.groups] if self.partners else None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sides) and (self.players, self.partners) == (other.players, other.partners)

    def __hash__(self) -> int:
        return hash((self.players, self.partners))

    def __repr__(self) -> str:
        return f"Sides({self.players}, partners={self.partners})"
