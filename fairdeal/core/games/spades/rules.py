"""The Spades rule set: no settings to choose (docs/rules/spades.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fairdeal.core.cards import cards_of_texts
from fairdeal.core.games.base import Chance, Move, Rng, Rules

from .bots import SpadesPosition, bot_card_of, safe_card_of, suggested_bid
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

    position = SpadesPosition

    def timeout_choice(self, pos: SpadesPosition) -> Move:
        if pos.phase == "bid":
            return Move.bid(suggested_bid(pos.hand))
        return Move.play(safe_card_of(pos, self.sides))

    def bot_choice(self, pos: SpadesPosition, rng: Rng) -> Move:
        if pos.phase == "bid":
            return Move.bid(suggested_bid(pos.hand))
        return Move.play(bot_card_of(pos, self.sides, rng))
