"""The storage interface both stores implement (Redis for production, SQLite embedded).

The model is small on purpose:
- documents: JSON objects with a version, replaced only by compare-and-set on the version;
- game logs: an append-only list of records, appended only by compare-and-append on the length (and, when the
  caller says which, on the digest of the last entry: a store that lost writes and was written again since has
  the length the caller expects but not its last entry), with idempotency keys so a retried request is
  acknowledged once. A key belongs to whoever sent it (its scope: the player): the same key text from another
  player is another request;
- secrets: the server seed of a game, stored apart;
- indexes: named sorted sets of ids (lobby, deadline schedule, finished games);
- change notification: every append is announced to every process that watches the game (changes.py).
"""

from __future__ import annotations

import abc
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fairdeal.service.store.changes import Changes

OK = "ok"  # appended
CONFLICT = "conflict"  # the log is not at the expected length
DUPLICATE = "duplicate"  # this idempotency key was used before with the same body: nothing appended
KEY_REUSED = "key-reused"  # this idempotency key was used before with a different body


@dataclass(frozen=True)
class AppendResult:
    status: str
    length: int  # the log's length after the call
    seq: int | None = None  # the index the record (or the duplicate's original) has in the log


def idem_field(scope: str, key: str) -> str:
    """How an idempotency key is stored: with its scope, unambiguously (no scope text can end another's)."""
    return json.dumps([scope, key], separators=(",", ":"), ensure_ascii=False)


class StoreUnavailable(Exception):
    """The store cannot do what was asked now (answered 503 with Retry-After): e.g. an append Redis made but too
    few replicas confirmed in time. A retry with the same idempotency key is safe."""


class SecretMissing(RuntimeError):
    """A game's server seed is not in the store: the game can be neither dealt nor ended."""


def entry_digest(text: str) -> str:
    """The digest a compare-and-append checks the log's last entry against: SHA-1 of its stored text, because a
    Redis script can compute it (redis.sha1hex). It tells one history from another, not a forgery."""
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def leaf_field(game_id: str, leaf_type: str) -> str:
    """How a leaf is named for its once-only sequencing: its game and its type (one of each per game)."""
    return f"{game_id} {leaf_type}"


class NoTransparencyLog(NotImplementedError):
    """This store keeps no transparency log."""


class TransparencyLogStore:
    """The transparency log's storage (docs/log.md, "Storage"), beside the game logs of Store.

    A leaf is written in the same atomic write as the game-log entry it records (`append_with_leaf`); the
    store then gives it its place in the one global log (`tlog_sequence`: at once on SQLite, where every write
    is serialized anyway; from the games' queues on Redis, where a game's keys live in the game's cluster slot).
    Placing a leaf also stores, in the same atomic write, its hash and the hash of every subtree it completes
    (fairdeal.core.storedhash): the tree is read from the store, O(log n) hashes a proof, never rebuilt.
    """

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
        """Store.append without idempotency key (with its `last_digest` check), and the leaf (canonical JSON) of
        `leaf_type` with it: both or neither."""
        raise NoTransparencyLog

    def tlog_sequence(self, game_id: str | None = None, limit: int = 1000) -> int:
        """Give the queued leaves (of this game, or of up to `limit` games) their places; the log's size after."""
        raise NoTransparencyLog

    def tlog_size(self) -> int:
        raise NoTransparencyLog

    def tlog_leaves(self, start: int, stop: int) -> list[str]:
        """The leaves with index start <= i < stop (canonical JSON texts)."""
        raise NoTransparencyLog

    def tlog_game(self, game_id: str) -> dict[str, int]:
        """The sequenced leaves of a game: {leaf type: index}."""
        raise NoTransparencyLog

    def tlog_head(self) -> dict | None:
        """The latest signed tree head stored (None: none yet)."""
        raise NoTransparencyLog

    def tlog_put_head(self, head: dict) -> bool:
        """Store a signed tree head if it is no smaller than the stored one and not another root for the same
        size (a fork), and the log has that many leaves; whether it was stored."""
        raise NoTransparencyLog

    def tlog_read_hashes(self, indexes: Sequence[int]) -> list[bytes]:
        """The stored hashes at these indexes (storedhash.stored_hash_index), in one round trip (a HashReader).
        A hash not stored: ValueError."""
        raise NoTransparencyLog

    def tlog_hashed_size(self) -> int:
        """How many leaves have their hashes stored (the log's size, but for a log older than its stored
        hashes not yet brought up to date by tlog_fill_hashes)."""
        raise NoTransparencyLog

    def tlog_fill_hashes(self, page: int = 10_000) -> int:
        """Store the hashes of the leaves that have none (a log written before hashes were stored: done once,
        in pages, safe to run from several processes at once); the number of leaves hashed."""
        raise NoTransparencyLog


