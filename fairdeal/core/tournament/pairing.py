"""Pairings (docs/tournaments.md, "Pairings"): which entries meet at which table in a round, who has a bye, and
which side of its table each entry takes. Pure functions of the tournament seed and the standings so far."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from fairdeal.core.fairness import DerivedRng
from fairdeal.core.tournament.seeds import seeded_order, sides_rng


class PairingError(ValueError):
    """A format that cannot be paired as asked (too many rounds for a round-robin, too few entries)."""


def max_rounds(fmt: str, entries: int, per_table: int) -> int:
    if entries < per_table:
        raise PairingError(f"A table needs {per_table} entries; {entries} registered.")
    if fmt == "round-robin":
        if per_table != 2:
            raise PairingError("A round-robin needs tables of two entries (partnership rule sets).")
        return entries - 1 if entries % 2 == 0 else entries
    return entries  # Swiss: any number; rematches come back once they cannot be avoided


def round_robin(order: Sequence[int], round_no: int) -> tuple[list[list[int]], list[int]]:
    """The circle method over the seeded order: the first entry stays, the others turn one place a round; a
    missing entry (odd count) is the bye. Tables in circle order."""
    ring: list[int | None] = list(order) + ([None] if len(order) % 2 else [])
    n = len(ring)
    rest = ring[1:]
    k = (round_no - 1) % (n - 1)
    rest = rest[-k:] + rest[:-k] if k else rest
    ring = [ring[0]] + rest
    tables, byes = [], []
    for i in range(n // 2):
        a, b = ring[i], ring[n - 1 - i]
        if a is None or b is None:
            byes.append(cast(int, b if a is None else a))  # the ring holds one None at most
        else:
            tables.append([a, b])
    return tables, byes


def swiss(
    ranking: Sequence[int], met: set[frozenset[Any]], byes_had: dict[int, int], per_table: int
) -> tuple[list[list[int]], list[int]]:
    """Swiss by the ranking (best first): the byes go to the lowest-ranked entries among those with the fewest
    byes; with tables of two, each entry from the top meets the next one below it it has not met (greedy: the
    first rematch-free choice, a rematch only when none is left); larger tables take consecutive entries."""
    ranking = list(ranking)
    bye_count = len(ranking) % per_table
    byes: list[int] = []
    for _ in range(bye_count):
        fewest = min(byes_had.get(e, 0) for e in ranking if e not in byes)
        pick = next(e for e in reversed(ranking) if e not in byes and byes_had.get(e, 0) == fewest)
        byes.append(pick)
    left = [e for e in ranking if e not in byes]
    tables: list[list[int]] = []
    if per_table == 2:
        while left:
            a = left.pop(0)
            j = next((i for i, b in enumerate(left) if frozenset((a, b)) not in met), 0)
            tables.append([a, left.pop(j)])
    else:
        tables = [left[i : i + per_table] for i in range(0, len(left), per_table)]
    return tables, byes


def turn_tables(rng: DerivedRng, tables: Sequence[Sequence[int]]) -> list[list[int]]:
    """Each table's entries in side order (side 0 first): a Fisher-Yates shuffle of the table, tables in order,
    all from the round's "sides/{r}" stream."""
    out = []
    for table in tables:
        deck = list(table)
        for i in range(len(deck) - 1, 0, -1):
            j = rng.randbelow(i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        out.append(deck)
    return out


def pair_round(
    tseed: bytes,
    fmt: str,
    entries: int,
    per_table: int,
    round_no: int,
    ranking: Sequence[int],
    met: set[frozenset[Any]],
    byes_had: dict[int, int],
) -> tuple[list[list[int]], list[int]]:
    """Round r's tables (each its entries in side order) and byes."""
    if round_no > max_rounds(fmt, entries, per_table):
        raise PairingError(f"A {fmt} of {entries} entries has at most {max_rounds(fmt, entries, per_table)} rounds.")
    if fmt == "round-robin":
        tables, byes = round_robin(seeded_order(tseed, entries), round_no)
    else:
        tables, byes = swiss(ranking, met, byes_had, per_table)
    return turn_tables(sides_rng(tseed, round_no), tables), byes
