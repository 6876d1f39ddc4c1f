"""120s: one engine for the three rule sets (auction 120s-auction, house 120s-house, traditional 120s-traditional).

ranks (card orders) · follow (who may play what) · bidding · scoring · state (the game) · bots (suggestion, bot,
timeout) · text (the rules line) · variant (what a table plays, as data) · rules (settings -> variant).
"""

from .rules import AuctionRules, HouseRules, OneTwentyRules, TraditionalRules
from .state import OneTwentyState
from .variant import Variant

__all__ = ["AuctionRules", "HouseRules", "TraditionalRules", "OneTwentyRules", "OneTwentyState", "Variant"]