class Store(TransparencyLogStore, abc.ABC):
    """A store; its transparency-log calls are TransparencyLogStore's (both stores keep the log)."""

    # ---- documents
    @abc.abstractmethod
    def get_doc(self, kind: str, doc_id: str) -> tuple[dict[str, Any] | None, int]:
        """(document, version); (None, 0) when absent."""

    @abc.abstractmethod
    def put_doc(self, kind: str, doc_id: str, doc: dict[str, Any], expected_version: int) -> bool:
        """Store `doc` as version expected_version+1 if the stored version is `expected_version` (0: create)."""

    # ---- game logs
    @abc.abstractmethod
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
        """Append `record` at index `expected_length` atomically; all checks happen before any write.
        With `last_digest`: the log's last entry must have that entry_digest, else CONFLICT (with the expected
        length: the log went another way than the caller's copy).
        With `idem_key`: a key already used in this game by the same `idem_scope` (the player who sent it) with
        the same `body_hash` is DUPLICATE, with another body KEY_REUSED; nothing is appended then. A key whose
        record is no longer in the log (lost with it) counts as unused and is taken anew; so does a key older
        than the store's idempotency TTL (its move is more than that long ago; 0: keys never expire)."""

    @abc.abstractmethod
    def idem_lookup(
        self, game_id: str, idem_key: str, body_hash: str | None, idem_scope: str, at: float
    ) -> AppendResult | None:
        """What an append with this idempotency key would answer without appending, read without writing: DUPLICATE
        (same body) or KEY_REUSED (another), with the original's `seq` and the log's `length`; None when the key is
        unused in this game (never used, lost with its record, or past the TTL at time `at`)."""

    @abc.abstractmethod
    def delete_game(self, game_id: str) -> None:
        """Remove a game from the store: its table document, log, idempotency keys and secret (its index entries
        are the caller's to remove)."""

    def purge_idempotency(self, now: float) -> int:
        """Drop the idempotency keys older than the TTL, where the store does not expire them by itself."""
        return 0

    @abc.abstractmethod
    def records(self, game_id: str, start: int = 0) -> list[str]:
        """The log from index `start` on."""

    @abc.abstractmethod
    def log_info(self, game_id: str) -> tuple[int, float | None]:
        """(length, time of the last append)."""

    def doc_and_records(
        self, kind: str, doc_id: str, game_id: str, start: int
    ) -> tuple[tuple[dict[str, Any] | None, int], list[str]]:
        """get_doc and records together (one round trip where the store allows it)."""
        return self.get_doc(kind, doc_id), self.records(game_id, start)

    # ---- secrets
    @abc.abstractmethod
    def put_secret(self, game_id: str, value: str) -> bool:
        """Store the game's secret only if it has none; whether it was stored (a secret is never replaced: the
        commitment published with it binds it)."""

    @abc.abstractmethod
    def get_secret(self, game_id: str) -> str | None: ...

    # ---- indexes
    @abc.abstractmethod
    def index_set(self, name: str, member: str, score: float) -> None: ...

    @abc.abstractmethod
    def index_remove(self, name: str, member: str) -> None: ...

    @abc.abstractmethod
    def index_score(self, name: str, member: str) -> float | None:
        """The member's score, None when it is not in the index (a read: cheaper than a write)."""

    @abc.abstractmethod
    def index_count(self, name: str) -> int:
        """How many members the index has."""

    @abc.abstractmethod
    def index_range(
        self, name: str, max_score: float | None = None, limit: int = 100, after: float | None = None
    ) -> list[tuple[str, float]]:
        """Members by ascending score, up to max_score, with score > after when given."""

    # ---- change notification
    @abc.abstractmethod
    def announce(self, topic: str) -> None:
        """Wake every watch on `topic` in every process (a token's end: auth.token_topic). An append announces
        its game by itself."""

    @abc.abstractmethod
    def changes(self) -> Changes:
        """This process's listener for appends to any game's log, made on first use (once per process: a
        forked child gets its own)."""

    # ---- health
    @abc.abstractmethod
    def ping(self) -> bool: ...

    def close(self) -> None:  # noqa: B027 - optional: a store holding nothing to release keeps this no-op
        pass
