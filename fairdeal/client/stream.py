"""Following a game on the service's server-sent events stream (GET /games/{id}/stream, docs/api.md), with the standard
library, and waiting out an outage with backoff.

The stream sends a `game` event (the caller's view) at once, then the `record` events of each change and a `game` event
after them, and `end` at the end (at a dealer-blind table, asked with ?blind_after=, a `blind` event too whenever the
blind log grows: it ends a batch, with the last view); it closes after a few minutes and is opened again with
?after=<last seq>, so nothing is missed. Reading follows the event-stream format (WHATWG HTML, "Server-sent events"):
lines `event:`, `data:`, `id:`, comments starting with `:`, an empty line ends an event.

Where the service has no stream (an old one answers 404) the client long-polls GET /games/{id}/events instead."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any, TypeVar

from fairdeal.client.http import Client, Problem, Unreachable, _retry_after
from fairdeal.client.http import backoff as jittered_wait

READ_LIMIT = 75.0  # seconds without a byte (the service sends a comment every 40 to 50) before reopening
FIRST_WAIT = 0.5  # the first backoff bound while the service does not answer (doubled each time, capped)


class GaveUp(Exception):
    """The service did not answer for the whole patience."""


T = TypeVar("T")  # what the action answers


def backoff(
    action: Callable[[], T],
    patience: float,
    say: Callable[[str], None],
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
) -> T:
    """Run `action` until it answers: on no answer (a 5xx, a 429) wait a jittered, growing time (http.backoff:
    full jitter below 0.5 s, 1 s, 2 s ..., capped, never less than a Retry-After) and try again, telling `say`
    each time, for at most `patience` seconds; then GaveUp."""
    start, tries = clock(), 0
    while True:
        try:
            return action()
        except (Unreachable, Problem) as exc:
            if isinstance(exc, Problem) and exc.status < 500 and exc.status != 429:
                raise
            wait = jittered_wait(tries, base=FIRST_WAIT, retry_after=_retry_after(exc))
            tries += 1
            if clock() - start + wait > patience:
                raise GaveUp(str(exc)) from None
            say(f"No answer from the service ({exc}); trying again in {wait:.1f} s (attempt {tries}).")
            sleep(wait)


class EventStream:
    """One game's stream: next_batch() gives the records since the last batch and the view after them."""

    def __init__(self, client: Client, game_id: str, blind: Any = None):
        self.c, self.id = client, game_id
        self._resp: Any = None  # the open event stream (urlopen's response), or None
        self.after = 0
        # a dealer-blind seat's reader of the blind log (its `after` and `absorb(answer)`): the stream then asks
        # for `blind` events (?blind_after=), hands each to it, and a blind event ends a batch too
        self.blind = blind
        self.game: dict | None = None  # the last `game` event's view

    def close(self) -> None:
        if self._resp is not None:
            try:
                self._resp.close()
            except OSError:
                pass
            self._resp = None

    def _open(self) -> None:
        req = urllib.request.Request(
            f"{self.c.base}/games/{self.id}/stream?after={self.after}"
            + (f"&blind_after={self.blind.after}" if self.blind is not None else ""),
            headers={"Accept": "text/event-stream"},
        )
        if self.c.token:
            req.add_header("Authorization", "Bearer " + self.c.token)
        try:
            self._resp = urllib.request.urlopen(req, timeout=READ_LIMIT)
        except urllib.error.HTTPError as exc:
            try:
                body = json.loads(exc.read())
            except ValueError:
                body = {}
            raise Problem(exc.code, body if isinstance(body, dict) else {}) from None
        except (urllib.error.URLError, OSError, ValueError) as exc:
            raise Unreachable(str(getattr(exc, "reason", exc))) from None

    def next_batch(self) -> tuple[list[dict], dict]:
        """(records, game view): blocks until the service sends a `game` event; reopens a stream that closed
        (with ?after=, so nothing is missed or told twice). Unreachable when the service cannot be reached."""
        records: list[dict] = []
        while True:
            if self._resp is None:
                self._open()
            event = "message"
            data: list[str] = []
            try:
                while True:
                    raw = self._resp.readline()
                    if not raw:
                        raise EOFError
                    line = raw.decode("utf-8").rstrip("\r\n")
                    if line == "":
                        if data:
                            break
                        continue
                    if line.startswith(":"):
                        continue
                    field, _, value = line.partition(":")
                    value = value[1:] if value.startswith(" ") else value
                    if field == "event":
                        event = value
                    elif field == "data":
                        data.append(value)
            except EOFError:
                self.close()  # the stream's time is up (or the server went): open it again
                if records:
                    continue
                continue
            except (OSError, ValueError) as exc:
                self.close()
                raise Unreachable(str(exc)) from None
            payload = json.loads("\n".join(data))
            if event == "record":
                records.append(payload)
                self.after = max(self.after, payload.get("seq", 0))
            elif event == "game":
                self.after = max(self.after, payload.get("seq", 0))
                self.game = payload
                return records, payload
            elif event == "blind" and self.blind is not None:
                self.blind.absorb(payload)
                if self.game is not None and not records:  # the log grew, the game did not move
                    return records, self.game
