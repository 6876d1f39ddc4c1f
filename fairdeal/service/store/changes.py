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
    """One waiter's interest in one game (and in any other topics: a token's end, auth.token_topic); a context
    manager (leaving it stops the watch)."""

    __slots__ = ("game_id", "topics", "_event", "_changes", "_heard")

    def __init__(self, changes: Changes, game_id: str, also: tuple[str, ...] = ()):
        self.game_id, self._changes = game_id, changes
        self.topics = (game_id,) + tuple(also)
        self._event = threading.Event()
        self._heard: set[str] = set()

    def heard(self, topic: str) -> bool:
        """Whether `topic` was announced since the last time this asked about it (and forget that it was)."""
        try:
            self._heard.remove(topic)
            return True
        except KeyError:
            return False

    def wait(self, timeout: float | None) -> bool:
        """Block until something changed since the last wait returned (True), or `timeout` seconds (False).
        The flag is cleared on return, before the caller reads the game again: a change published after
        this point wakes the next wait."""
        woke = self._event.wait(timeout)
        self._event.clear()
        return woke

    def poke(self) -> None:
        """Wake this watch alone (its waiter has something of its own to do: keepalives.Beat)."""
        self._event.set()

    def close(self, linger: bool = True) -> None:
        """Stop watching; linger=False: the game is not worth keeping a subscription for (it does not exist)."""
        self._changes._drop(self, linger)

    def __enter__(self) -> Watch:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class Changes:
    """The watches of this process, by game; subclasses connect it to the store's notifications."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._watches: dict[str, set[Watch]] = {}

    def watch(self, game_id: str, also: tuple[str, ...] = ()) -> Watch:
        """A Watch on `game_id` (and the topics `also`: one wait hears them all), live when this returns (raises
        ChangesUnavailable if it cannot be)."""
        w = Watch(self, game_id, also)
        with self._lock:
            for topic in w.topics:
                self._watches.setdefault(topic, set()).add(w)
        try:
            for topic in w.topics:
                self._listen(topic)
        except BaseException:
            self._drop(w)
            raise
        return w

    def _drop(self, w: Watch, linger: bool = True) -> None:
        gone = []
        with self._lock:
            for topic in w.topics:
                ws = self._watches.get(topic)
                if ws is None or w not in ws:
                    continue
                ws.discard(w)
                if not ws:
                    del self._watches[topic]
                    gone.append(topic)
        for topic in gone:  # a token's topic lingers as a game's does: its next long-poll follows at once
            self._unlisten(topic, linger)

    def wake(self, game_id: str) -> int:
        """Wake every watch on the game (or topic); returns how many."""
        with self._lock:
            ws = list(self._watches.get(game_id, ()))
        for w in ws:
            w._heard.add(game_id)
            w._event.set()
        return len(ws)

    def wake_all(self, game_ids=None) -> None:
        """Wake every watch (of the given games): after notifications may have been lost."""
        with self._lock:
            ws = [w for g, s in self._watches.items() if game_ids is None or g in game_ids for w in s]
        for w in ws:
            w._heard.update(w.topics)  # what was missed, nobody knows: every topic may have been announced
            w._event.set()

    def watching(self, game_id: str) -> bool:
        with self._lock:
            return game_id in self._watches

    @property
    def count(self) -> int:
        """Open watches in this process."""
        with self._lock:
            return len({w for s in self._watches.values() for w in s})

    # ------------------------------------------------------------------ hooks for a store's listener
    def _listen(self, game_id: str) -> None:
        """Return once an append to `game_id` from now on will reach wake() (block while setting up)."""

    def _unlisten(self, game_id: str, linger: bool = True) -> None:
        """The last watch on `game_id` has gone (linger: a new one may follow soon)."""

    def close(self) -> None:
        """Stop listening (the watches stay, and are woken no more)."""
