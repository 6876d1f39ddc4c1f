"""Idle streams' keep-alive comments, written in batches: one timer per worker process writes every due stream's
comment straight to its socket, instead of each stream's greenlet waking on a timer of its own, running back up
through the response's generator stack (werkzeug, Flask, gunicorn's chunk writer) and arming the next timer.

A stream is registered (KeepAlives.schedule) only while its greenlet waits (feed._sse_events), so nothing else
writes to its socket meanwhile: under gevent the greenlets of a worker take turns, and a registered stream's own
greenlet is parked in its wait. The stream leaves the register (cancel) before it writes anything itself.

A comment is written with one non-blocking write. When the socket takes only part of it (the client has not read
for a long time) or fails (the client went away), the stream's greenlet is woken (Beat.interrupted) to write the
rest itself, cooperatively, or to close the stream: a chunk is never split by anything else.

Used only where the socket and its framing are known: gunicorn's gevent worker (environ["gunicorn.socket"]),
plain HTTP/1.1 (chunked) or HTTP/1.0 (unframed), no TLS on the socket. Elsewhere (the tests' clients, Flask's
server, HTTP/2, TLS in gunicorn) the stream writes its keep-alives itself, as before.
"""

from __future__ import annotations

import logging
import math
import os
import threading
import time
from collections.abc import Callable
from typing import Any

from fairdeal.service import green

TICK = 1.0  # seconds between the timer's passes: a comment is written up to this much before its drawn time
COMMENT = b": keep-alive\n\n"
log = logging.getLogger("fairdeal.feed")


def framed(data: bytes, chunked: bool) -> bytes:
    """`data` as gunicorn writes a body item: one HTTP/1.1 chunk, or as it is (HTTP/1.0)."""
    return b"%X\r\n%s\r\n" % (len(data), data) if chunked else data


class Beat:
    """One stream's socket and its place in the register."""

    __slots__ = ("sock", "chunk", "slot", "pending", "dead", "wake")

    def __init__(self, sock: Any, chunked: bool, wake: Callable[[], None]):
        self.sock, self.chunk, self.wake = sock, framed(COMMENT, chunked), wake
        self.slot: int | None = None  # the timer's pass that writes the next comment
        self.pending = b""  # the part of a comment the socket did not take: the stream's greenlet writes it
        self.dead = False  # the socket failed: the stream closes

    @property
    def interrupted(self) -> bool:
        """Whether the stream's greenlet must act (write `pending`, or close)."""
        return self.dead or bool(self.pending)

    def write(self) -> bool:
        """One comment, without blocking; False when the stream's greenlet must take over (see interrupted)."""
        fd = self.sock.fileno()  # -1 once the socket is closed: never write to a descriptor reused since
        if fd < 0:
            self.dead = True
            return False
        try:
            n = os.write(fd, self.chunk)
        except BlockingIOError:
            n = 0
        except OSError:  # EPIPE, ECONNRESET: the client went away
            self.dead = True
            return False
        if n < len(self.chunk):
            self.pending = self.chunk[n:]
            return False
        return True

    def flush(self) -> None:
        """In the stream's greenlet: the rest of a comment the socket did not take, waiting cooperatively."""
        data, self.pending = self.pending, b""
        if data:
            self.sock.sendall(data)


def beat_for(environ: dict) -> Callable[[Callable[[], None]], Beat] | None:
    """A maker of this request's Beat (given the function that wakes its stream), or None where the stream must
    write its own keep-alives (the module's docstring says where)."""
    sock = environ.get("gunicorn.socket")
    protocol = environ.get("SERVER_PROTOCOL")
    if sock is None or protocol not in ("HTTP/1.1", "HTTP/1.0") or hasattr(sock, "getpeercert") or not green.patched():
        return None
    return lambda wake: Beat(sock, protocol == "HTTP/1.1", wake)


class KeepAlives:
    """This process's register of waiting streams, by the timer pass due to write their next comment."""

    def __init__(self, heartbeat: Callable[[], float], metrics=None, tick: float = TICK):
        self.heartbeat, self.metrics, self.tick = heartbeat, metrics, tick  # heartbeat(): the next one's wait
        self._slots: dict[int, dict[Beat, None]] = {}
        self._lock = threading.Lock()
        self._timer: threading.Thread | None = None
        self.written = 0  # comments written by the timer (what tests and benchmarks count)

    def __len__(self) -> int:
        return sum(len(s) for s in self._slots.values())

    def schedule(self, beat: Beat) -> None:
        """Register `beat`: its next comment is written at its drawn time from now (up to a tick early)."""
        with self._lock:
            self._place(beat, time.monotonic())
            if self._timer is None:
                self._timer = threading.Thread(target=self._run, name="fairdeal-keepalives", daemon=True)
                self._timer.start()

    def cancel(self, beat: Beat) -> None:
        with self._lock:
            if beat.slot is not None:
                self._slots.get(beat.slot, {}).pop(beat, None)
                beat.slot = None

    def _place(self, beat: Beat, now: float) -> None:
        # the pass at or before the drawn time: a comment is never later than the heartbeat (a proxy's timeout)
        beat.slot = math.floor((now + self.heartbeat()) / self.tick)
        self._slots.setdefault(beat.slot, {})[beat] = None

    def run_due(self, now: float) -> int:
        """Write every comment due by `now` (one pass); returns how many were written."""
        stop = math.floor(now / self.tick)
        interrupted, written = [], 0
        with self._lock:
            for slot in [s for s in self._slots if s <= stop]:
                for beat in self._slots.pop(slot):
                    beat.slot = None
                    if beat.write():
                        written += 1
                        self._place(beat, now)
                    else:
                        interrupted.append(beat)
            self.written += written
        if written and self.metrics is not None:
            self.metrics.inc("fairdeal_keepalives_batched_total", written)
        for beat in interrupted:  # outside the lock: the stream's greenlet cancels, then acts
            beat.wake()
        return written

    def _run(self) -> None:
        while True:
            time.sleep(self.tick - time.monotonic() % self.tick)  # on the tick grid the slots are counted in
            try:
                self.run_due(time.monotonic())
            except Exception:  # one stream's failure must not stop every stream's comments
                log.exception("keep-alive pass failed")
