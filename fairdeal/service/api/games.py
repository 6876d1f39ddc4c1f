"""Games: the seat's view, moves, the event feed (long-poll and server-sent events), transcript, start record.

The event feed holds a request open while it waits (fairdeal/service/feed.py): run it under gunicorn's gevent
worker (deploy/gunicorn.conf.py, `fairdeal serve`), where a waiting request costs a greenlet and no poll.
"""

from __future__ import annotations

import time

from flask import Blueprint, Response, request, stream_with_context

from fairdeal.service import auth, feed, keepalives, moves, scoresheet
from fairdeal.service.api.blind import blind_answer  # BLIND HOOK
from fairdeal.service.api.common import int_arg, json_body, number_arg, player_ref, svc
from fairdeal.service.blind.log import log_id  # BLIND HOOK
from fairdeal.service.errors import ApiError, problem
from fairdeal.service.idempotent import request_key
from fairdeal.service.table_docs import seat_of
from fairdeal.service.tournament_tables import private_refusal
from fairdeal.service.translog import add_log_member
from fairdeal.service.views import game_summary, game_view, public_transcript, visible_records

bp = Blueprint("games", __name__)


@bp.before_request
def _tournament_tables_are_private():
    """A tournament table is its seated players' alone while its round is played (tournament_tables.py)."""
    game_id = (request.view_args or {}).get("game_id") or ""
    if game_id.startswith("T-"):
        try:
            p = player_ref(required=False)
        except ApiError:  # a token that is no longer good: the caller is nobody here (the route says 401 itself)
            p = None
        refusal = private_refusal(svc().store, game_id, p["id"] if p else None)
        if refusal is not None:
            raise refusal


@bp.get("/games/<game_id>")
def get_game(game_id):
    s = svc()
    p = player_ref(required=False)
    game = s.games.touch(game_id)
    return game_view(s.games, game, seat_of(game.table, p))


@bp.post("/games/<game_id>/moves")
def post_move(game_id):
    """Every refusal of a move is moves.py's (the request's shape first, then the game's)."""
    s = svc()
    p = player_ref()
    body = json_body()
    moves.check_request(body)
    idem = request_key()
    started = time.perf_counter()
    game, ack = s.games.play(game_id, p, body, idem)
    s.metrics.observe("fairdeal_move_seconds", time.perf_counter() - started)
    out = dict(ack)
    out["game"] = game_summary(s.games, game)
    return out, (200 if ack["replayed"] else 201)


def _after_arg() -> int:
    return int_arg("after", 0)


def _wait_arg(default: float) -> float:
    return max(0.0, min(number_arg("wait", default), svc().config.long_poll_max))


def _waiter(p) -> str:
    """Whose waits these are, for the per-player cap: the player, or the address of a caller without a token."""
    return "player:" + p["id"] if p else "addr:" + (request.remote_addr or "?")


@bp.errorhandler(feed.WaitRefused)
def _refused(exc: feed.WaitRefused):
    resp = problem(exc.status, exc.code, exc.detail, exc.title)
    resp.headers["Retry-After"] = str(exc.retry_after)
    return resp


@bp.get("/games/<game_id>/events")
def events(game_id):
    """Long-poll: answers as soon as the game is past `after`, has started (its last seed revealed) or has ended,
    else after `wait` seconds."""
    s = svc()
    token = auth.current_token(s.store)
    p, guard = ({"id": token[0]} if token else None), feed.guard_of(s, token)
    after, wait = _after_arg(), _wait_arg(s.config.long_poll_max)
    blind_after = int_arg("blind_after", -1)  # BLIND HOOK: also answer when the blind log grows past it
    until = time.monotonic() + feed.spread(wait)
    try:  # the watch comes first: an append after the read below wakes it (one read, no gap)
        w, away = feed.watch(s, game_id, guard, (log_id(game_id),) if blind_after >= 0 else ()), None
    except feed.WaitRefused as exc:
        w, away = None, exc  # notifications are away: answer what there is, but do not wait
    try:
        try:
            game = s.games.touch(game_id)
        except ApiError:
            if w is not None:
                w.close(linger=False)  # no such game: keep no subscription for it
                w = None
            raise
        done = feed.past(after, game.started)
        if blind_after >= 0 and game.table.get("blind"):  # BLIND HOOK
            moved = done
            done = lambda g: moved(g) or s.games.blind.progress(game_id).count > blind_after  # noqa: E731
        if not done(game) and wait > 0:
            if away is not None:
                raise away
            assert w is not None  # no refusal: the watch was made
            release = s.waits.take(_waiter(p))
            try:
                if guard is not None:
                    guard.check()  # the watch is live: an end from now on is heard, one before it is seen here
                game = feed.wait_past(s, w, game_id, done, until, game, guard)
            finally:
                release()
    finally:
        if w is not None:
            w.close()
    seat = seat_of(game.table, p)
    return {
        "seq": game.seq,
        "ended": game.ended,
        "records": visible_records(game, seat, after),
        "game": game_view(s.games, game, seat),
    }


