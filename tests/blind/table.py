"""A blind Spades table run in one process for the tests: every seat's messages of some deals, as a table's
store would hold them (commits, then each deal's shuffles, locks and releases, then every card opened as played,
then the reveals)."""

from __future__ import annotations

from fairdeal.core.blind.deal import spades_holders
from fairdeal.core.blind.local import run_deal
from fairdeal.core.blind.seat import BlindSeat


def play_deals(
    game: str = "g-blind", deals: int = 1, first_dealer: int = 0, seats: int = 4, opens: bool = True, tamper=None
):
    """(seats, messages, holders): deal k's dealer is first_dealer + k (the deal passes left). tamper: as
    local.run_deal's (then no card is received or opened)."""
    table = [BlindSeat(game, s, seats, secret=bytes([s + 1]) * 32) for s in range(seats)]
    messages = [s.commit() for s in table]
    holders = {}
    for k in range(deals):
        holders[k] = spades_holders((first_dealer + k) % seats, seats)
        messages += run_deal(table, k, holders[k], tamper=tamper, receive=tamper is None)
        if opens and tamper is None:
            for j, h in enumerate(holders[k]):
                messages.append(table[h].open(k, j))
    messages += [s.reveal() for s in table]
    return table, messages, holders


def resign(seat: BlindSeat, message: dict) -> dict:
    """A tampered message signed again by its own seat (a seat that cheats signs what it sends)."""
    from fairdeal.core.blind.messages import sign

    return sign(seat.identity, message)
