"""The rules line of Twenty Down: the table's rules in full, as one text (the lobby's room line)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fairdeal.core.cards import SUIT_NAMES


def describe(s: Mapping[str, Any], force_suit: str) -> str:
    """The table's rules in full, from its settings (and the trump suit that keeps everyone in)."""
    order = "A K Q J 10 9 8 7" if s["standard_order"] else "A 10 K Q J 9 8 7"
    trump_order = "; trumps J 9 A 10 K Q 8 7" if s["jass_order"] else ""
    first = (
        "three first cards each, then two; the trump maker may name trumps, say next (fourth card face "
        "up names trumps), choose blind before looking (scores double), or with only 7s and 8s demand "
        "a new deal"
        if s["three_first_cards"]
        else "two cards each, the trump maker (dealer's left) names trumps, then three more each"
    )
    order_of = (
        "stay in or drop out, then those in exchange up to three cards"
        if s["drop_out_first"]
        else "exchange up to three cards, then stay in or drop out"
    )
    extra = []
    if s["at_least_two"]:
        extra.append("at least two players in each deal (the dealer stays in if all others drop)")
    if s["no_drop_twice"]:
        extra.append("no dropping out twice in a row nor at 5 or less")
    endgame = "no endgame" if s["no_endgame"] else "after eight deals hearts are trumps and nobody may drop out"
    return (
        f"Twenty Down for 4: 32 cards, order {order}{trump_order}; start at 20; {first}; {order_of}; "
        f"the trump maker always stays in, {SUIT_NAMES[force_suit]} trumps keep everyone in"
        + "".join(f"; {e}" for e in extra)
        + "; follow suit, else trump, else any card; -1 a trick, +5 for staying in without a trick, "
        f"hearts double; {endgame}; first to zero or less wins (lowest wins a tie)."
    )
