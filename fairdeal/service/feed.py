"""The event feed's one mechanism, shared by long-poll and server-sent events: wait until a game is past a
sequence number (or has ended) without a thread or a poll per waiting client.

A wait takes a slot (the caps below), then a Watch on the game (store/changes.py), and only then reads the
game: an append after that read wakes the watch, so a client that comes back with its last seq misses
nothing. While it waits it reads nothing. It wakes on a notification; at the game's next due time (a clock
running out, a silent game's abandonment), where its own read applies the timeout move, so waiting never
delays a deadline, sweeper or not; or at its own time limit.

A wait answered for a token (a seat's private view) also hears that token's end (TokenGuard): ending or
revoking it, on any instance, ends the wait at once (a long-poll answers 401, a stream sends `token-ended` and
closes), and the wait ends by itself when the token expires. The token was resolved when the request came;
it is read once more from the store after the watch is live, so an end between the two is not missed.
"""

from __future__ import annotations

import json
import math
import random
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from fairdeal.service import auth
from fairdeal.service.errors import ApiError, problem_body
from fairdeal.service.keepalives import Beat
from fairdeal.service.store.changes import ChangesUnavailable, Watch
from fairdeal.service.views import game_view, visible_records

DUE_SLACK = 0.005  # wake this long after a due time, so the read finds it due
RECHECK = 1.0  # a game still due after a read (a step limit hit): look again this much later
SPREAD_FROM = 10.0  # waits at least this long end at a random point of their last fifth (spread())
RETRY_MS = (2_000, 10_000)  # a stream's `retry:` (ms before a client reconnects), drawn at random in this range


def retry_field() -> str:
    """The stream's first lines: the reconnection time, at random per stream, so that the clients of a server
    that restarts (every stream dropped at once) come back spread over seconds, not at once into the listen
    backlog. EventSource obeys it; the page's feed.js and fairdeal.client read it and back off from it."""
    return f"retry: {random.randint(*RETRY_MS)}\n\n"


def spread(seconds: float) -> float:
    """A long wait's length, shortened at random by up to a fifth. Clients that arrived together (a restart,
    a tournament's start) would otherwise time out together and come back together, wave after wave; answering
    a long-poll early is within its contract ("at most `wait` seconds")."""
    return seconds * random.uniform(0.8, 1.0) if seconds >= SPREAD_FROM else seconds


class WaitRefused(ApiError):
    """A wait this process will not hold now; the answer carries Retry-After."""

    def __init__(self, status: int, code: str, detail: str, retry_after: int):
        super().__init__(status, code, detail)
        self.retry_after = retry_after


class Waits:
    """This process's open waits: at most `max_waits`, and `max_waits_per_player` for one player (or, without
    a token, one address). Counted here, not in the store: taking a slot costs no round trip, and a process
    that dies takes its slots with it."""

    def __init__(self, max_waits: int, per_player: int, metrics=None):
        self.max_waits, self.per_player, self.metrics = max_waits, per_player, metrics
        self._lock = threading.Lock()
        self._open = 0
        self._by_player: dict[str, int] = {}

    @property
    def open(self) -> int:
        return self._open

    def take(self, who: str) -> Callable[[], None]:
        """A slot for `who`, or WaitRefused; returns the release function (calling it twice is harmless)."""
        with self._lock:
            mine = self._by_player.get(who, 0)
            if mine >= self.per_player:
                refused = WaitRefused(
                    429,
                    "too-many-waits",
                    f"You already have {mine} event-feed requests open on this server (at most "
                    f"{self.per_player}); close one, or wait for one to answer.",
                    retry_after=5,
                )
            elif self._open >= self.max_waits:
                refused = WaitRefused(
                    503,
                    "server-busy",
                    f"This server holds as many waiting requests as it can ({self.max_waits}); try again shortly.",
                    retry_after=random.randint(5, 15),
                )
            else:
                refused = None
                self._open += 1
                self._by_player[who] = mine + 1
        if refused is not None:
            if self.metrics:
                self.metrics.inc("fairdeal_waits_refused_total", code=refused.code)
            raise refused
        if self.metrics:
            self.metrics.inc("fairdeal_waits_started_total")
            self.metrics.add("fairdeal_waiting_clients", 1)
        released = False

        def release() -> None:
            nonlocal released
            with self._lock:
                if released:
                    return
                released = True
                self._open -= 1
                left = self._by_player[who] - 1
                if left:
                    self._by_player[who] = left
                else:
                    del self._by_player[who]
            if self.metrics:
                self.metrics.inc("fairdeal_waits_ended_total")
                self.metrics.add("fairdeal_waiting_clients", -1)

        return release


