"""The embedded store for one machine: SQLite in WAL mode, nothing to install.

Safe under several gunicorn workers: every compare-and-set runs in a BEGIN IMMEDIATE transaction, which
takes the database's write lock before the first read, so the check and the write cannot interleave with
another process. Each OS thread has its own connection.

Under gevent (fairdeal serve) the greenlets of a worker share its thread's connection for reads: a read is one
statement that runs to its end without yielding, so two greenlets never interleave on it. Writes run in a
native thread (green.offload): their fsync, and their wait for another process's write lock, would otherwise
stall every greenlet of the worker.

After each committed append every process listening on the database is rung (sqlite_changes.py).
"""

from __future__ import annotations

import fcntl
import json
import os
import sqlite3
import threading
import time
from typing import Any, BinaryIO

from fairdeal.service import green
from fairdeal.service.store.base import (
    CONFLICT,
    DUPLICATE,
    KEY_REUSED,
    OK,
    AppendResult,
    Store,
    entry_digest,
    idem_field,
)
from fairdeal.service.store.cosignatures import COSIGNATURE_SCHEMA, SqliteCosignatures
from fairdeal.service.store.sqlite_changes import Doorbell, SqliteChanges, listeners_dir
from fairdeal.service.store.sqlite_tlog import TLOG_SCHEMA, SqliteTlog

SCHEMA = """
CREATE TABLE IF NOT EXISTS docs (kind TEXT NOT NULL, id TEXT NOT NULL, version INTEGER NOT NULL,
                                 body TEXT NOT NULL, PRIMARY KEY (kind, id));
CREATE TABLE IF NOT EXISTS log (game_id TEXT NOT NULL, seq INTEGER NOT NULL, record TEXT NOT NULL,
                                at REAL NOT NULL, PRIMARY KEY (game_id, seq));
-- idem.key is the key with its scope (the player who sent it): store.base.idem_field
CREATE TABLE IF NOT EXISTS idem (game_id TEXT NOT NULL, key TEXT NOT NULL, body_hash TEXT NOT NULL,
                                 seq INTEGER NOT NULL, PRIMARY KEY (game_id, key));
CREATE TABLE IF NOT EXISTS secrets (game_id TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS idx (name TEXT NOT NULL, member TEXT NOT NULL, score REAL NOT NULL,
                                PRIMARY KEY (name, member));
CREATE INDEX IF NOT EXISTS idx_score ON idx (name, score);
-- announcements other than appends (Store.announce: a token's end), read by every listener as log rows are
CREATE TABLE IF NOT EXISTS notices (id INTEGER PRIMARY KEY AUTOINCREMENT, topic TEXT NOT NULL, at REAL NOT NULL);
"""
NOTICE_KEEP = 3600.0  # seconds a notice is kept: a listener reads it within moments of the ring


FILE_MODE = 0o600  # the database holds every running game's seed, so its hidden cards: the owner only
FOLDER_MODE = 0o700
WRITERS = "-writers"  # the writers' queue: a file every write transaction holds an exclusive flock on
COMPANIONS = ("", "-wal", "-shm", "-journal", WRITERS)
OPEN_TIMEOUT = 30.0  # seconds a connection waits for another process's lock (the busy handler, and WAL below)


def use_wal(conn: sqlite3.Connection, timeout: float = OPEN_TIMEOUT) -> None:
    """Put the database in WAL mode (kept in the file: later connections find it set). Switching needs every
    other connection out of the way, and SQLite answers "database is locked" at once, without its busy handler,
    when one is not (two `fairdeal serve` on one data dir, started together, failed so about one time in five):
    ask again, a little later each time, for up to `timeout` seconds."""
    if conn.execute("PRAGMA journal_mode").fetchone()[0].lower() == "wal":
        return
    end, pause = time.monotonic() + timeout, 0.01
    while True:
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() + pause > end:
                raise
        time.sleep(pause)
        pause = min(0.5, pause * 2)


def private_files(path: str) -> None:
    """Create the database file 0600 (in a 0700 folder when the folder is new) before SQLite opens it:
    SQLite gives its -wal and -shm files the database file's mode. Files an older version left readable by
    others are made 0600."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        os.makedirs(folder, mode=FOLDER_MODE, exist_ok=True)
        os.chmod(folder, FOLDER_MODE)  # makedirs' mode is masked by the umask
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, FILE_MODE))
    for suffix in COMPANIONS:
        try:
            if os.stat(path + suffix).st_mode & 0o077:
                os.chmod(path + suffix, FILE_MODE)
        except FileNotFoundError:
            pass


def _writers_file(path: str) -> BinaryIO:
    """The writers' queue file, opened for this thread (closed with it: a file object, not a bare descriptor)."""
    return open(path, "ab", buffering=0, opener=lambda p, flags: os.open(p, flags, FILE_MODE))  # noqa: SIM115


