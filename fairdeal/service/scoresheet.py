"""The score sheet of a game: every hand played so far, as the engine summed it up when the hand ended (its
`last_hand`: bids, tricks or points taken, the changes and the running scores), without the hand's tricks.

Every member is public once its hand has ended (each was in every seat's view as `last_hand`), so anyone may
see the sheet. It is made by replaying the game's records through the engine on request, and kept for the
game's current move: the move path is not touched.

At a dealer-blind table the seed deals no card: the replay is the blind table's own engine (core/blind/hidden.py), which
takes every card as its open showed it (each record's play is an opened card), so the sheet comes from the opened
cards alone.
"""

from __future__ import annotations

from fairdeal.core.blind.hidden import blind_live_game  # BLIND HOOK
from fairdeal.core.replay import LiveGame
from fairdeal.service.blind.seating import is_blind  # BLIND HOOK


def sheet(c) -> list[dict]:
    """The summaries of the hands that have ended, in order."""
    live = c.live
    if live is None:
        return []
    kept = getattr(c, "sheet_at", None)
    if kept is not None and kept[0] == live.seq:
        return kept[1]
    if is_blind(c.table):  # BLIND HOOK
        game = blind_live_game(live.start, live.game_seed)
    else:
        game = LiveGame(live.start, live.game_seed, live.board_seed)
    rows: list[dict] = []
    last = None
    for rec in c.transcript.get("records") or ():
        game.adopt(rec)
        summary = game.state.last_hand  # type: ignore[attr-defined]  # every engine's state has one
        if summary is not None and summary is not last:
            last = summary
            rows.append({k: v for k, v in summary.items() if k != "tricks"})
    c.sheet_at = (live.seq, rows)
    return rows
