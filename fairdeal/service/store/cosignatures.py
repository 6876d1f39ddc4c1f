"""Witnesses' cosignatures of the log's checkpoints (docs/log.md, "Witnesses"), in either store: per witness key,
the latest checkpoint it cosigned {"size", "root" (hex), "line" (its note signature line), "time"}. A witness's
cosignature is replaced only by one of a tree at least as large (a witness never cosigns backwards; the
service checks every cosignature and its root before it stores it)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import sqlite3

from fairdeal.service.store import keys

COSIGNATURE_SCHEMA = """
CREATE TABLE IF NOT EXISTS tlog_cosignature (witness TEXT PRIMARY KEY, size INTEGER NOT NULL, body TEXT NOT NULL);
"""

# KEYS: the cosignatures hash. ARGV: witness, size, body. Stored only over a smaller or equal size.
PUT_COSIGNATURE = """
local old = redis.call('HGET', KEYS[1], ARGV[1])
if old and tonumber(cjson.decode(old)['size']) > tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 1
"""


class CosignatureStore:
    def tlog_put_cosignature(self, witness: str, cosignature: dict) -> bool:
        """Keep `cosignature` as `witness`'s latest unless it holds one of a larger tree; whether it was kept."""
        raise NotImplementedError

    def tlog_cosignatures(self) -> dict[str, dict]:
        """{witness: its latest cosignature}."""
        raise NotImplementedError


class SqliteCosignatures(CosignatureStore):
    """Mixed into SqliteStore (its connection and transactions)."""

    if TYPE_CHECKING:  # what it uses of SqliteStore, for mypy

        def _conn(self) -> sqlite3.Connection: ...
        def _tx(self) -> Any: ...
        def _write(self, fn: Callable[..., Any], *args: Any) -> Any: ...

    def tlog_put_cosignature(self, witness: str, cosignature: dict) -> bool:
        return self._write(self._put_cosignature, witness, cosignature["size"], json.dumps(cosignature))

    def _put_cosignature(self, witness: str, size: int, body: str) -> bool:
        with self._tx() as db:
            row = db.execute("SELECT size FROM tlog_cosignature WHERE witness=?", (witness,)).fetchone()
            if row and row[0] > size:
                return False
            db.execute(
                "INSERT OR REPLACE INTO tlog_cosignature (witness, size, body) VALUES (?, ?, ?)", (witness, size, body)
            )
            return True

    def tlog_cosignatures(self) -> dict[str, dict]:
        rows = self._conn().execute("SELECT witness, body FROM tlog_cosignature").fetchall()
        return {w: json.loads(b) for w, b in rows}


class RedisCosignatures(CosignatureStore):
    """Mixed into RedisStore (its client `self.r`)."""

    if TYPE_CHECKING:
        r: Any  # a Redis or a RedisCluster client

    def tlog_put_cosignature(self, witness: str, cosignature: dict) -> bool:
        script = getattr(self, "_cosignature_script", None)
        if script is None:
            script = self._cosignature_script = self.r.register_script(PUT_COSIGNATURE)
        return bool(
            script(keys=[keys.tlog_cosignatures()], args=[witness, cosignature["size"], json.dumps(cosignature)])
        )

    def tlog_cosignatures(self) -> dict[str, dict]:
        got = self.r.hgetall(keys.tlog_cosignatures())
        return {(w.decode() if isinstance(w, bytes) else w): json.loads(b) for w, b in got.items()}
