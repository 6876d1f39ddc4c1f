"""The embedded store's locks: it opens beside another process's write (two `fairdeal serve` on one data dir,
started together, both come up: the switch to WAL mode is asked again while SQLite refuses it at once), and its
writers queue on the writers' file (an exclusive flock held for each write transaction, by each thread apart)."""

from __future__ import annotations

import fcntl
import os
import sqlite3
import threading
import time

import pytest

from fairdeal.service.store.sqlite import WRITERS, SqliteStore, use_wal


def writing(path) -> sqlite3.Connection:
    """A connection in the middle of a write (a RESERVED lock) on a database still in rollback-journal mode."""
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("CREATE TABLE IF NOT EXISTS scratch (x)")
    other.execute("BEGIN IMMEDIATE")
    other.execute("INSERT INTO scratch VALUES (1)")
    return other


def refused_after(switch) -> float:
    """Seconds until switch() raised "database is locked" (it must)."""
    t0 = time.monotonic()
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        switch()
    return time.monotonic() - t0


def test_sqlite_refuses_the_switch_at_once_beside_a_write(tmp_path):
    """What the store works around: SQLite's busy handler does not wait here (a deadlock it avoids)."""
    path = tmp_path / "x.sqlite3"
    other = writing(path)
    conn = sqlite3.connect(path, timeout=30, isolation_level=None)
    assert refused_after(lambda: conn.execute("PRAGMA journal_mode=WAL")) < 5, "at once, not after the busy timeout"
    other.execute("COMMIT")


def test_the_store_opens_once_the_other_write_ends(tmp_path):
    path = tmp_path / "fairdeal.sqlite3"
    other = writing(path)
    threading.Timer(0.3, lambda: other.execute("COMMIT")).start()
    store = SqliteStore(str(path))
    assert store._conn().execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_write_that_outlasts_the_timeout_is_still_an_error(tmp_path):
    path = tmp_path / "x.sqlite3"
    other = writing(path)
    conn = sqlite3.connect(path, timeout=0.1, isolation_level=None)
    assert 0.3 < refused_after(lambda: use_wal(conn, timeout=0.5)) < 5
    other.execute("COMMIT")


def queue_taken(path) -> bool:
    """Whether some open file holds the writers' queue (asked through a file of our own, never waiting)."""
    with open(str(path) + WRITERS, "rb") as fh:
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(fh.fileno(), fcntl.LOCK_UN)
        return False


def test_a_write_transaction_holds_the_writers_queue_and_lets_go_after(tmp_path):
    path = tmp_path / "fairdeal.sqlite3"
    store = SqliteStore(str(path))
    assert oct(os.stat(str(path) + WRITERS).st_mode & 0o777) == "0o600"
    assert not queue_taken(path)
    with store._tx() as db:
        db.execute("INSERT INTO secrets (game_id, value) VALUES ('g', 'v')")
        assert queue_taken(path)
    assert not queue_taken(path)
    with pytest.raises(sqlite3.IntegrityError), store._tx() as db:  # a failed write lets go too
        db.execute("INSERT INTO secrets (game_id, value) VALUES ('g', 'again')")
    assert not queue_taken(path)
    assert store.get_secret("g") == "v"


def test_a_refused_begin_lets_go_of_the_queue(tmp_path):
    path = tmp_path / "fairdeal.sqlite3"
    store = SqliteStore(str(path))
    store._conn().execute("BEGIN")  # a transaction already open on this thread's connection: BEGIN fails
    with pytest.raises(sqlite3.OperationalError), store._tx():
        pass
    store._conn().execute("ROLLBACK")
    assert not queue_taken(path)


def queue_waiters(path) -> int:
    """Requests blocked on the writers' queue (Linux's /proc/locks marks a waiting request "->")."""
    inode = os.stat(str(path) + WRITERS).st_ino
    with open("/proc/locks") as fh:
        return sum(1 for line in fh if "->" in line and "FLOCK" in line and line.split()[-3].endswith(f":{inode}"))


def test_two_threads_of_one_process_take_turns(tmp_path):
    """A flock belongs to an open file: each thread opens its own, so a process's threads queue too. The second
    writer's SQLite wait is off (busy_timeout 0: without the queue its BEGIN would fail at once): it waits in the
    queue, then finds SQLite's lock free."""
    path = tmp_path / "fairdeal.sqlite3"
    store = SqliteStore(str(path))
    inside, release, order, failed = threading.Event(), threading.Event(), [], []

    def first():
        with store._tx() as db:
            db.execute("INSERT INTO secrets (game_id, value) VALUES ('a', '1')")
            order.append("first in")
            inside.set()
            release.wait(10)
            order.append("first out")

    def second():
        inside.wait(10)
        store._conn().execute("PRAGMA busy_timeout=0")
        try:
            with store._tx() as db:
                order.append("second in")
                db.execute("INSERT INTO secrets (game_id, value) VALUES ('b', '2')")
        except sqlite3.OperationalError as exc:
            failed.append(exc)

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    inside.wait(10)
    deadline = time.monotonic() + 10
    while not queue_waiters(path) and time.monotonic() < deadline:
        time.sleep(0.01)
    waited = queue_waiters(path)
    release.set()
    for t in threads:
        t.join(10)
    assert waited == 1, "the second writer waited in the queue"
    assert failed == [] and order == ["first in", "first out", "second in"]
    assert store.get_secret("a") == "1" and store.get_secret("b") == "2"
