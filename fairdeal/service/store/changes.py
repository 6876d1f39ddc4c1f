"""Change notification: how a process learns that a game's log grew, whichever process or machine appended.

Each store has one Changes object per process (Store.changes()). A waiter takes a Watch on a game *before*
it reads the game, then waits on the Watch: every append that happens after the Watch was taken wakes it,
so nothing appended between the waiter's read and its wait is missed. A wake-up may be spurious (an append
the waiter had already read, a reconnection): the waiter reads again and, if nothing is new, waits again.

The store publishes as part of every append (Redis: SPUBLISH from the append script itself; SQLite: a
doorbell rung to every listening process after the commit); the store's Changes subclass listens and calls
wake(). Idle waiting costs nothing here: a Watch is an Event, and no one looks at the store meanwhile.
"""
from __future__ import annotations

import threading


class ChangesUnavailable(Exception):
    """The notification channel cannot be set up now (e.g. Redis does not answer)."""


class Watch:
    """One waiter's interest in one game; a context manager (leaving it stops the watch)."""

    __slots__ = ("game_id", "_event", "_changes")

    def __init__(self, changes: "Changes", game_id: str):
        self.game_id, self._changes = game_id, changes
        self._event = threading.Event()

    def wait(self, timeout: float | None) -> bool:
        """Block until something changed since the last wait returned (True), or `timeout` seconds (False).
        The flag is cleared on return, before the caller reads the game again: a change published after
        this point wakes the next wait."""
        woke = self._event.wait(timeout)
        self._event.clear()
        return woke

    def close(self, linger: bool = True) -> None:
        """Stop watching; linger=False: the game is not worth keeping a subscription for (it does not exist)."""
        self._changes._drop(self, linger)

    def __enter__(self) -> "Watch":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class Changes:
    """The watches of this process, by game; subclasses connect it to the store's notifications."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._watches: dict[str, set[Watch]] = {}

    def watch(self, game_id: str) -> Watch:
        """A Watch on `game_id`, live when this returns (raises ChangesUnavailable if it cannot be)."""
        w = Watch(self, game_id)
        with self._lock:
            self._watches.setdefault(game_id, set()).add(w)
        try:
            self._listen(game_id)
        except BaseException:
            self._drop(w)
            raise
        return w

    def _drop(self, w: Watch, linger: bool = True) -> None:
        with self._lock:
            ws = self._watches.get(w.game_id)
            if ws is None or w not in ws:
                return
            ws.discard(w)
            if ws:
                return
            del self._watches[w.game_id]
        self._unlisten(w.game_id, linger)

    def wake(self, game_id: str) -> int:
        """Wake every watch on the game; returns how many."""
        with self._lock:
            ws = list(self._watches.get(game_id, ()))
        for w in ws:
            w._event.set()
        return len(ws)

    def wake_all(self, game_ids=None) -> None:
        """Wake every watch (of the given games): after notifications may have been lost."""
        with self._lock:
            ws = [w for g, s in self._watches.items() if game_ids is None or g in game_ids for w in s]
        for w in ws:
            w._event.set()

    def watching(self, game_id: str) -> bool:
        with self._lock:
            return game_id in self._watches

    @property
    def count(self) -> int:
        """Open watches in this process."""
        with self._lock:
            return sum(len(s) for s in self._watches.values())

    # ------------------------------------------------------------------ hooks for a store's listener
    def _listen(self, game_id: str) -> None:
        """Return once an append to `game_id` from now on will reach wake() (block while setting up)."""

    def _unlisten(self, game_id: str, linger: bool = True) -> None:
        """The last watch on `game_id` has gone (linger: a new one may follow soon)."""

    def close(self) -> None:
        """Stop listening (the watches stay, and are woken no more)."""
