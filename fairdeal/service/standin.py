"""Stand-ins: the table's bot plays a seated player's seat while the player is away, until they come back.

A seat is away (docs/api.md, "Leaving and coming back", the Decision there) when, since the player last came back
(the seat's `back_seq`, the game's sequence number then):
  - its player left the table (POST /tables/{id}/leave: the seat is `gone`), at a table whose host chose
    `"on_leave": "stand-in"` (the default; `"end"` ends the game instead, tables.py);
  - its clock ran out STANDIN_TIMEOUTS times in a row (two turns in a row without the player);
  - at a table without clocks, its turn has lasted `standin_after` seconds (FAIRDEAL_STANDIN_AFTER);
  - or its last move was already a stand-in's (once the bot stands in it stays until the player comes back).
The bot then moves for the seat at once, recorded with `"by": "stand-in"` (docs/transcript.md, "Stand-ins"), so the
verifier recomputes every such move as a bot move. Nobody stands in while every player of the table is away: a
game of bots alone is not played on (the silence limit abandons it, as before).

fairdeal/1 tables (opened before the upgrade) have no stand-in moves: they keep their old rules.

This module reads the game and its table document only; it writes nothing but through table_docs.update.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fairdeal.service import table_docs
from fairdeal.service.errors import ApiError
from fairdeal.service.game import Game

STANDIN_TIMEOUTS = 2
ON_LEAVE = ("stand-in", "end")


def on_leave(value: Any) -> str:
    """The table setting `on_leave`, checked: what a player's leave does to a running game."""
    if value is None:
        return "stand-in"
    if value not in ON_LEAVE:
        raise ApiError(
            422,
            "bad-on-leave",
            f"'on_leave' is \"stand-in\" (the table's bot plays the seat of a player "
            f'who leaves, until they come back) or "end" (a leave ends the game); '
            f"not {value!r}.",
            allowed=list(ON_LEAVE),
        )
    return value


def _seat_records(game: Game, seat: int, after: int):
    """The seat's move records after seq `after`, newest first."""
    for rec in reversed(game.transcript.get("records") or ()):
        if rec["seq"] <= after:
            return
        if rec["seat"] == seat:
            yield rec


def away_reason(game: Game, seat: int, now: float, standin_after: float, table: dict | None = None) -> str | None:
    """Why the seat's player counts as away ("left", "timeouts", "silent", "stood-in"), or None, by `table` (the
    table document; the game's as last read when None). Bots and fairdeal/1 games never are."""
    live, table = game.live, game.loaded_table if table is None else table
    if live is None or game.protocol == "fairdeal/1" or seat in live.bot_seats:
        return None
    s = table["seats"][seat]
    if s.get("gone"):
        return "left" if table.get("on_leave", "stand-in") == "stand-in" else None
    back = s.get("back_seq", 0)
    timeouts = 0
    for rec in _seat_records(game, seat, back):
        if rec["by"] == "stand-in" and timeouts == 0:
            return "stood-in"
        if rec["by"] != "timeout":
            break
        timeouts += 1
        if timeouts >= STANDIN_TIMEOUTS:
            return "timeouts"
    if (
        not live.timeouts_allowed
        and not live.state.is_over
        and live.state.to_move == seat
        and now - max(game.last_at, s.get("back_at", 0.0)) >= standin_after
    ):
        return "silent"
    return None


def humans(table: dict) -> list[int]:
    return [i for i, s in enumerate(table["seats"]) if not s["bot"]]


def stands_in(game: Game, seat: int, now: float, standin_after: float, table: dict | None = None) -> bool:
    """Whether the table's bot moves for `seat` now: its player is away and some other player is not (by `table`,
    the game's table document as last read when None)."""
    table = game.loaded_table if table is None else table
    if away_reason(game, seat, now, standin_after, table) is None:
        return False
    return any(away_reason(game, i, now, standin_after, table) is None for i in humans(table) if i != seat)


def claim(store, game: Game, seat: int, still: Callable[[dict], bool]) -> bool:
    """Before a move is made for a seat because of what its table document says (its player away, or gone): check
    `still(table)` on the document as the store holds it now, and mark on it, by compare-and-set, the move about
    to be made (the seat's `claimed_seq`). False when it no longer holds; game.table is the fresh document.

    Why: the copy this process holds can be older than a return another process recorded (a move's fast path
    does not read the table), and a return can land between this check and the append. With the mark, the two
    are ordered by the document: a return written first is seen here (no move is made for the player who came
    back); a return written after the mark takes effect after the marked move (come_back starts the player's
    seat at `claimed_seq`), so the move the bot was already making never counts as the bot standing in again."""
    mark = game.seq + 1
    holds = False

    def change(t: dict) -> None:
        nonlocal holds
        holds = still(t)
        if holds:
            t["seats"][seat]["claimed_seq"] = mark

    game.table = table_docs.update(store, game.game_id, change)
    return holds


def next_at(game: Game, standin_after: float) -> float | None:
    """When the silence rule would next put a stand-in at the seat to move (tables without clocks): for the
    sweeper's schedule."""
    live = game.live
    if live is None or game.ended or live.timeouts_allowed or live.state.is_over or game.protocol == "fairdeal/1":
        return None
    seat = live.state.to_move
    if seat is None or seat in live.bot_seats:
        return None
    return max(game.last_at, game.loaded_table["seats"][seat].get("back_at", 0.0)) + standin_after


def seats_view(game: Game, now: float, standin_after: float) -> list[dict]:
    """Per seat, for every view: whether its player is away and the bot stands in, and since which move."""
    out = []
    for i, s in enumerate(game.loaded_table["seats"]):
        reason = away_reason(game, i, now, standin_after)
        first = None
        if reason is not None:
            for rec in _seat_records(game, i, s.get("back_seq", 0)):
                if rec["by"] != "stand-in":
                    break
                first = rec["seq"]
        out.append(
            {
                "away": reason,
                "stand_in": reason is not None and stands_in(game, i, now, standin_after),
                "stand_in_from": first,
            }
        )
    return out


def come_back(games, player: dict, table_id: str) -> dict:
    """A seated player takes its seat back (after leaving, a crash, an outage): the stand-in stops at the game's
    move now. Harmless to repeat. Before the start there is nothing to come back to but the seat itself."""

    def seat_of(t: dict) -> int:
        mine = table_docs.seat_of(t, player)
        if mine is None:
            raise ApiError(403, "not-seated", "You have no seat at this table to come back to.")
        return mine

    def action(game: Game) -> None:
        seat_of(game.loaded_table)  # refuses a stranger
        if game.loaded_table["status"] == "over" or game.ended:
            raise ApiError(
                409,
                "table-over",
                f"This table's game has ended: fetch its transcript (GET /games/{table_id}/transcript).",
            )
        seq, at = game.seq, games.now()

        def change(t: dict) -> None:
            s = t["seats"][seat_of(t)]
            # a move the bot was already making for the seat (claim) counts as made before the return
            s.update(gone=False, back_seq=max(seq, s.get("claimed_seq", 0)), back_at=at)

        game.table = table_docs.update(games.store, table_id, change)

    games.act(table_id, action)
    return games.touch(table_id).loaded_table
