"""The transparency log in the embedded store (docs/log.md, "Storage").

Every SQLite write is serialized by the database's write lock, so a leaf takes its place in the log in the very
transaction that appends the commit or end record it records: there is no queue, and sequencing has nothing to
do. The leaf index is the row's `idx`, one more than the last. The same transaction stores the leaf's hash and
those of the subtrees it completes (table `tlog_hash`, row `idx` = the stored-hash index of
fairdeal.core.storedhash), reading the O(log n) hashes it needs in one SELECT.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from fairdeal.core import merkle, storedhash
from fairdeal.service.store.base import CONFLICT, OK, AppendResult, TransparencyLogStore

if TYPE_CHECKING:
    from fairdeal.service.store.sqlite_changes import Doorbell

TLOG_SCHEMA = """
CREATE TABLE IF NOT EXISTS tlog (idx INTEGER PRIMARY KEY, game_id TEXT NOT NULL, type TEXT NOT NULL,
                                 leaf TEXT NOT NULL, UNIQUE (game_id, type));
CREATE TABLE IF NOT EXISTS tlog_head (one INTEGER PRIMARY KEY CHECK (one = 1), size INTEGER NOT NULL,
                                      root TEXT NOT NULL, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tlog_hash (idx INTEGER PRIMARY KEY, hash BLOB NOT NULL);
"""
SIZE = "SELECT COALESCE(MAX(idx) + 1, 0) FROM tlog"  # the indexes have no gaps: no count over every row
HASHES = "SELECT COALESCE(MAX(idx) + 1, 0) FROM tlog_hash"
MAX_VARIABLES = 900  # SQLite's default limit on a statement's parameters is 999 (older builds)


def _read_hashes(db: sqlite3.Connection, indexes: Sequence[int]) -> list[bytes]:
    found: dict[int, bytes] = {}
    wanted = sorted(set(indexes))
    for at in range(0, len(wanted), MAX_VARIABLES):  # a proof asks for ~2 log2(n) < 100: one SELECT
        part = wanted[at : at + MAX_VARIABLES]
        found.update(
            db.execute(f"SELECT idx, hash FROM tlog_hash WHERE idx IN ({','.join('?' * len(part))})", part).fetchall()
        )
    missing = [i for i in wanted if i not in found]
    if missing:
        raise ValueError(f"stored hash {missing[0]} is not in the store")
    return [bytes(found[i]) for i in indexes]


def _hashed_size(db: sqlite3.Connection) -> int:
    # each leaf's hashes are written in one transaction: the count is always stored_hash_count of some size
    return storedhash.leaves_of_count(db.execute(HASHES).fetchone()[0])


def _store_hashes(db: sqlite3.Connection, n: int, hashes: Sequence[bytes]) -> None:
    at = storedhash.stored_hash_count(n)
    db.executemany("INSERT INTO tlog_hash (idx, hash) VALUES (?, ?)", list(enumerate(hashes, start=at)))


class SqliteTlog(TransparencyLogStore):
    """Mixed into SqliteStore: uses its connection, transactions and doorbell."""

    if TYPE_CHECKING:  # what it uses of SqliteStore, for mypy
        _bell: Doorbell

        def _conn(self) -> sqlite3.Connection: ...
        def _tx(self) -> Any: ...
        def _write(self, fn: Callable[..., Any], *args: Any) -> Any: ...
        @staticmethod
        def _last_differs(db: sqlite3.Connection, game_id: str, length: int, last_digest: str | None) -> bool: ...

    def append_with_leaf(
        self,
        game_id: str,
        expected_length: int,
        record: str,
        at: float,
        leaf_type: str,
        leaf: str,
        last_digest: str | None = None,
    ) -> AppendResult:
        res = self._write(self._append_with_leaf, game_id, expected_length, record, at, leaf_type, leaf, last_digest)
        if res.status == OK:
            self._bell.ring()
        return res

    def _append_with_leaf(
        self,
        game_id: str,
        expected_length: int,
        record: str,
        at: float,
        leaf_type: str,
        leaf: str,
        last_digest: str | None,
    ) -> AppendResult:
        with self._tx() as db:
            length = db.execute("SELECT COUNT(*) FROM log WHERE game_id=?", (game_id,)).fetchone()[0]
            if length != expected_length or self._last_differs(db, game_id, length, last_digest):
                return AppendResult(CONFLICT, length)
            db.execute("INSERT INTO log (game_id, seq, record, at) VALUES (?,?,?,?)", (game_id, length, record, at))
            n = db.execute(SIZE).fetchone()[0]
            if _hashed_size(db) < n:  # a log written before hashes were stored, not filled yet: fill it first
                self._fill_in(db, n)
            # UNIQUE (game_id, type): a second leaf of the same kind for a game fails the whole transaction
            db.execute("INSERT INTO tlog (idx, game_id, type, leaf) VALUES (?, ?, ?, ?)", (n, game_id, leaf_type, leaf))
            leaf_hash = merkle.leaf_hash(leaf.encode("utf-8"))
            _store_hashes(db, n, storedhash.hashes_for_append(n, leaf_hash, lambda ix: _read_hashes(db, ix)))
            return AppendResult(OK, length + 1, length)

    # ---- stored hashes (fairdeal.core.storedhash)
    def tlog_read_hashes(self, indexes: Sequence[int]) -> list[bytes]:
        return _read_hashes(self._conn(), indexes) if indexes else []

    def tlog_hashed_size(self) -> int:
        return _hashed_size(self._conn())

    def tlog_fill_hashes(self, page: int = 10_000) -> int:
        done = 0
        while True:  # a transaction a page: other writers wait for one page at most, never for the whole log
            got = self._write(self._fill_page, page)
            if not got:
                return done
            done += got

    def _fill_page(self, page: int) -> int:
        with self._tx() as db:
            return self._fill_in(db, db.execute(SIZE).fetchone()[0], page)

    def _fill_in(self, db: sqlite3.Connection, size: int, page: int | None = None) -> int:
        start = _hashed_size(db)
        stop = size if page is None else min(size, start + page)
        if stop <= start:
            return 0
        appender = storedhash.Appender(start, lambda ix: _read_hashes(db, ix))
        for (text,) in db.execute("SELECT leaf FROM tlog WHERE idx >= ? AND idx < ? ORDER BY idx", (start, stop)):
            appender.append(merkle.leaf_hash(text.encode("utf-8")))
        _store_hashes(db, start, appender.hashes)
        return stop - start

    def tlog_sequence(self, game_id: str | None = None, limit: int = 1000) -> int:
        return self.tlog_size()

    def tlog_size(self) -> int:
        return self._conn().execute(SIZE).fetchone()[0]

    def tlog_leaves(self, start: int, stop: int) -> list[str]:
        rows = (
            self._conn()
            .execute("SELECT leaf FROM tlog WHERE idx >= ? AND idx < ? ORDER BY idx", (start, stop))
            .fetchall()
        )
        return [r[0] for r in rows]

    def tlog_game(self, game_id: str) -> dict[str, int]:
        rows = self._conn().execute("SELECT type, idx FROM tlog WHERE game_id=?", (game_id,)).fetchall()
        return {t: i for t, i in rows}

    def tlog_head(self) -> dict | None:
        row = self._conn().execute("SELECT body FROM tlog_head WHERE one = 1").fetchone()
        return json.loads(row[0]) if row else None

    def tlog_put_head(self, head: dict) -> bool:
        return self._write(self._put_head, head["size"], head["root"], json.dumps(head, sort_keys=True))

    def _put_head(self, size: int, root: str, body: str) -> bool:
        with self._tx() as db:
            if size > db.execute(SIZE).fetchone()[0]:
                return False
            row = db.execute("SELECT size, root FROM tlog_head WHERE one = 1").fetchone()
            if row and (size < row[0] or (size == row[0] and root != row[1])):
                return False
            db.execute(
                "INSERT OR REPLACE INTO tlog_head (one, size, root, body) VALUES (1, ?, ?, ?)", (size, root, body)
            )
            return True
