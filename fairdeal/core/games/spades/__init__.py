"""Spades (`spades`; every rule and choice is written in docs/rules/spades.md).

Four players in partnerships (0 & 2 against 1 & 3), 13 cards each, spades always trump, aces high. Each hand:
one bid per player from the dealer's left (0 is nil), then 13 tricks; the deal passes left.

The package has these parts, each usable alone:
- scoring: `score_team`, the score table of one team for one hand, a pure function (bags and the ten-bag penalty
  too), and `game_ends`;
- follow: `legal_cards` / `why_not_card`: who may play what, from a hand, the current trick and "spades broken" —
  the state and the bots both use them, so a bot sees exactly the rules the table enforces;
- bots: `suggested_bid`, `safe_card`, `bot_card`: the table's pencil tick, the timeout card and the bot, each a pure
  function of one seat's view; `safe_card_of` / `bot_card_of` decide from the facts they read (`SpadesPosition`),
  made from the view (the general path) or from the state (the fast path for the audit);
- state, rules, text: `SpadesState` / `SpadesRules`, the game on the shared interface of fairdeal.core.games.base,
  and the rules line.
"""

from .bots import SpadesPosition, bot_card, bot_card_of, safe_card, safe_card_of, suggested_bid
from .follow import HAND_SIZE, PLAYERS, SPADE, legal_cards, may_play, sort_cards, strength, why_not_card, winner_of
from .rules import SpadesRules
from .scoring import BAG_LIMIT, BAG_PENALTY, FLOOR, NIL_POINTS, TARGET, TeamHand, game_ends, score_team
from .state import SpadesState

__all__ = [
    "BAG_LIMIT",
    "BAG_PENALTY",
    "FLOOR",
    "HAND_SIZE",
    "NIL_POINTS",
    "PLAYERS",
    "SPADE",
    "TARGET",
    "SpadesPosition",
    "SpadesRules",
    "SpadesState",
    "TeamHand",
    "bot_card",
    "bot_card_of",
    "game_ends",
    "legal_cards",
    "may_play",
    "safe_card",
    "safe_card_of",
    "score_team",
    "sort_cards",
    "strength",
    "suggested_bid",
    "why_not_card",
    "winner_of",
]
