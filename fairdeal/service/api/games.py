"""Games: the seat's view, moves, the event feed (long-poll and server-sent events), transcript, start record.

The event feed holds a request open while it waits: run gunicorn with a threaded worker class (gthread, as
deploy/gunicorn.conf.py does) or an async one; a sync worker would be blocked for the whole wait.
"""
from __future__ import annotations

import json
import time

from flask import Blueprint, Response, request, stream_with_context

from fairdeal.service.api.common import int_arg, json_body, number_arg, player_ref, svc
from fairdeal.service.errors import ApiError
from fairdeal.service.tables import seat_of
from fairdeal.service.views import game_summary, game_view, public_transcript, visible_records

bp = Blueprint("games", __name__)

IDEM_MAX = 128


def _seat(table: dict, p) -> int | None:
    return seat_of(table, p)


@bp.get("/games/<game_id>")
def get_game(game_id):
    s = svc()
    p = player_ref(required=False)
    table, c = s.tables.touch(game_id)
    return game_view(s.games, table, c, _seat(table, p))


@bp.post("/games/<game_id>/moves")
def post_move(game_id):
    s = svc()
    p = player_ref()
    body = json_body()
    unknown = set(body) - {"seat", "seq", "move"}
    if unknown:
        raise ApiError(422, "unknown-field", f"A move request has no field {sorted(unknown)[0]!r}; "
                                             "its fields are seq, move and (optionally) seat.")
    if "move" not in body or "seq" not in body:
        raise ApiError(400, "bad-request", "A move request is {\"seq\": <last seq you saw>, \"move\": {...}}.")
    idem = request.headers.get("Idempotency-Key")
    if idem is not None and not 1 <= len(idem) <= IDEM_MAX:
        raise ApiError(400, "bad-idempotency-key", f"An Idempotency-Key is 1 to {IDEM_MAX} characters.")
    started = time.perf_counter()
    seat = None

    def act(table, c):
        nonlocal seat
        seat = _seat(table, p)
        if seat is None:
            raise ApiError(403, "not-seated", "You have no seat at this game; spectators cannot move.")
        if "seat" in body and body["seat"] != seat:
            raise ApiError(403, "not-your-seat", f"Your token holds seat {seat}, not seat {body['seat']!r}.")
        if table["status"] == "open":
            raise ApiError(409, "not-started", "This table has not started yet.")
        if table["status"] == "revealing":
            raise ApiError(409, "not-started", "The table is waiting for its seats to reveal their client seeds; "
                                               "no card exists yet.")
        return s.games.player_move(c, table, seat, body["seq"], body["move"], idem, p["id"])
    table, c, ack = s.tables.act_fast(game_id, act, body["seq"])
    s.metrics.observe("fairdeal_move_seconds", time.perf_counter() - started)
    out = dict(ack)
    out["game"] = game_summary(s.games, table, c)
    return out, (200 if ack["replayed"] else 201)


def _after_arg() -> int:
    return int_arg("after", 0)


def _wait_arg(default: float) -> float:
    return max(0.0, min(number_arg("wait", default), svc().config.long_poll_max))


@bp.get("/games/<game_id>/events")
def events(game_id):
    """Long-poll: answers as soon as the game is past `after`, has started (its last seed revealed) or has ended,
    else after `wait` seconds."""
    s = svc()
    p = player_ref(required=False)
    after, wait = _after_arg(), _wait_arg(s.config.long_poll_max)
    deadline = time.monotonic() + wait
    started = None
    while True:
        table, c = s.tables.touch(game_id)
        started = c.started if started is None else started
        if c.seq > after or c.ended or c.started != started or time.monotonic() >= deadline:
            break
        time.sleep(s.config.poll_interval)
    seat = _seat(table, p)
    return {"seq": c.seq, "ended": c.ended, "records": visible_records(c, seat, after),
            "game": game_view(s.games, table, c, seat)}


@bp.get("/games/<game_id>/stream")
def stream(game_id):
    """Server-sent events: a `game` event with the caller's view at once, then one `record` event per move as
    it is recorded and a `game` event after each batch, and `end` when the game ends. The stream closes after
    at most long_poll_max seconds; reconnect with ?after=<last seq> (or the Last-Event-ID header)."""
    s = svc()
    p = player_ref(required=False)
    last_id = request.headers.get("Last-Event-ID", "")
    after = int(last_id) if last_id.isascii() and last_id.isdigit() else _after_arg()
    table, _ = s.tables.load(game_id)
    seat = _seat(table, p)
    limit = time.monotonic() + s.config.long_poll_max

    def gen():
        nonlocal after
        first = True
        while time.monotonic() < limit:
            table, c = s.tables.touch(game_id)
            if first or c.seq > after or c.ended:
                first = False
                for rec in visible_records(c, seat, after):
                    yield f"id: {rec['seq']}\nevent: record\ndata: {json.dumps(rec)}\n\n"
                after = c.seq
                yield f"event: game\ndata: {json.dumps(game_view(s.games, table, c, seat))}\n\n"
                if c.ended:
                    yield f"event: end\ndata: {json.dumps(c.transcript['end']['reason'])}\n\n"
                    return
            time.sleep(s.config.poll_interval)
    return Response(stream_with_context(gen()), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache"})


@bp.get("/games/<game_id>/transcript")
def transcript(game_id):
    s = svc()
    p = player_ref(required=False)
    table, c = s.tables.touch(game_id)
    return public_transcript(c, _seat(table, p))


@bp.get("/games/<game_id>/start")
def start_record(game_id):
    """The signed header records: the commit (from the table's creation), the seating with every seat's
    commitment (from the host's start: a seat checks its commitment there before it reveals), and the start."""
    s = svc()
    _, c = s.tables.touch(game_id)
    t = c.transcript
    names = ("commit", "seating", "start") if t.get("protocol") != "fairdeal/1" else ("commit", "start")
    return {"protocol": t.get("protocol"), **{m: t.get(m) for n in names for m in (n, f"{n}_signature")}}
