"""Dealer-blind tables: the blind log of a game, read (long-poll) and written (a seat's shuffle, lock, release or
reveal). Opens go with their moves (POST /games/{id}/moves), commits with the seat (POST /tables/{id}/join).

Everything in the blind log is served to everyone: releases are sealed to their holder (a pad from the two
seats' box keys), so they give no one else anything, and the secrets come only with the reveals at the end.
"""

from __future__ import annotations

import json
import time

from flask import Blueprint

from fairdeal.service import auth, feed
from fairdeal.service.api.common import int_arg, json_body, number_arg, player_ref, svc
from fairdeal.service.blind.log import log_id
from fairdeal.service.blind.seating import is_blind
from fairdeal.service.errors import ApiError
from fairdeal.service.table_docs import seat_of

bp = Blueprint("blind", __name__)


def _blind_table(table: dict) -> None:
    if not is_blind(table):
        raise ApiError(409, "not-blind", "This is not a dealer-blind table: it has no blind log.")


def blind_answer(s, game, after: int) -> dict:
    blind, table = s.games.blind, game.table
    p = blind.progress(game.game_id, table["players"])
    messages = []
    for i, text in enumerate(p.texts[after:], start=after):
        e = json.loads(text)
        if "m" in e:
            messages.append({"index": i, "message": e["m"], **({"seq": e["seq"], "by": e["by"]} if "seq" in e else {})})
    return {
        "game_id": game.game_id,
        "after": after,
        **blind.summary(game),
        "messages": messages,
        "seq": game.seq,
        "status": "over" if game.ended else table["status"],
        "end_reason": game.transcript["end"]["reason"] if game.ended else None,
    }


@bp.get("/games/<game_id>/blind")
def read_blind(game_id):
    """The blind log past `after`; with `wait`, answers when it grows past `after` or the game ends."""
    s = svc()
    token = auth.current_token(s.store)
    p, guard = ({"id": token[0]} if token else None), feed.guard_of(s, token)
    after = int_arg("after", 0)
    wait = max(0.0, min(number_arg("wait", 0), s.config.long_poll_max))
    game = s.games.touch(game_id)
    _blind_table(game.table)
    if wait > 0 and s.games.blind.progress(game_id).count <= after and not game.ended:
        w = feed.watch(s, game_id, guard, also=(log_id(game_id),))
        release = s.waits.take("player:" + p["id"] if p else "addr:?")
        try:
            done = lambda g: g.ended or s.games.blind.progress(game_id).count > after  # noqa: E731
            game = feed.wait_past(s, w, game_id, done, time.monotonic() + wait, None, guard)
        finally:
            release()
            w.close()
    return blind_answer(s, game, after)


def _seat_at_running_table(game, p) -> int:
    """The seat of the token's player at this started blind table (403/409 otherwise)."""
    _blind_table(game.table)
    seat = seat_of(game.table, p)
    if seat is None:
        raise ApiError(403, "not-seated", "You have no seat at this table.")
    if game.live is None:
        raise ApiError(409, "not-started", "This table has not started yet.")
    return seat


@bp.post("/games/<game_id>/blind")
def post_blind(game_id):
    s = svc()
    p = player_ref()
    body = json_body()
    _, (answer, new) = s.games.act(
        game_id, lambda game: s.games.blind.post(game, _seat_at_running_table(game, p), body)
    )
    return answer, (201 if new else 200)


@bp.post("/games/<game_id>/blind/complaints")
def post_complaint(game_id):
    """A seat's client says an open in the log is wrong ({"deal", "position"}): checked, that one open; a wrong
    one aborts the game blamed on its opener, a complaint that does not hold is refused and changes nothing."""
    s = svc()
    p = player_ref()
    body = json_body()
    _, answer = s.games.act(game_id, lambda game: s.games.blind.complain(game, _seat_at_running_table(game, p), body))
    return answer, 200
