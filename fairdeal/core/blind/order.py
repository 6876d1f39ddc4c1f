"""The order of a blind deal (docs/blind.md, "Order of a deal"), for a table that relays: which messages a deal
still waits for and from whom, and whether a message comes in its turn. The service uses it to refuse a message
out of turn and, when the clock of the deal runs out, to name the seats it waits for (the end's blame); the
verifier, to check that blame (stall.py)."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Any


def waiting_for(messages: Iterable[Mapping[str, Any]], deal: int, seats: int) -> tuple[str, list[int]] | None:
    """(the step, the seats the deal waits for) — ("shuffle", [s]) or ("lock", [s]) for the one seat whose turn it
    is, ("release", [every seat that has not released]) — or None when every release of the deal is in."""
    return waiting_after({(m["type"], m["seat"]) for m in messages if m.get("deal") == deal}, seats)


def waiting_after(done: Collection[tuple[str, int]], seats: int) -> tuple[str, list[int]] | None:
    """waiting_for of a deal whose steps in are `done`: (type, seat) pairs."""
    for step in ("shuffle", "lock"):
        for s in range(seats):
            if (step, s) not in done:
                return step, [s]
    owing = [s for s in range(seats) if ("release", s) not in done]
    return ("release", owing) if owing else None


def in_turn(messages: Iterable[Mapping[str, Any]], message: Mapping[str, Any], seats: int) -> bool:
    """Whether `message` (a shuffle, lock or release of its deal) is one the deal waits for now."""
    waiting = waiting_for(messages, message["deal"], seats)
    return waiting is not None and waiting[0] == message["type"] and message["seat"] in waiting[1]