class TokenEnded(ApiError):
    """The token a wait was answered for ended or expired while it waited."""

    def __init__(self, detail: str):
        super().__init__(
            401,
            "unauthorized",
            detail,
            headers={"WWW-Authenticate": auth.CHALLENGE + f', error="invalid_token", error_description="{detail}"'},
        )


class TokenGuard:
    """The token a wait is answered for: its topic (announced when it ends, on every instance) and its expiry."""

    def __init__(self, services, token_hash: str, expires: float | None):
        self.services, self.hash, self.expires = services, token_hash, expires
        self.topic = auth.token_topic(token_hash)

    def ends_in(self) -> float:
        """Seconds until the token expires (inf: never)."""
        return math.inf if self.expires is None else self.expires - self.services.tables.now()

    def check(self) -> None:
        """TokenEnded unless the token is live, as the store says (not a cache)."""
        reason = auth.token_live(self.services.store, self.hash, self.services.tables.now())
        if reason is not None:
            self.services.metrics.inc("fairdeal_waits_token_ended_total")
            raise TokenEnded(reason)

    def heard_end(self, w: Watch) -> bool:
        """Whether the wait must look at the token again: its end was announced, or its expiry came."""
        return w.heard(self.topic) or self.ends_in() <= 0


def guard_of(services, token) -> TokenGuard | None:
    """The guard of auth.current_token()'s answer (None: a caller without a token)."""
    return None if token is None else TokenGuard(services, token[1], token[2])


def watch(services, game_id: str, guard: TokenGuard | None = None, also: tuple[str, ...] = ()) -> Watch:
    """`also`: more topics one wait hears (a blind table's blind log: BLIND HOOK)."""
    try:
        return services.store.changes().watch(game_id, (() if guard is None else (guard.topic,)) + also)
    except ChangesUnavailable:
        services.metrics.inc("fairdeal_waits_refused_total", code="feed-unavailable")
        raise WaitRefused(
            503,
            "feed-unavailable",
            "The event feed cannot wait right now (the store's notifications are away); try again shortly.",
            retry_after=5,
        ) from None


def until_due(services, game) -> float:
    """Seconds until something is due in the game (a timeout move, abandonment); inf when nothing is."""
    due = services.games.clocks.next_check(game)
    if due is None:
        return math.inf
    left = due - services.tables.now()
    return left + DUE_SLACK if left > 0 else RECHECK


def past(after: int, started: bool) -> Callable[[Any], bool]:
    """The feed's news: a move past `after`, the start (the last seed revealed: no move yet, but the deal is
    there to see), or the end."""
    return lambda c: c.seq > after or c.ended or c.started != started


def wait_past(
    services,
    w: Watch,
    game_id: str,
    done: Callable[[object], bool],
    until: float,
    current=None,
    guard: TokenGuard | None = None,
):
    """The game once `done(game)` (see past()), or at `until` (time.monotonic()) as last read. `w` must
    have been taken before `current` (the caller's last read of the game, if any) was read. The game is read
    again only when the watch was woken or its due time came, never because `until` did. With a guard: raises
    TokenEnded as soon as the watch hears that its token ended, or the token expires."""
    game = current if current is not None else services.games.touch(game_id)
    while not done(game):
        left = until - time.monotonic()
        if left <= 0:
            break
        due_in = until_due(services, game)
        ends_in = math.inf if guard is None else max(guard.ends_in(), 0.0)
        woke = w.wait(min(left, due_in, ends_in))
        if guard is not None and guard.heard_end(w):
            guard.check()
        if not woke and due_in > left and ends_in > left:
            break  # the time is up, and nothing happened
        game = services.games.touch(game_id)
    return game


