"""The service's HTTP API (docs/api.md) for the terminal client, with the standard library only: problem JSON as
exceptions, and a move sent with one Idempotency-Key that every retry reuses, so a move whose answer was lost
is recorded once (the service answers the retry with the first answer, "replayed": true)."""

from __future__ import annotations

import json
import random
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable
from typing import Any

RETRIES = 4  # a move is sent at most this many more times while the service does not answer
RETRY_WAIT = 0.5  # seconds before the first retry; doubled each time
FEED_RETRIES = 8  # a feed request is made again this many times while the service is away (a restart)
BACKOFF_CAP = 30.0  # the longest wait between two tries


def backoff(
    attempt: int, base: float = RETRY_WAIT, retry_after: float | None = None, rng: random.Random | None = None
) -> float:
    """Seconds to wait before try `attempt` + 1 (attempt 0 is the first retry): "full jitter", a uniform draw up
    to base * 2**attempt (at most BACKOFF_CAP), and never less than the service's Retry-After. The clients of a
    service that restarts lose their connections together: drawn at random, they come back spread out instead of
    in waves that overflow the listen backlog."""
    draw = (rng or random).uniform(0.0, min(BACKOFF_CAP, base * 2**attempt))
    return max(draw, retry_after or 0.0)


def _retry_after(exc: Exception) -> float | None:
    value = getattr(exc, "retry_after", None)
    return value if isinstance(value, (int, float)) else None


class Problem(Exception):
    """The service refused a request: its problem JSON (docs/api.md, Errors)."""

    def __init__(self, status: int, body: dict, retry_after: float | None = None):
        self.status, self.code = status, body.get("code", "")
        self.retry_after = retry_after  # the Retry-After header, in seconds, when the answer had one
        self.body = body
        self.detail = body.get("detail") or body.get("title") or f"HTTP {status}"
        super().__init__(self.detail)


class Unreachable(Exception):
    """No answer from the service at all."""


class Client:
    def __init__(self, base: str, token: str | None = None, sleep: Callable[[float], None] = time.sleep):
        self.base, self.token, self.sleep = base.rstrip("/"), token, sleep

    def call(self, method: str, path: str, body: Any = None, headers: dict | None = None, timeout: float = 30) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=dict(headers or {}))
        if data is not None:
            req.add_header("Content-Type", "application/json")
        if self.token:
            req.add_header("Authorization", "Bearer " + self.token)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return json.loads(r.read() or b"null")
        except urllib.error.HTTPError as exc:
            try:
                problem = json.loads(exc.read())
            except ValueError:
                problem = {}
            after = exc.headers.get("Retry-After", "") if exc.headers else ""
            raise Problem(
                exc.code, problem if isinstance(problem, dict) else {}, float(after) if after.isdigit() else None
            ) from None
        except (urllib.error.URLError, OSError, ValueError) as exc:
            raise Unreachable(str(getattr(exc, "reason", exc))) from None

    def get(self, path: str, timeout: float = 30) -> Any:
        return self.call("GET", path, timeout=timeout)

    def wait_get(self, path: str, timeout: float = 30) -> Any:
        """A GET of the event feed, made again while the service is away or busy (no answer, 5xx, 429) after a
        jittered, growing wait (backoff()); the feed asks after the last seq, so a retry misses nothing."""
        for attempt in range(FEED_RETRIES + 1):
            try:
                return self.get(path, timeout)
            except (Unreachable, Problem) as exc:
                retriable = isinstance(exc, Unreachable) or exc.status >= 500 or exc.status == 429
                if not retriable or attempt == FEED_RETRIES:
                    raise
                self.sleep(backoff(attempt, retry_after=_retry_after(exc)))
        raise AssertionError("unreachable")

    def post(self, path: str, body: Any = None, headers: dict | None = None) -> Any:
        return self.call("POST", path, body if body is not None else {}, headers)

    def move(
        self,
        game_id: str,
        seq: int,
        move: dict,
        on_retry: Callable[[int, Exception], None] | None = None,
        key: str | None = None,
        extra: dict | None = None,
    ) -> dict:
        """POST the move; while the service cannot be reached (or fails with 5xx) send it again with the same
        Idempotency-Key, a few times, waiting longer each time."""
        key = key or f"{game_id}-{seq}-{uuid.uuid4().hex}"
        for attempt in range(RETRIES + 1):
            try:
                body = {"seq": seq, "move": move, **(extra or {})}  # extra: a blind table's open, timeout
                return self.post(f"/games/{game_id}/moves", body, {"Idempotency-Key": key})
            except (Unreachable, Problem) as exc:
                retriable = isinstance(exc, Unreachable) or exc.status >= 500
                if not retriable or attempt == RETRIES:
                    raise
                if on_retry:
                    on_retry(attempt + 1, exc)
                self.sleep(backoff(attempt, retry_after=_retry_after(exc)))
        raise AssertionError("unreachable")
