"""Where each hand of a game ends in its move records, from the kinds of the moves alone (thrown cards face down or
not): so a client can print a hand's result right after the hand's last move, before the next hand's first.

The same rules as the browser's HandTracker (fairdeal/service/web/static/js/deals.js): a 120s hand ends with its
last card, or is thrown in when everybody passes (or the dealer calls a redeal); a Spades hand ends with its 52nd
card; a Twenty Down deal ends with the last card of those who stayed in, when everybody else drops out, or is
dealt again when a new deal is asked for. Tests check both against the rules engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

HAND = 5
SPADES_HAND = 13


def family(rule_set: str) -> str | None:
    if rule_set in ("120s-auction", "120s-house", "120s-traditional"):
        return "onetwenty"
    return {"spades": "spades", "twenty-down": "twentydown"}.get(rule_set)


@dataclass(frozen=True)
class HandEnd:
    how: str  # "played", "thrown-in", "walkover" or "new-deal" (the same deal, shuffled again)


class HandTracker:
    """step(record) -> HandEnd when the record ended its hand, else None; trick_done is the index (within its hand)
    of the trick the record completed, or None."""

    def __init__(self, rule_set: str, players: int):
        self.family = family(rule_set)
        self.n = players
        self.ended = 0  # hands ended so far, new deals included: the pack index (hand_number) of the next
        self._begin()
        self.trick_done: int | None = None

    def _begin(self) -> None:
        self.passes = self.plays = self.drops = 0
        self.bid = self.trumped = False

    def step(self, record: Mapping[str, Any]) -> HandEnd | None:
        kind = (record.get("move") or {}).get("kind")
        n, end = self.n, None
        self.trick_done = None
        if self.family == "onetwenty":
            if not self.trumped:
                if kind in ("bid", "mine"):
                    self.bid = True
                elif kind == "pass":
                    self.passes += 1
                if kind == "trump":
                    self.trumped = True
                elif kind == "redeal" or (not self.bid and self.passes == n):
                    end = HandEnd("thrown-in")
            elif kind == "play":
                self.plays += 1
                if self.plays == HAND * n:
                    end = HandEnd("played")
        elif self.family == "spades":
            if kind == "play":
                self.plays += 1
                if self.plays == SPADES_HAND * n:
                    end = HandEnd("played")
        elif self.family == "twentydown":
            if kind == "newdeal":
                end = HandEnd("new-deal")
            elif kind == "drop":
                self.drops += 1
                if self.drops == n - 1:
                    end = HandEnd("walkover")
            elif kind == "play":
                self.plays += 1
                if self.plays == HAND * (n - self.drops):
                    end = HandEnd("played")
        if kind == "play" and self.family is not None:
            in_trick = n - self.drops if self.family == "twentydown" else n
            if self.plays % in_trick == 0:
                self.trick_done = self.plays // in_trick - 1
        if end is not None:
            self.ended += 1
            self._begin()
        return end
