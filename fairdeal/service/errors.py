"""RFC 9457 problem details: every error the API returns, with a stable `type`, a sentence, no stack trace.

Also where a store outage is recognised: the backends' exceptions that mean "the store is away" (Redis down,
read-only after a failover, out of memory; SQLite locked or its disk failing) answer 503 with Retry-After,
and are logged as one line when the outage starts, not a traceback per request.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from typing import Any

from flask import Flask, Response, json
from werkzeug.exceptions import HTTPException

from fairdeal.core.games.base import BadSettings, GameError, GameOver, IllegalMove, MalformedMove, NotYourTurn

TYPE_PREFIX = "urn:fairdeal:problem:"
log = logging.getLogger("fairdeal.errors")
STORE_RETRY_AFTER = 5  # seconds a client should wait after a 503 store-unavailable
OUTAGE_LOG_EVERY = 60.0  # while an outage lasts, one line a minute (with the count of refused requests)

# engine errors -> HTTP status
GAME_STATUS = {BadSettings: 422, MalformedMove: 400, NotYourTurn: 409, GameOver: 409, IllegalMove: 422}

# werkzeug's HTTP errors -> our codes
HTTP_CODES = {
    400: "bad-request",
    404: "not-found",
    405: "method-not-allowed",
    413: "body-too-large",
    414: "uri-too-long",
    415: "unsupported-media-type",
    431: "headers-too-large",
    429: "rate-limited",
}
# headers an HTTP error carries that the client needs (Allow on 405, ...); never Content-Type or -Length
PASS_HEADERS = ("Allow", "WWW-Authenticate", "Retry-After")


class ApiError(Exception):
    """A refusal: status, stable code (the problem type's last part), title, and the sentence (detail).
    `headers` go on the answer (WWW-Authenticate on a 401, Retry-After on a 429 or 503)."""

    def __init__(
        self,
        status: int,
        code: str,
        detail: str,
        title: str | None = None,
        headers: dict[str, str] | None = None,
        **extra: Any,
    ):
        super().__init__(detail)
        self.status, self.code, self.detail = status, code, detail
        self.title = title or code.replace("-", " ").capitalize()
        self.headers = headers or {}
        self.extra = extra


def problem_body(status: int, code: str, detail: str, title: str | None = None, **extra: Any) -> dict:
    return {
        "type": TYPE_PREFIX + code,
        "title": title or code.replace("-", " ").capitalize(),
        "status": status,
        "detail": detail,
        "code": code,
        **extra,
    }


def problem(
    status: int, code: str, detail: str, title: str | None = None, headers: dict[str, str] | None = None, **extra: Any
) -> Response:
    body = problem_body(status, code, detail, title, **extra)
    return Response(json.dumps(body), status=status, mimetype="application/problem+json", headers=headers)


def response(exc: ApiError) -> Response:
    return problem(exc.status, exc.code, exc.detail, exc.title, exc.headers, **exc.extra)


def game_error_status(exc: GameError) -> int:
    for cls in type(exc).__mro__:
        if cls in GAME_STATUS:
            return GAME_STATUS[cls]
    return 422


# ---------------------------------------------------------------------------- store outages
_SQLITE_AWAY = (
    "SQLITE_BUSY",
    "SQLITE_LOCKED",
    "SQLITE_IOERR",
    "SQLITE_FULL",
    "SQLITE_CANTOPEN",
    "SQLITE_READONLY",
    "SQLITE_PROTOCOL",
    "SQLITE_NOTADB",
    "SQLITE_CORRUPT",
)
_SQLITE_AWAY_TEXT = ("locked", "disk i/o", "disk is full", "unable to open", "readonly", "not a database", "malformed")


def store_unavailable(exc: BaseException) -> str | None:
    """What is wrong, if `exc` says the store cannot serve now (None: another error, a bug to trace)."""
    try:
        import redis.exceptions as rx
        from redis.exceptions import RedisClusterException
    except ImportError:  # pragma: no cover - redis is a service dependency
        rx = None  # type: ignore[assignment]
    from fairdeal.service.store.base import StoreUnavailable

    if isinstance(exc, StoreUnavailable):
        return str(exc)[:300]
    if rx is not None:
        away = (
            rx.ConnectionError,
            rx.TimeoutError,
            rx.ReadOnlyError,
            rx.OutOfMemoryError,
            rx.ClusterError,
            rx.TryAgainError,
            rx.NoPermissionError,
            RedisClusterException,
        )
        if isinstance(exc, away):
            return f"Redis: {type(exc).__name__}: {exc}"[:300]
    if isinstance(exc, sqlite3.OperationalError):
        name = getattr(exc, "sqlite_errorname", "") or ""
        if name.startswith(_SQLITE_AWAY) or any(t in str(exc).lower() for t in _SQLITE_AWAY_TEXT):
            return f"SQLite: {name or type(exc).__name__}: {exc}"[:300]
    return None


def refusal_kind(exc: BaseException) -> str:
    """A short name for why the store refused (the outage log counts refusals by it): "pool-stalled" (a
    request waited its Redis pool's timeout with no connection coming back: every one is held by a command that
    does not end), "pool-exhausted" (a pool at its cap refused at once: not the service's own pool), "connection-
    refused", "connection" (another failure to connect or a dropped connection), "timeout", "read-only",
    "out-of-memory", "loading", "cluster", "try-again", "no-permission", "replicas" (too few replicas took an
    append in time), "slot-moving", "sqlite-busy" and the like; "other" for anything else."""
    from fairdeal.service.store.base import StoreUnavailable

    if isinstance(exc, StoreUnavailable):
        text = str(exc)
        return "replicas" if "replicas" in text else "slot-moving" if "moving" in text else "store"
    if isinstance(exc, sqlite3.OperationalError):
        name = getattr(exc, "sqlite_errorname", "") or ""
        return "sqlite-" + name.removeprefix("SQLITE_").split("_")[0].lower() if name else "sqlite"
    try:
        import redis.exceptions as rx
        from redis.exceptions import RedisClusterException

        from fairdeal.service.store.redis_pool import PoolStalled
    except ImportError:  # pragma: no cover - redis is a service dependency
        return "other"
    text = str(exc).lower()
    kinds: tuple[tuple[type[BaseException] | tuple[type[BaseException], ...], str], ...] = (
        (PoolStalled, "pool-stalled"),
        (rx.MaxConnectionsError, "pool-exhausted"),
        (rx.BusyLoadingError, "loading"),
        (rx.TimeoutError, "timeout"),
        (rx.ReadOnlyError, "read-only"),
        (rx.OutOfMemoryError, "out-of-memory"),
        (rx.TryAgainError, "try-again"),
        (rx.NoPermissionError, "no-permission"),
        ((rx.ClusterError, RedisClusterException), "cluster"),
    )
    for cls, kind in kinds:
        if isinstance(exc, cls):
            return kind
    if isinstance(exc, rx.ConnectionError):
        if "no connection available" in text or "too many connections" in text:
            return "pool-exhausted"  # BlockingConnectionPool's own refusal, or MaxConnectionsError's text
        return "connection-refused" if "refused" in text else "connection"
    return "other"


class OutageLog:
    """One log line when the store goes away (and one a minute while it stays away, with how many requests
    were refused, in all and by kind: refusal_kind), one when it is back: never a traceback per request. Each
    line counts the refusals since the previous one, so the lines of a log add up to every refusal."""

    def __init__(self, every: float = OUTAGE_LOG_EVERY, clock: Callable[[], float] = time.monotonic):
        self.every = every
        self.clock = clock  # a test's own clock, without patching the time module under every thread
        self._lock = threading.Lock()
        self.down_since: float | None = None
        self._last_line = 0.0
        self._refused = 0
        self._by_kind: dict[str, int] = {}

    def failed(self, reason: str, kind: str = "other") -> None:
        now = self.clock()
        with self._lock:
            self._refused += 1
            self._by_kind[kind] = self._by_kind.get(kind, 0) + 1
            first = self.down_since is None
            if not first and now - self._last_line < self.every:
                return
            if first:
                self.down_since = now
            refused, by_kind = self._take_counts()
            self._last_line = now
        log.warning(
            "store unavailable" if first else "store still unavailable",
            extra={"fields": {"reason": reason, "refused": refused, "refused_by": by_kind}},
        )

    def _take_counts(self) -> tuple[int, dict[str, int]]:
        refused, by_kind = self._refused, self._by_kind
        self._refused, self._by_kind = 0, {}
        return refused, by_kind

    def succeeded(self) -> None:
        with self._lock:
            if self.down_since is None:
                return
            seconds, (refused, by_kind) = self.clock() - self.down_since, self._take_counts()
            self.down_since = None
        log.warning(
            "store available again",
            extra={"fields": {"after_seconds": round(seconds, 1), "refused": refused, "refused_by": by_kind}},
        )


def store_problem(reason: str) -> Response:
    return problem(
        503,
        "store-unavailable",
        f"The game store cannot be reached just now; nothing was changed. Try again in {STORE_RETRY_AFTER} seconds.",
        "Store unavailable",
        headers={"Retry-After": str(STORE_RETRY_AFTER)},
    )


# ---------------------------------------------------------------------------- the handlers
def install(app: Flask, store) -> OutageLog:
    outage = OutageLog()

    app.register_error_handler(ApiError, response)

    @app.errorhandler(GameError)
    def _game(exc: GameError):
        return problem(game_error_status(exc), exc.code, exc.message)

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException):
        status = exc.code or 500
        code = HTTP_CODES.get(status, "http-error")
        detail = exc.description or ""
        if status == 413:
            detail = f"The request body is larger than the {app.config['MAX_CONTENT_LENGTH']} bytes allowed."
        elif status == 404:
            detail = "There is no such resource."
        elif status == 405:
            detail = f"This resource answers {', '.join(getattr(exc, 'valid_methods', None) or [])} only."
        headers = {k: v for k, v in exc.get_headers() if k in PASS_HEADERS}
        return problem(status, code, detail, exc.name, headers)

    @app.errorhandler(Exception)
    def _other(exc: Exception):
        reason = store_unavailable(exc)
        if reason is not None:
            outage.failed(reason, refusal_kind(exc))
            return store_problem(reason)
        log.exception("unhandled error")  # the trace goes to the log, never to the client
        return problem(500, "internal-error", "The server could not complete this request.")

    @app.after_request
    def _store_back(response):
        # only while an outage lasts (else no cost): is the store back? The answer alone does not say, as
        # some routes never touch the store.
        if outage.down_since is not None and response.status_code < 500:
            try:
                store.ping()
            except Exception:
                pass
            else:
                outage.succeeded()
        return response

    return outage