class SqliteStore(SqliteTlog, SqliteCosignatures, Store):
    def __init__(self, path: str, idem_ttl: float = 0.0):
        self.path, self.idem_ttl = path, idem_ttl  # Config.idem_ttl (0: keys never expire)
        if path != ":memory:":
            private_files(path)
        self._local = green.os_thread_local()
        self._conn().executescript(SCHEMA + TLOG_SCHEMA + COSIGNATURE_SCHEMA)
        self._bell = Doorbell(listeners_dir(path))
        self._changes: SqliteChanges | None = None
        self._changes_pid = -1
        self._changes_lock = threading.Lock()

    def _conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None or getattr(self._local, "pid", None) != os.getpid():
            # isolation_level=None: we issue BEGIN ourselves; a connection is never shared across a fork.
            conn = sqlite3.connect(self.path, timeout=OPEN_TIMEOUT, isolation_level=None, check_same_thread=False)
            use_wal(conn)
            # FULL: a commit is fsynced before the move is acknowledged (NORMAL would survive a crash of the
            # process but not of the machine)
            conn.execute("PRAGMA synchronous=FULL")  # (connect's timeout is the busy timeout: OPEN_TIMEOUT)
            self._local.conn, self._local.pid = conn, os.getpid()
            # this thread's own open file (a flock belongs to the open file, so threads queue as processes do)
            self._local.writers = None if self.path == ":memory:" else _writers_file(self.path + WRITERS)
        return conn

    class _Tx:
        """A write transaction, in the writers' queue. SQLite's own wait for another connection's write lock
        polls, sleeping 1, 2, 5, 10, 15, 20, 25, 50 then 100 ms between tries: with a worker's writes, its
        neighbours' and the sweeper's on one file, a move waited 5 to 25 ms, and a tail past 100 ms, for a lock
        held a fraction of a millisecond (bench/README.md, 2026-12-04). An exclusive flock on the writers' file
        first makes them queue, each woken the moment the one before lets go; BEGIN IMMEDIATE then finds the
        lock free (a writer outside the queue, an older version, still meets the busy handler)."""

        def __init__(self, conn: sqlite3.Connection, writers: BinaryIO | None):
            self.conn, self.writers = conn, writers

        def __enter__(self) -> sqlite3.Connection:
            if self.writers is not None:
                fcntl.flock(self.writers.fileno(), fcntl.LOCK_EX)
            try:
                self.conn.execute("BEGIN IMMEDIATE")
            except BaseException:
                self._leave()
                raise
            return self.conn

        def __exit__(self, exc_type, exc, tb) -> None:
            try:
                self.conn.execute("ROLLBACK" if exc_type else "COMMIT")
            finally:
                self._leave()

        def _leave(self) -> None:
            if self.writers is not None:
                fcntl.flock(self.writers.fileno(), fcntl.LOCK_UN)

    def _tx(self) -> SqliteStore._Tx:
        conn = self._conn()  # (opens this thread's writers' file with its connection)
        return SqliteStore._Tx(conn, self._local.writers)

    def _write(self, fn, *args):
        """fn(*args) where a blocking write belongs (a native thread under gevent)."""
        return green.offload(fn, *args)

    # ---- documents
    def get_doc(self, kind: str, doc_id: str) -> tuple[dict[str, Any] | None, int]:
        row = self._conn().execute("SELECT body, version FROM docs WHERE kind=? AND id=?", (kind, doc_id)).fetchone()
        return (json.loads(row[0]), row[1]) if row else (None, 0)

    def put_doc(self, kind: str, doc_id: str, doc: dict[str, Any], expected_version: int) -> bool:
        return self._write(
            self._put_doc, kind, doc_id, json.dumps(doc, separators=(",", ":"), sort_keys=True), expected_version
        )

    def _put_doc(self, kind: str, doc_id: str, body: str, expected_version: int) -> bool:
        with self._tx() as db:
            row = db.execute("SELECT version FROM docs WHERE kind=? AND id=?", (kind, doc_id)).fetchone()
            if (row[0] if row else 0) != expected_version:
                return False
            db.execute(
                "INSERT OR REPLACE INTO docs (kind, id, version, body) VALUES (?,?,?,?)",
                (kind, doc_id, expected_version + 1, body),
            )
            return True

    # ---- game logs
    def append(
        self,
        game_id: str,
        expected_length: int,
        record: str,
        at: float,
        idem_key: str | None = None,
        body_hash: str | None = None,
        idem_scope: str = "",
        last_digest: str | None = None,
    ) -> AppendResult:
        if idem_key is not None:
            idem_key = idem_field(idem_scope, idem_key)
        res = self._write(self._append, game_id, expected_length, record, at, idem_key, body_hash, last_digest)
        if res.status == OK:
            self._bell.ring()  # after the commit: a listener that reads now sees the row
        return res

    def _append(
        self,
        game_id: str,
        expected_length: int,
        record: str,
        at: float,
        idem_key: str | None,
        body_hash: str | None,
        last_digest: str | None,
    ) -> AppendResult:
        with self._tx() as db:
            length = db.execute("SELECT COUNT(*) FROM log WHERE game_id=?", (game_id,)).fetchone()[0]
            if idem_key is not None:
                row = db.execute(
                    "SELECT body_hash, seq FROM idem WHERE game_id=? AND key=?", (game_id, idem_key)
                ).fetchone()
                if row and row[1] < length and not self._expired(db, game_id, row[1], at):
                    return AppendResult(DUPLICATE if row[0] == body_hash else KEY_REUSED, length, row[1])
            if length != expected_length or self._last_differs(db, game_id, length, last_digest):
                return AppendResult(CONFLICT, length)
            db.execute("INSERT INTO log (game_id, seq, record, at) VALUES (?,?,?,?)", (game_id, length, record, at))
            if idem_key is not None:
                db.execute(
                    "INSERT OR REPLACE INTO idem (game_id, key, body_hash, seq) VALUES (?,?,?,?)",
                    (game_id, idem_key, body_hash or "", length),
                )
            return AppendResult(OK, length + 1, length)

    def idem_lookup(
        self, game_id: str, idem_key: str, body_hash: str | None, idem_scope: str, at: float
    ) -> AppendResult | None:
        # one statement: one read snapshot of the key, the log's length and the key's record time (no write lock)
        row = (
            self._conn()
            .execute(
                "SELECT i.body_hash, i.seq, (SELECT COUNT(*) FROM log WHERE game_id=:g), "
                "(SELECT at FROM log WHERE game_id=:g AND seq=i.seq) FROM idem i WHERE i.game_id=:g AND i.key=:k",
                {"g": game_id, "k": idem_field(idem_scope, idem_key)},
            )
            .fetchone()
        )
        if row is None:
            return None
        stored_hash, seq, length, record_at = row
        if seq >= length or (self.idem_ttl and record_at < at - self.idem_ttl):
            return None
        return AppendResult(DUPLICATE if stored_hash == body_hash else KEY_REUSED, length, seq)

    @staticmethod
    def _last_differs(db: sqlite3.Connection, game_id: str, length: int, last_digest: str | None) -> bool:
        """Whether the log's last entry is not the one whose digest the caller holds (None: not checked)."""
        if last_digest is None or not length:
            return False
        last = db.execute("SELECT record FROM log WHERE game_id=? AND seq=?", (game_id, length - 1)).fetchone()[0]
        return entry_digest(last) != last_digest

    def _expired(self, db: sqlite3.Connection, game_id: str, seq: int, now: float) -> bool:
        """Whether the idempotency key of the record at `seq` is past its TTL (the record's time tells)."""
        if not self.idem_ttl:
            return False
        row = db.execute("SELECT at FROM log WHERE game_id=? AND seq=?", (game_id, seq)).fetchone()
        return row[0] < now - self.idem_ttl

    def purge_idempotency(self, now: float) -> int:
        if not self.idem_ttl:
            return 0
        return self._write(
            self._exec,
            "DELETE FROM idem WHERE EXISTS (SELECT 1 FROM log WHERE log.game_id = "
            "idem.game_id AND log.seq = idem.seq AND log.at < ?)",
            (now - self.idem_ttl,),
        )

    def delete_game(self, game_id: str) -> None:
        self._write(self._delete_game, game_id)

    def _delete_game(self, game_id: str) -> None:
        with self._tx() as db:
            db.execute("DELETE FROM docs WHERE kind='table' AND id=?", (game_id,))
            for table in ("log", "idem", "secrets"):
                db.execute(f"DELETE FROM {table} WHERE game_id=?", (game_id,))

    def records(self, game_id: str, start: int = 0) -> list[str]:
        rows = (
            self._conn()
            .execute("SELECT record FROM log WHERE game_id=? AND seq>=? ORDER BY seq", (game_id, start))
            .fetchall()
        )
        return [r[0] for r in rows]

    def log_info(self, game_id: str) -> tuple[int, float | None]:
        row = self._conn().execute("SELECT COUNT(*), MAX(at) FROM log WHERE game_id=?", (game_id,)).fetchone()
        return row[0], row[1]

    # ---- secrets
    def put_secret(self, game_id: str, value: str) -> bool:
        return (
            self._write(self._exec, "INSERT OR IGNORE INTO secrets (game_id, value) VALUES (?,?)", (game_id, value))
            == 1
        )

    def _exec(self, sql: str, args: tuple) -> int:
        """One statement in its own write transaction; the rows it changed."""
        with self._tx() as db:
            return db.execute(sql, args).rowcount

    def get_secret(self, game_id: str) -> str | None:
        row = self._conn().execute("SELECT value FROM secrets WHERE game_id=?", (game_id,)).fetchone()
        return row[0] if row else None

    # ---- indexes
    def index_set(self, name: str, member: str, score: float) -> None:
        self._write(
            self._exec, "INSERT OR REPLACE INTO idx (name, member, score) VALUES (?,?,?)", (name, member, score)
        )

    def index_remove(self, name: str, member: str) -> None:
        self._write(self._exec, "DELETE FROM idx WHERE name=? AND member=?", (name, member))

    def index_score(self, name: str, member: str) -> float | None:
        row = self._conn().execute("SELECT score FROM idx WHERE name=? AND member=?", (name, member)).fetchone()
        return None if row is None else row[0]

    def index_count(self, name: str) -> int:
        return self._conn().execute("SELECT COUNT(*) FROM idx WHERE name=?", (name,)).fetchone()[0]

    def index_range(
        self, name: str, max_score: float | None = None, limit: int = 100, after: float | None = None
    ) -> list[tuple[str, float]]:
        args: list[Any]
        sql, args = "SELECT member, score FROM idx WHERE name=?", [name]
        if max_score is not None:
            sql += " AND score<=?"
            args.append(max_score)
        if after is not None:
            sql += " AND score>?"
            args.append(after)
        sql += " ORDER BY score, member LIMIT ?"
        args.append(limit)
        return [(m, s) for m, s in self._conn().execute(sql, args).fetchall()]

    def ping(self) -> bool:
        self._conn().execute("SELECT 1").fetchone()
        return True

    # ---- change notification
    def announce(self, topic: str) -> None:
        self._write(self._notice, topic, time.time())
        self._bell.ring()  # after the commit, as an append rings

    def _notice(self, topic: str, now: float) -> None:
        with self._tx() as db:
            db.execute("DELETE FROM notices WHERE at < ?", (now - NOTICE_KEEP,))
            db.execute("INSERT INTO notices (topic, at) VALUES (?,?)", (topic, now))

    def changes(self) -> SqliteChanges:
        with self._changes_lock:
            if self._changes is None or self._changes_pid != os.getpid():  # a forked child listens anew
                self._changes = SqliteChanges(listeners_dir(self.path), self._log_since, self._last_rowid)
                self._changes_pid = os.getpid()
            return self._changes

    def _last_rowid(self) -> tuple[int, int]:
        """The listener's cursor: (the log's last rowid, the last notice's id)."""
        db = self._conn()
        return (
            db.execute("SELECT COALESCE(MAX(rowid), 0) FROM log").fetchone()[0],
            db.execute("SELECT COALESCE(MAX(id), 0) FROM notices").fetchone()[0],
        )

    def _log_since(self, cursor: tuple[int, int] | int) -> tuple[tuple[int, int], set[str]]:
        """(the new cursor, the games with log rows and the topics with notices past `cursor`): both ids grow
        in commit order."""
        rowid, notice = cursor if isinstance(cursor, tuple) else (cursor, 0)
        db = self._conn()
        rows = db.execute("SELECT rowid, game_id FROM log WHERE rowid > ? ORDER BY rowid", (rowid,)).fetchall()
        notes = db.execute("SELECT id, topic FROM notices WHERE id > ? ORDER BY id", (notice,)).fetchall()
        return (
            (rows[-1][0] if rows else rowid, notes[-1][0] if notes else notice),
            {g for _, g in rows} | {t for _, t in notes},
        )

    def close(self) -> None:
        if self._changes is not None and self._changes_pid == os.getpid():
            self._changes.close()
            self._changes = None
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None
