"""The embedded store opens beside another process's write: two `fairdeal serve` on one data dir, started
together, both come up (the switch to WAL mode is asked again while SQLite refuses it at once)."""

from __future__ import annotations

import sqlite3
import threading
import time

import pytest

from fairdeal.service.store.sqlite import SqliteStore, use_wal


def writing(path) -> sqlite3.Connection:
    """A connection in the middle of a write (a RESERVED lock) on a database still in rollback-journal mode."""
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("CREATE TABLE IF NOT EXISTS scratch (x)")
    other.execute("BEGIN IMMEDIATE")
    other.execute("INSERT INTO scratch VALUES (1)")
    return other


def test_sqlite_refuses_the_switch_at_once_beside_a_write(tmp_path):
    """What the store works around: SQLite's busy handler does not wait here (a deadlock it avoids)."""
    path = tmp_path / "x.sqlite3"
    other = writing(path)
    conn = sqlite3.connect(path, timeout=30, isolation_level=None)
    t0 = time.monotonic()
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        conn.execute("PRAGMA journal_mode=WAL")
    assert time.monotonic() - t0 < 5, "refused at once, not after the busy timeout"
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
    t0 = time.monotonic()
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        use_wal(conn, timeout=0.5)
    assert 0.3 < time.monotonic() - t0 < 5
    other.execute("COMMIT")
