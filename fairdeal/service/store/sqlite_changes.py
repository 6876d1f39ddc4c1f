"""Change notification for the embedded store, across the processes sharing one SQLite file (gunicorn's
workers, the sweeper, `fairdeal serve` on several ports).

Every listening process binds a Unix datagram socket and leaves a marker file named after it in the
database's `listeners/` folder. After each committed append, the writer rings every listener: one empty
datagram each, never blocking. A ring carries nothing: the listener drains every ring queued, then reads
which log rows are new since its cursor (the log table's rowid only grows, in commit order) and wakes the
watches of those games. So a ring cannot be lost in a way that matters: when a listener's queue is full the
writer's ring is dropped, but a ring already queued will be read after this commit, and the read that
follows it sees this commit's row. A listener that died leaves a marker no socket answers: the next writer
removes it.

On Linux the sockets are in the abstract namespace (no path length limit, nothing left behind); elsewhere
the marker file is the socket itself.
"""

from __future__ import annotations

import errno
import logging
import os
import secrets
import select
import socket
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from fairdeal.service.store.changes import Changes

log = logging.getLogger("fairdeal.changes")

ABSTRACT = sys.platform.startswith("linux")
RACY_NS = 100_000_000  # a folder listing taken this soon after the folder changed may miss a change
FAILURE_BACKOFF, FAILURE_BACKOFF_MAX = 0.1, 5.0  # seconds a failed listener waits before it reads again


def listeners_dir(db_path: str) -> str:
    return os.path.join(os.path.dirname(os.path.abspath(db_path)), "listeners")


class Doorbell:
    """The writer's side: rings every process listening on the folder."""

    def __init__(self, folder: str, abstract: bool = ABSTRACT):
        self.folder, self.abstract = folder, abstract
        self._names: list[str] = []
        self._mtime = -1
        self._racy = True
        self._sock: socket.socket | None = None
        self._pid = -1

    def address(self, name: str) -> str:
        return "\0fairdeal-changes-" + name if self.abstract else os.path.join(self.folder, name)

    def _listeners(self) -> list[str]:
        # re-list only when the folder changed; a listing taken within RACY_NS of the change is not
        # trusted (the folder's mtime is coarse: a second change in the same tick would not show)
        try:
            mtime = os.stat(self.folder).st_mtime_ns
        except FileNotFoundError:
            return []
        if mtime != self._mtime or self._racy:
            self._names = [n for n in os.listdir(self.folder) if not n.startswith(".")]
            self._mtime, self._racy = mtime, time.time_ns() - mtime < RACY_NS
        return self._names

    def ring(self) -> None:
        names = self._listeners()
        if not names:
            return
        if self._sock is None or self._pid != os.getpid():
            self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            self._sock.setblocking(False)
            self._pid = os.getpid()
        for name in names:
            try:
                self._sock.sendto(b"", self.address(name))
            except BlockingIOError:
                pass  # its queue is full: a ring it has not read yet will make it look
            except (ConnectionRefusedError, FileNotFoundError):
                self._forget(name)  # nobody listens there any more
            except OSError as exc:
                if exc.errno not in (errno.ENOBUFS, errno.EAGAIN):
                    log.warning("doorbell failed", extra={"fields": {"listener": name, "error": str(exc)}})

    def _forget(self, name: str) -> None:
        try:
            os.unlink(os.path.join(self.folder, name))
        except FileNotFoundError:
            pass
        self._mtime = -1


class SqliteChanges(Changes):
    """The listener's side: one socket and one thread (a greenlet under gevent) per process."""

    def __init__(
        self,
        folder: str,
        read_since: Callable[[Any], tuple[Any, set[str]]],  # cursor -> (the next cursor, the games changed)
        last_rowid: Callable[[], Any],  # the cursor now
        abstract: bool = ABSTRACT,
    ):
        super().__init__()
        self.folder, self._read_since, self._last_rowid = folder, read_since, last_rowid
        self._bell = Doorbell(folder, abstract)
        self._start_lock = threading.Lock()
        self._sock: socket.socket | None = None
        self._name: str | None = None
        self._closed = False
        self.cursor = 0

    def _listen(self, game_id: str) -> None:
        if self._sock is None:
            self._start()

    def _start(self) -> None:
        with self._start_lock:
            if self._sock is not None:
                return
            os.makedirs(self.folder, exist_ok=True)
            name = f"{os.getpid()}-{secrets.token_hex(6)}"
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            sock.bind(self._bell.address(name))
            sock.setblocking(False)
            if self._bell.abstract:  # the marker writers list (elsewhere the socket file is the marker)
                open(os.path.join(self.folder, name), "x").close()
            # the cursor is read after the marker exists: every commit past it rings this socket
            self.cursor = self._last_rowid()
            self._sock, self._name = sock, name
            threading.Thread(target=self._run, name="fairdeal-changes", daemon=True).start()

    def _run(self) -> None:
        sock = self._sock
        assert sock is not None  # bound before the listener starts
        # poll, not select: a process holding thousands of streams binds this socket past fd 1024, which
        # select() refuses (gevent patches both to wait cooperatively)
        poller = select.poll()
        poller.register(sock, select.POLLIN)
        backoff = FAILURE_BACKOFF
        try:
            while not self._closed:
                try:
                    poller.poll()
                    while True:  # drain every ring queued: one read answers them all
                        try:
                            sock.recv(16)
                        except BlockingIOError:
                            break
                    if self._closed:
                        break
                    cursor, games = self._read_since(self.cursor)
                    self.cursor = cursor
                    for game_id in games:
                        self.wake(game_id)
                    backoff = FAILURE_BACKOFF
                except Exception:
                    log.exception("change listener failed")
                    self.wake_all()  # what it missed, nobody knows: everyone looks again
                    # a failure that repeats must not wake every waiter ten times a second: wait longer each time
                    time.sleep(backoff)
                    backoff = min(backoff * 2, FAILURE_BACKOFF_MAX)
        finally:
            sock.close()
            if self._name:
                try:
                    os.unlink(os.path.join(self.folder, self._name))
                except FileNotFoundError:
                    pass

    def close(self) -> None:
        """Stop the listener: it wakes on a ring of its own, closes its socket and removes its marker."""
        if self._closed or self._sock is None:
            self._closed = True
            return
        self._closed = True
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as s:
            try:
                s.sendto(b"", self._bell.address(self._name or ""))  # named with its socket
            except OSError:
                pass  # its queue is full: it wakes anyway
