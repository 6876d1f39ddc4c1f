"""The Spades rule set: no settings to choose (docs/rules/spades.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fairdeal.core.cards import cards_of_texts
from fairdeal.core.games.base import Chance, Move, Rng, Rules

from .bots import bot_card, safe_card, suggested_bid
from .state import SpadesState
from .text import DESCRIPTION


class SpadesRules(Rules):
    id = "spades"
    title = "Spades"
    table_sizes = (4,)
    partnership_sizes = (4,)
    SETTINGS = ()  # the seed names no options; the clocks belong to the service

    deal_layout = "spades-4"  # 13 each, one at a time from the dealer's left (docs/rules/spades.md)

    def new_game(self, chance: Chance) -> SpadesState:
        return SpadesState(self, chance)

    def describe(self) -> str:
        return DESCRIPTION

    def suggest(self, view: Mapping[str, Any]) -> Move | None:
        if view.get("phase") != "bid" or view.get("hand") is None:
            return None
        return Move.bid(suggested_bid(cards_of_texts(view["hand"])))

    def timeout_move(self, view: Mapping[str, Any]) -> Move:
        if view["phase"] == "bid":
            return Move.bid(suggested_bid(cards_of_texts(view["hand"])))
        return Move.play(safe_card(view, self.sides))

    def bot_move(self, view: Mapping[str, Any], rng: Rng) -> Move:
        if view["phase"] == "bid":
            return Move.bid(suggested_bid(cards_of_texts(view["hand"])))
        return Move.play(bot_card(view, self.sides, rng))
