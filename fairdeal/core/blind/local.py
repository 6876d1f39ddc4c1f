"""A whole blind deal run in one process, every seat's part in protocol order: for tests, benchmarks, the test
vectors and a server whose seats are all bots. A table that relays between clients does the same steps, one
message at a time (docs/blind.md, "Order of a deal")."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from fairdeal.core.blind.seat import BlindSeat

Tamper = Callable[[dict[str, Any]], dict[str, Any]]


def run_deal(
    seats: Sequence[BlindSeat],
    deal: int,
    holders: Sequence[int | None],
    tamper: Tamper | None = None,
    receive: bool = True,
) -> list[dict[str, Any]]:
    """The deal's messages in order (shuffles, locks, releases); afterwards (receive) every seat has received its
    cards. tamper(message) -> the message sent instead (tests: a cheating seat; later seats work on it)."""
    send = tamper or (lambda m: m)
    out: list[dict[str, Any]] = []
    prev: Any = None  # the deck before the next step (None: the card points, for seat 0's shuffle)
    for s in seats:
        m = send(s.shuffle(deal, prev))
        out.append(m)
        prev = m["deck"]
    for s in seats:
        m = send(s.lock(deal, prev))
        out.append(m)
        prev = m["deck"]
    box_keys = [s.box_key for s in seats]
    releases = {s.seat: send(s.release(deal, holders, box_keys)) for s in seats}
    out.extend(releases.values())
    if receive:
        for s in seats:
            s.receive(deal, prev, releases, holders, box_keys)
    return out


def final_deck(deal_messages: Sequence[dict[str, Any]]) -> list[str]:
    deck: list[str] = [m for m in deal_messages if m["type"] == "lock"][-1]["deck"]
    return deck
