"""Twenty Down's scores, and when a game ends, by rules version (docs/rules/twenty-down.md, "Winning" and "The last
deals").

Version 1 plays the rule as written: the game ends after the first deal that leaves one player alone lowest at
zero or below. Nothing forces that (four players taking nothing with hearts trumps all gain 10), so a version 1
game may run on for ever. Version 2 adds the last deals: from counted deal LAST_DEALS_FROM on, the first deal that
leaves one player alone lowest ends the game, whatever the score; counted deal LAST_DEAL is the last one, after
which the lowest score wins, shared by everyone tied at it.
"""

from __future__ import annotations

from collections.abc import Sequence

START_SCORE = 20
NO_TRICK_PENALTY = 5  # "adds 5 points"
LAST_DEALS_FROM = 40  # version 2: from this counted deal on, one player alone lowest wins at any score
LAST_DEAL = 50  # version 2: after this counted deal the game is over whatever the scores


def winners_after_deal(scores: Sequence[int], counted_deal: int, version: int) -> list[int] | None:
    """The winners if the game ends after the deal that left `scores` (counted deal `counted_deal`), else None."""
    low = min(scores)
    lowest = [s for s, score in enumerate(scores) if score == low]
    if low <= 0 and len(lowest) == 1:
        return lowest
    if version >= 2:
        if counted_deal >= LAST_DEAL or (counted_deal >= LAST_DEALS_FROM and len(lowest) == 1):
            return lowest
    return None