@bp.get("/games/<game_id>/stream")
def stream(game_id):
    """Server-sent events: a `game` event with the caller's view at once, then one `record` event per move as
    it is recorded and a `game` event after each batch, and `end` when the game ends; a comment line every
    heartbeat seconds while nothing happens. The stream closes after at most stream_max seconds; reconnect
    with ?after=<last seq> (or the Last-Event-ID header). At a blind table, ?blind_after=<n> adds `blind` events:
    the blind log's answer past n at once, and again each time the log grows."""
    s = svc()
    token = auth.current_token(s.store)
    p, guard = ({"id": token[0]} if token else None), feed.guard_of(s, token)
    last_id = request.headers.get("Last-Event-ID", "")
    after = int(last_id) if last_id.isascii() and last_id.isdigit() else _after_arg()
    table, _ = s.tables.load(game_id)
    seat = seat_of(table, p)
    blind_after = int_arg("blind_after", -1)  # BLIND HOOK: `blind` events of the blind log past it
    news = None
    if blind_after >= 0 and table.get("blind"):
        news = feed.BlindNews(
            lambda: s.games.blind.progress(game_id).count, lambda g, n: blind_answer(s, g, n), blind_after
        )
    limit = time.monotonic() + feed.spread(s.config.stream_max)
    release = s.waits.take(_waiter(p))  # held for the stream's whole life
    try:
        w = feed.watch(s, game_id, guard, (log_id(game_id),) if news is not None else ())
    except BaseException:
        release()
        raise
    try:
        if guard is not None:
            guard.check()  # the watch is live: an end from now on is heard, one before it is seen here
    except BaseException:
        w.close()
        release()
        raise

    def close() -> None:
        w.close()
        release()

    make_beat = keepalives.beat_for(request.environ)  # None: the stream writes its own keep-alives
    beat = make_beat(w.poke) if make_beat is not None else None
    resp = Response(
        stream_with_context(feed.sse_events(s, w, game_id, seat, after, limit, guard, news, beat)),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
    resp.call_on_close(close)  # also when the stream never started: the client went away first
    return resp


@bp.get("/games/<game_id>/sheet")
def score_sheet(game_id):
    """The score sheet: every hand that has ended, as the engine summed it up (public to anyone)."""
    game = svc().games.touch(game_id)
    return {"game_id": game_id, "seq": game.seq, "hands": scoresheet.sheet(game)}


@bp.get("/games/<game_id>/transcript")
def transcript(game_id):
    s = svc()
    p = player_ref(required=False)
    game = s.games.touch(game_id)
    out = public_transcript(game, seat_of(game.table, p))
    return add_log_member(s.translog, out, game_id, game.protocol) if game.ended else out


@bp.get("/games/<game_id>/start")
def start_record(game_id):
    """The signed header records: the commit (from the table's creation), the seating with every seat's
    commitment (from the host's start: a seat checks its commitment there before it reveals), and the start."""
    s = svc()
    t = s.games.touch(game_id).transcript
    names = ("commit", "seating", "start") if t.get("protocol") != "fairdeal/1" else ("commit", "start")
    return {"protocol": t.get("protocol"), **{m: t.get(m) for n in names for m in (n, f"{n}_signature")}}
