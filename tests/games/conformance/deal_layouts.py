"""The deal layouts of docs/rules/*.md ("Deal layout"), written again from those pages alone, without the engines:
what an independent verifier does to re-derive every hand from the decks, the deal records and the moves.

`Rederived` follows one game move by move: each deal's deck goes where its layout says, a kitty joins the bidder's
hand at the trump move, a throw is replaced from the top of the pack (or stock), a card played leaves the hand.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from fairdeal.core.cards import PACK_32, PACK_52

_AUCTION = re.compile(r"120s-auction-(\d)")
_KITTY_AFTER = re.compile(r"120s-five-then-kitty(\d)-(\d)")
_PACKETS = {"twenty-down-2-3": (2, 3), "twenty-down-3-2": (3, 2)}
SUITS = ("C", "D", "H", "S")


class Dealt:
    """One deal as its layout lays it out: hands by seat, the kitty, the pack (top first), second packets."""

    def __init__(
        self, hands: list[list[str]], kitty: list[str], pack: list[str], second: list[list[str]] | None = None
    ):
        self.hands, self.kitty, self.pack, self.second = hands, kitty, pack, second


def pack_of(layout: str):
    return PACK_32 if layout.startswith("twenty-down") else PACK_52


def lay_out(layout: str, deck: Sequence[str], dealer: int) -> Dealt:
    """Where each deck index goes (deck[0] is the top card, the first dealt)."""
    deck = list(deck)
    m = _AUCTION.fullmatch(layout)
    if m:
        n = int(m.group(1))
        hands: list[list[str]] = [[] for _ in range(n)]
        kitty, i = [], 0
        for rnd in range(5):
            for j in range(n):
                hands[(dealer + 1 + j) % n].append(deck[i])
                i += 1
            if rnd < 4:
                kitty.append(deck[i])
                i += 1
        return Dealt(hands, kitty, deck[i:])
    m = _KITTY_AFTER.fullmatch(layout)
    if m:
        k, n = int(m.group(1)), int(m.group(2))
        hands = [[] for _ in range(n)]
        for rnd in range(5):
            for j in range(n):
                hands[(dealer + 1 + j) % n].append(deck[rnd * n + j])
        return Dealt(hands, deck[5 * n : 5 * n + k], deck[5 * n + k :])
    if layout == "spades-4":
        hands = [[] for _ in range(4)]
        for i, card in enumerate(deck):
            hands[(dealer + 1 + i) % 4].append(card)
        return Dealt(hands, [], [])
    if layout in _PACKETS:
        first, second = _PACKETS[layout]
        hands, seconds = [[] for _ in range(4)], [[] for _ in range(4)]
        for j in range(4):
            seat = (dealer + 1 + j) % 4
            hands[seat] = deck[first * j : first * (j + 1)]
            seconds[seat] = deck[4 * first + second * j : 4 * first + second * (j + 1)]
        return Dealt(hands, [], deck[20:], seconds)
    raise ValueError(f"no such deal layout {layout!r}")


class Rederived:
    """Every hand of one game, re-derived from `chance` (decks, reshuffles), the deal records and the moves."""

    def __init__(self, layout: str, chance: Any, settings: Mapping[str, Any]):
        self.layout, self.chance, self.settings = layout, chance, settings
        self.deals_seen = 0
        self.counted = 0  # deals that count toward Twenty Down's eight (a new-deal demand does not)
        self.dealt: Dealt | None = None

    @property
    def hands(self) -> list[list[str]]:
        return self.dealt.hands

    def deal(self, hand_number: int, dealer: int) -> None:
        assert hand_number == self.deals_seen, "deals are numbered from 0 in order"
        deck = [str(c) for c in self.chance.deck(hand_number, pack_of(self.layout))]
        self.dealt = lay_out(self.layout, deck, dealer)
        if not getattr(self, "newdeal", False):
            self.counted += 1
        self.hand_number, self.throws, self.newdeal = hand_number, 0, False
        self.deals_seen += 1
        if self.layout in _PACKETS and self.counted > 8 and not self.settings.get("no_endgame"):
            self._second_packets()  # an endgame deal: hearts are trumps as it starts

    def _second_packets(self) -> None:
        if self.dealt.second is not None:
            for seat, packet in enumerate(self.dealt.second):
                self.dealt.hands[seat] += packet
            self.dealt.second = None

    def move(self, seat: int, move: Mapping[str, Any]) -> None:
        """Follow one move (its JSON form), as the "Deal layout" sections say."""
        d, kind = self.dealt, move["kind"]
        twenty_down = self.layout in _PACKETS
        if kind == "newdeal":
            self.newdeal = True
        elif kind == "play":
            d.hands[seat].remove(move["card"])
        elif kind == "trump" and not twenty_down:
            d.hands[seat] += d.kitty  # the bidder names trump, then takes the kitty
            d.kitty = []
        elif kind == "trump" and move["value"] in (*SUITS, "next"):
            self._second_packets()
        elif kind == "throw":
            cards = list(move["cards"])
            for c in cards:
                d.hands[seat].remove(c)
            if twenty_down:
                draw = len(cards)
            else:
                if cards and self.settings.get("shuffle_thrown_back"):
                    back = self.chance.reshuffle(self.hand_number, self.throws, [_card(c) for c in cards])
                    d.pack += [str(c) for c in back]  # under the pack, the first of them nearest the top
                draw = 5 - len(d.hands[seat])
            d.hands[seat] += d.pack[:draw]
            d.pack = d.pack[draw:]
            self.throws += 1


def _card(text: str):
    from fairdeal.core.cards import card_from_str

    return card_from_str(text)
