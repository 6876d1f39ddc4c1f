"""Twenty Down (Zwanzig ab), `twenty-down`: docs/rules/twenty-down.md has every choice beside its rule.

Four players on their own, each from 20 down to zero. A deal: a first packet each (two, or three with "three first
cards"), trumps named by the trump maker (the dealer's left), a second packet each, then exchanging and staying in
or dropping out (in either order), then five tricks by those still in.

Phases, in order (one of them is skipped where the table has no such decision):
  "blind"    three first cards only: the trump maker chooses blind trumps (trump "blind") or looks (pass); their
             view hides their cards until they have looked or named trumps.
  "trump"    the trump maker names a suit, or "next", or demands a new deal ("newdeal").
  "exchange" / "stay"   each in turn from the dealer's left (stay first with "drop out first").
  "play"     five tricks; the trump maker leads.
  "over"     the game has ended.

The bot, the timeout move and the table's suggestion decide from `TwentyDownPosition`, the facts they read, made
from a seat's view (the general path: TwentyDownRules.bot_move / timeout_move / suggest) or from the state (the
fast path the audit replays with: GameState.bot_move / timeout_move); tests hold the two equal at every decision.

ranks (the card order) · follow (who may play what) · scoring (when the game ends) · bots (suggestion, bot,
timeout) · state (the game) · text (the rules line) · rules (the settings).
"""

from .bots import TwentyDownPosition, bot_decision, hand_strength, timeout_decision
from .follow import HAND_SIZE, MAX_THROW, TRICKS, legal_plays, may_play, play_refusal
from .ranks import JASS_TRUMP_ORDER, PLAIN_ORDER, STANDARD_ORDER, SUITS, TRUMP_BONUS, Order
from .rules import TwentyDownRules
from .scoring import LAST_DEAL, LAST_DEALS_FROM, NO_TRICK_PENALTY, START_SCORE, winners_after_deal
from .state import ENDGAME_AFTER, TwentyDownState

__all__ = [
    "ENDGAME_AFTER",
    "HAND_SIZE",
    "JASS_TRUMP_ORDER",
    "LAST_DEAL",
    "LAST_DEALS_FROM",
    "MAX_THROW",
    "NO_TRICK_PENALTY",
    "PLAIN_ORDER",
    "STANDARD_ORDER",
    "START_SCORE",
    "SUITS",
    "TRICKS",
    "TRUMP_BONUS",
    "Order",
    "TwentyDownPosition",
    "TwentyDownRules",
    "TwentyDownState",
    "bot_decision",
    "hand_strength",
    "legal_plays",
    "may_play",
    "play_refusal",
    "timeout_decision",
    "winners_after_deal",
]