class BlindNews:
    """A dealer-blind table's part of a stream (BLIND HOOK; docs/api.md, "Dealer-blind tables"): a `blind` event
    whose data is the blind log's answer past `after` (GET /games/{id}/blind?after=n, as `answer` makes it), sent
    at the stream's start and whenever the log grows past what was sent; the stream's waits also end then."""

    def __init__(self, count: Callable[[], int], answer: Callable[[Any, int], dict], after: int):
        self.count, self.answer, self.after = count, answer, after
        self.sent = False

    def grew(self) -> bool:
        return self.count() > self.after

    def or_grew(self, done: Callable[[Any], bool]) -> Callable[[Any], bool]:
        return lambda g: done(g) or self.grew()

    def events(self, game) -> Iterator[str]:
        if self.sent and not self.grew():
            return
        a = self.answer(game, self.after)
        self.after, self.sent = max(self.after, a["count"]), True
        yield f"event: blind\ndata: {json.dumps(a)}\n\n"


def sse_events(
    services,
    w: Watch,
    game_id: str,
    seat,
    after: int,
    limit: float,
    guard: TokenGuard | None = None,
    blind: BlindNews | None = None,
    beat: Beat | None = None,
) -> Iterator[str]:
    """The server-sent events of one stream: a `game` event at once (with the records past `after`), then the
    records and a `game` event after each change (a move, the start), `end` when the game ends; a comment every
    heartbeat seconds while nothing happens; closes at `limit` (time.monotonic()). When its token ends or
    expires: a `token-ended` event (problem JSON, 401) and the stream closes. With `blind`: its `blind` event
    comes before the records and the `game` event of the same change (the view is never newer than the log).
    With `beat` (keepalives.beat_for): the process's timer writes the keep-alives while the stream waits."""
    try:
        yield from _sse_events(services, w, game_id, seat, after, limit, guard, blind, beat)
    except TokenEnded as exc:
        body = problem_body(exc.status, exc.code, exc.detail, exc.title)
        yield f"event: token-ended\ndata: {json.dumps(body)}\n\n"


def _sse_events(
    services, w: Watch, game_id: str, seat, after: int, limit: float, guard: TokenGuard | None, blind, beat
) -> Iterator[str]:
    game = services.games.touch(game_id)
    yield retry_field()
    while True:
        if blind is not None:
            yield from blind.events(game)
        for rec in visible_records(game, seat, after):
            yield f"id: {rec['seq']}\nevent: record\ndata: {json.dumps(rec)}\n\n"
        after = game.seq
        yield f"event: game\ndata: {json.dumps(game_view(services.games, game, seat))}\n\n"
        if game.ended:
            yield f"event: end\ndata: {json.dumps(game.transcript['end']['reason'])}\n\n"
            return
        done = past(after, game.started) if blind is None else blind.or_grew(past(after, game.started))
        while True:
            now = time.monotonic()
            if now >= limit:
                return
            if beat is not None:  # the timer writes the keep-alives meanwhile; this greenlet sleeps till news
                game = _wait_beating(services, w, game_id, done, limit, game, guard, beat)
                if beat.dead:
                    return  # the client went away
                beat.flush()
                if done(game):
                    break
                continue
            game = wait_past(
                services, w, game_id, done, min(limit, now + spread(services.config.heartbeat)), game, guard
            )
            if done(game):
                break
            yield ": keep-alive\n\n"


def _wait_beating(services, w: Watch, game_id: str, done, limit: float, game, guard, beat: Beat):
    """wait_past with the stream in the keep-alive register: it returns on news, at `limit`, or when the timer
    could not write a comment whole (beat.interrupted). The stream leaves the register before it writes."""
    services.keepalives.schedule(beat)
    try:
        return wait_past(services, w, game_id, lambda g: done(g) or beat.interrupted, limit, game, guard)
    finally:
        services.keepalives.cancel(beat)
