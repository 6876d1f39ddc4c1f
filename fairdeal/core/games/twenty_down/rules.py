"""The Twenty Down rule set: its settings, each off by default (docs/rules/twenty-down.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fairdeal.core.games.base import Chance, FirstChoiceRng, Move, Rng, Rules, Setting

from . import text
from .bots import TwentyDownPosition, bot_decision, timeout_decision
from .ranks import Order
from .state import TwentyDownState

_ON_OFF = (False, True)


class TwentyDownRules(Rules):
    id = "twenty-down"
    title = "Twenty Down"
    version = 2  # 2: the last deals end every game (scoring.winners_after_deal); 1 still replays as it was
    versions = (1, 2)
    table_sizes = (4,)
    SETTINGS = (
        Setting("jass_order", False, _ON_OFF, "Jass order in trumps (J 9 A 10 K Q 8 7)"),
        Setting("three_first_cards", False, _ON_OFF, "Three first cards (next, blind, new deal)"),
        Setting("drop_out_first", False, _ON_OFF, "Drop out first, then only those in exchange"),
        Setting("clubs_force_stay", False, _ON_OFF, "Clubs instead of diamonds force everyone to stay in"),
        Setting("at_least_two", False, _ON_OFF, "At least two players in each deal (the dealer stays)"),
        Setting("no_drop_twice", False, _ON_OFF, "No dropping out twice in a row nor at 5 or less"),
        Setting("no_endgame", False, _ON_OFF, "No endgame (no eight-deal rule)"),
        Setting("standard_order", False, _ON_OFF, "Standard order A K Q J 10 9 8 7"),
    )

    def __init__(self, settings: Mapping[str, Any] | None = None, players: int = 4, version: int | None = None):
        super().__init__(settings, players, version)
        self.order = Order(self.settings)

    @property
    def force_suit(self) -> str:
        """The trump suit that keeps everyone in."""
        return "C" if self.settings["clubs_force_stay"] else "D"

    @property
    def deal_layout(self) -> str:
        """ "twenty-down-2-3" (packets of two, then three) or "twenty-down-3-2" (three first cards):
        docs/rules/twenty-down.md, "Deal layout"."""
        return "twenty-down-3-2" if self.settings["three_first_cards"] else "twenty-down-2-3"

    def new_game(self, chance: Chance) -> TwentyDownState:
        return TwentyDownState(self, chance)

    def describe(self) -> str:
        return text.describe(self.settings, self.force_suit)

    # --- table advice and policies (pure functions of a seat's view) -----------------------------------
    def suggest(self, view: Mapping[str, Any]) -> Move | None:
        if view.get("seat") is None or view.get("to_move") != view.get("seat"):
            return None
        return self.bot_choice(TwentyDownPosition.of_view(view), FirstChoiceRng())

    position = TwentyDownPosition

    def bot_choice(self, pos: TwentyDownPosition, rng: Rng) -> Move:
        return bot_decision(self.order, pos, rng)

    def timeout_choice(self, pos: TwentyDownPosition) -> Move:
        return timeout_decision(self.order, pos)
