"""The transparency log in the embedded store (docs/log.md, "Storage").

Every SQLite write is serialized by the database's write lock, so a leaf takes its place in the log in the very
transaction that appends the commit or end record it records: there is no queue, and sequencing has nothing to
do. The leaf index is the row's `idx`, one more than the last.
"""
from __future__ import annotations

import json

from fairdeal.service.store.base import CONFLICT, OK, AppendResult, TransparencyLogStore

TLOG_SCHEMA = """
CREATE TABLE IF NOT EXISTS tlog (idx INTEGER PRIMARY KEY, game_id TEXT NOT NULL, type TEXT NOT NULL,
                                 leaf TEXT NOT NULL, UNIQUE (game_id, type));
CREATE TABLE IF NOT EXISTS tlog_head (one INTEGER PRIMARY KEY CHECK (one = 1), size INTEGER NOT NULL,
                                      root TEXT NOT NULL, body TEXT NOT NULL);
"""
SIZE = "SELECT COALESCE(MAX(idx) + 1, 0) FROM tlog"   # the indexes have no gaps: no count over every row


class SqliteTlog(TransparencyLogStore):
    """Mixed into SqliteStore: uses its connection, transactions and doorbell."""

    def append_with_leaf(self, game_id: str, expected_length: int, record: str, at: float, leaf_type: str,
                         leaf: str, last_digest: str | None = None) -> AppendResult:
        res = self._write(self._append_with_leaf, game_id, expected_length, record, at, leaf_type, leaf,
                          last_digest)
        if res.status == OK:
            self._bell.ring()
        return res

    def _append_with_leaf(self, game_id: str, expected_length: int, record: str, at: float, leaf_type: str,
                          leaf: str, last_digest: str | None) -> AppendResult:
        with self._tx() as db:
            length = db.execute("SELECT COUNT(*) FROM log WHERE game_id=?", (game_id,)).fetchone()[0]
            if length != expected_length or self._last_differs(db, game_id, length, last_digest):
                return AppendResult(CONFLICT, length)
            db.execute("INSERT INTO log (game_id, seq, record, at) VALUES (?,?,?,?)", (game_id, length, record, at))
            # UNIQUE (game_id, type): a second leaf of the same kind for a game fails the whole transaction
            db.execute("INSERT INTO tlog (idx, game_id, type, leaf) SELECT COALESCE(MAX(idx) + 1, 0), ?, ?, ? "
                       "FROM tlog", (game_id, leaf_type, leaf))
            return AppendResult(OK, length + 1, length)

    def tlog_sequence(self, game_id: str | None = None, limit: int = 1000) -> int:
        return self.tlog_size()

    def tlog_size(self) -> int:
        return self._conn().execute(SIZE).fetchone()[0]

    def tlog_leaves(self, start: int, stop: int) -> list[str]:
        rows = self._conn().execute("SELECT leaf FROM tlog WHERE idx >= ? AND idx < ? ORDER BY idx",
                                    (start, stop)).fetchall()
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
            db.execute("INSERT OR REPLACE INTO tlog_head (one, size, root, body) VALUES (1, ?, ?, ?)",
                       (size, root, body))
            return True
