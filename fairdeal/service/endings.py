"""When the service ends a running game before its rules do, and why (docs/api.md, "Clocks and endings"):

- "move-cap": the game has FAIRDEAL_MAX_MOVES moves and is still running (no rule set's real game comes near:
  bench/game_lengths.py);
- "no-humans": no seat was ever a human's (a host who sat nobody down started a table of bots) and the silence
  limit has passed since the start, as for a table whose humans stopped moving;
- "abandoned": every human left, or none moved for the silence limit, or a seat whose player left is to make a
  decision that has no clock (nobody may move for them).
Checked before every bot move too, so a table of bots, or one whose humans all left, cannot run on for ever.
A fairdeal/1 game has none of the newer reasons: it is "abandoned" whatever the cause.
"""

from __future__ import annotations

from typing import Any

FAIRDEAL_1_REASONS = ("finished", "abandoned", "cancelled")


def clock_seconds(live: Any, table: dict, kind: str | None) -> int | None:
    """The seconds the seat to move has for a decision of `kind`, or None when that kind has no clock (then no
    timeout move may end it: the verifier fails one)."""
    if kind is None or kind not in live.clocked:
        return None
    return (table.get("clocks") or {}).get(kind)


def abandon_at(game: Any, abandon_after: float) -> float | None:
    """When the game is abandoned unless someone moves first."""
    table = game.table
    humans = [s for s in table["seats"] if not s["bot"]]
    if humans and all(s.get("gone") for s in humans):
        return game.last_at
    live = game.live
    if live is not None and not live.state.is_over:
        seat = live.state.to_move  # no clock for this decision: nobody may move for a player who left
        if (
            seat is not None
            and seat not in live.bot_seats
            and table["seats"][seat].get("gone")
            and clock_seconds(live, table, game.decision_kind()) is None
        ):
            return game.last_at
    return game.last_human_at + abandon_after


def cut_short(game: Any, config: Any, now: float) -> str | None:
    """The reason to end this running game now, or None."""
    reason = None
    if game.live.seq >= config.max_moves:
        reason = "move-cap"
    else:
        due = abandon_at(game, config.abandon_after)
        if due is not None and due <= now:
            reason = "abandoned" if any(not s["bot"] for s in game.table["seats"]) else "no-humans"
    if reason is not None and game.live.protocol == "fairdeal/1" and reason not in FAIRDEAL_1_REASONS:
        return "abandoned"
    return reason
