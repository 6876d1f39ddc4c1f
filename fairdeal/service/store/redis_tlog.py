"""The transparency log in Redis and Redis Cluster (docs/log.md, "Storage").

A game's keys share its hash tag, so on a cluster the commit and end records can be written together only with
keys of the game's own slot. The leaf is therefore pushed, in the same script as the record it records, onto the
game's queue (keys.tlog_queue); a sequencer then moves queued leaves into the one global log (keys.tlog_leaves,
slot {tlog}). Sequencing is idempotent: the log's own script gives each leaf ("<game> <type>") one index and
answers that index again for a leaf it already has, so a sequencer that dies half way, or two that race, never
add a leaf twice; the queue is then emptied of exactly the leaves sequenced. The same script stores the leaves'
hashes and those of the subtrees they complete (fairdeal.core.storedhash, in keys.tlog_hashes chunks, slot
{tlog}); Redis scripts cannot hash SHA-256, so the sequencer computes them for the size it read, from the O(log n)
right-edge hashes (one read), and the script writes only if the log is still that size (else it plans again).

Which games have queued leaves is the index "tlog-pending": the writer scores the game there before its script
and again after it (a fresh time each), and the sequencer drops a game from it only if its score is still the
one it read before draining the queue, so a leaf pushed meanwhile keeps its game pending. Should a process die
between its script and its second index write after a sequencer dropped the first, the leaf waits in its queue
until the game is sequenced by name (any request for that game's proofs does so).
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from redis.exceptions import NoScriptError

from fairdeal.core import merkle, storedhash
from fairdeal.service.store import keys
from fairdeal.service.store.base import AppendResult, TransparencyLogStore, leaf_field
from fairdeal.service.store.redis_lua import last_entry_check

# KEYS: log, log meta, tlog queue. ARGV: expected length, record, at, leaf, events channel (all the game's slot),
# digest of the expected last entry ('' unchecked)
APPEND_WITH_LEAF = (
    """
local len = redis.call('LLEN', KEYS[1])
if len ~= tonumber(ARGV[1]) then return {'conflict', len, -1} end
"""
    + last_entry_check(6)
    + """
redis.call('RPUSH', KEYS[1], ARGV[2])
redis.call('HSET', KEYS[2], 'at', ARGV[3])
redis.call('RPUSH', KEYS[3], ARGV[4])
redis.call('SPUBLISH', ARGV[5], len + 1)
return {'ok', len + 1, len}
"""
)

# KEYS: tlog leaves, tlog games, tlog hashed (slot {tlog}), then the hash chunks written. ARGV: the log's size the
# hashes were computed for, the number of leaves L, name 1, leaf 1, ..., name L, leaf L, then per chunk: byte
# offset, bytes. All or nothing: -1 (and nothing written) when the log moved on or a leaf is placed already.
SEQUENCE = """
local n = tonumber(ARGV[1])
if redis.call('LLEN', KEYS[1]) ~= n or tonumber(redis.call('GET', KEYS[3]) or '0') ~= n then return -1 end
local count = tonumber(ARGV[2])
for i = 0, count - 1 do
  if redis.call('HEXISTS', KEYS[2], ARGV[3 + 2 * i]) == 1 then return -1 end
end
for i = 0, count - 1 do
  redis.call('RPUSH', KEYS[1], ARGV[4 + 2 * i])
  redis.call('HSET', KEYS[2], ARGV[3 + 2 * i], n + i)
end
local a = 3 + 2 * count
for k = 4, #KEYS do
  redis.call('SETRANGE', KEYS[k], ARGV[a], ARGV[a + 1])
  a = a + 2
end
redis.call('SET', KEYS[3], n + count)
return n + count
"""

# KEYS: tlog hashed, tlog leaves, then the hash chunks written. ARGV: leaves hashed before, after, then per chunk:
# byte offset, bytes. Fills a log older than its stored hashes, a page at a time; 0 when another filled it first.
FILL = """
if tonumber(redis.call('GET', KEYS[1]) or '0') ~= tonumber(ARGV[1]) then return 0 end
if redis.call('LLEN', KEYS[2]) < tonumber(ARGV[2]) then return 0 end
local a = 3
for k = 3, #KEYS do
  redis.call('SETRANGE', KEYS[k], ARGV[a], ARGV[a + 1])
  a = a + 2
end
redis.call('SET', KEYS[1], ARGV[2])
return 1
"""

# KEYS: a hash chunk per hash read (repeats allowed). ARGV: first byte, last byte, per key. The 32-byte hashes, raw
# ('' for one not stored): read with decoding off, whatever the client's decode_responses.
READ_HASHES = """
local out = {}
for i = 1, #KEYS do
  out[i] = redis.call('GETRANGE', KEYS[i], ARGV[2 * i - 1], ARGV[2 * i])
end
return out
"""

PLACE_TRIES = 50  # sequencers racing for the log each re-plan on the new size; one always wins a round


# KEYS: a game's tlog queue. ARGV: the leaves sequenced, in queue order: popped only while the head is one of them
TRIM_QUEUE = """
for i = 1, #ARGV do
  if redis.call('LINDEX', KEYS[1], 0) ~= ARGV[i] then return i - 1 end
  redis.call('LPOP', KEYS[1])
end
return #ARGV
"""

# KEYS: the pending index. ARGV: game id 1, the score read 1, game id 2, ... Drops each game only if nobody
# wrote it since its score was read.
UNPEND = """
local n = 0
for i = 1, #ARGV, 2 do
  local s = redis.call('ZSCORE', KEYS[1], ARGV[i])
  if s and tonumber(s) == tonumber(ARGV[i + 1]) then n = n + redis.call('ZREM', KEYS[1], ARGV[i]) end
end
return n
"""

# KEYS: tlog head, tlog leaves. ARGV: size, root, body
PUT_HEAD = """
local size = tonumber(ARGV[1])
if size > redis.call('LLEN', KEYS[2]) then return 0 end
local cur = redis.call('HMGET', KEYS[1], 'size', 'root')
if cur[1] then
  local n = tonumber(cur[1])
  if size < n or (size == n and cur[2] ~= ARGV[2]) then return 0 end
end
redis.call('HSET', KEYS[1], 'size', ARGV[1], 'root', ARGV[2], 'body', ARGV[3])
return 1
"""


class RedisTlog(TransparencyLogStore):
    """Mixed into RedisStore: uses its client `self.r`."""

    if TYPE_CHECKING:  # what it uses of RedisStore, for mypy
        r: Any  # a Redis or a RedisCluster client

        def _run_append(self, script: Any, script_keys: list[str], args: list[Any]) -> list[Any]: ...
        def index_range(
            self, name: str, max_score: float | None = None, limit: int = 100, after: float | None = None
        ) -> list[tuple[str, float]]: ...

    _tlog_scripts: dict | None = None

    def _script(self, name: str):
        if self._tlog_scripts is None:
            self._tlog_scripts = {
                n: self.r.register_script(s)
                for n, s in (
                    ("append", APPEND_WITH_LEAF),
                    ("sequence", SEQUENCE),
                    ("trim", TRIM_QUEUE),
                    ("unpend", UNPEND),
                    ("head", PUT_HEAD),
                    ("fill", FILL),
                    ("read", READ_HASHES),
                )
            }
        return self._tlog_scripts[name]

    def _pend(self, game_id: str) -> None:
        self.r.zadd(keys.index(keys.TLOG_PENDING), {game_id: time.time()})

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
        self._pend(game_id)  # before: a leaf is never queued with its game unknown to the sequencer
        status, length, seq = self._run_append(  # RedisStore's: WAIT for the replicas where configured
            self._script("append"),
            [keys.log(game_id), keys.log_meta(game_id), keys.tlog_queue(game_id)],
            [expected_length, record, repr(float(at)), leaf, keys.events(game_id), last_digest or ""],
        )
        if status == "ok":
            self._pend(game_id)  # after, with a fresh score: a sequencer that read the first one keeps it
        return AppendResult(status, int(length), None if int(seq) < 0 else int(seq))

    def _sequence_games(self, pending: Sequence[tuple[str, float | None]]) -> None:
        """Sequence the queues of these games (with the pending score read for each, None: not from the index):
        un-pend them, read their queues (one pipeline), place every leaf (one script in the log's slot), then
        empty each queue of exactly its leaves placed."""
        scored = [(g, s) for g, s in pending if s is not None]
        if scored:
            self._script("unpend")(
                keys=[keys.index(keys.TLOG_PENDING)], args=[x for g, s in scored for x in (g, repr(float(s)))]
            )
        pipe = self.r.pipeline(transaction=False)
        for game_id, _ in pending:
            pipe.lrange(keys.tlog_queue(game_id), 0, -1)
        queues = [(g, q) for (g, _), q in zip(pending, pipe.execute(), strict=True) if q]
        if not queues:
            return
        named = [(leaf_field(g, json.loads(leaf)["type"]), leaf) for g, queued in queues for leaf in queued]
        if not self._place(named):
            for game_id, _ in queues:  # the leaves stay queued: keep their games pending for the next round
                self._pend(game_id)
            return
        for game_id, queued in queues:
            self._script("trim")(keys=[keys.tlog_queue(game_id)], args=queued)

    def _place(self, named: list[tuple[str, str]]) -> bool:
        """Give these leaves ("<game> <type>", text) their indexes, once each, with their stored hashes."""
        for _ in range(PLACE_TRIES):
            pipe = self.r.pipeline(transaction=False)
            pipe.llen(keys.tlog_leaves())
            pipe.get(keys.tlog_hashed())
            n, hashed = pipe.execute()
            n, hashed = int(n), int(hashed or 0)
            if hashed < n:
                self.tlog_fill_hashes()
                continue
            placed = self.r.hmget(keys.tlog_games(), [name for name, _ in named])
            first: dict[str, str] = {}  # a name queued twice is placed once, with its first text (as before)
            for (name, text), at in zip(named, placed, strict=True):
                if at is None:
                    first.setdefault(name, text)
            todo = list(first.items())
            if not todo:
                return True
            appender = storedhash.Appender(n, self.tlog_read_hashes)
            for _, text in todo:
                appender.append(merkle.leaf_hash(text.encode("utf-8")))
            chunks = _chunk_writes(storedhash.stored_hash_count(n), appender.hashes)
            got = self._script("sequence")(
                keys=[keys.tlog_leaves(), keys.tlog_games(), keys.tlog_hashed()] + [k for k, _, _ in chunks],
                args=[n, len(todo), *(x for pair in todo for x in pair), *(x for _, o, b in chunks for x in (o, b))],
            )
            if int(got) >= 0:
                return True
        return False

    # ---- stored hashes
    def tlog_read_hashes(self, indexes: Sequence[int]) -> list[bytes]:
        if not indexes:
            return []
        chunk, script = keys.TLOG_HASH_CHUNK, self._script("read")
        command = (
            "EVALSHA",
            script.sha,
            len(indexes),
            *[keys.tlog_hashes(i // chunk) for i in indexes],
            *[x for i in indexes for x in (32 * (i % chunk), 32 * (i % chunk) + 31)],
        )
        try:  # NEVER_DECODE: redis-py's option for a binary reply on a decoding client (as its DUMP does)
            out = self.r.execute_command(*command, NEVER_DECODE=[])
        except NoScriptError:
            self.r.script_load(READ_HASHES)  # on every primary of a cluster
            out = self.r.execute_command(*command, NEVER_DECODE=[])
        for i, h in zip(indexes, out, strict=True):
            if len(h) != 32:
                raise ValueError(f"stored hash {i} is not in the store")
        return out

    def tlog_hashed_size(self) -> int:
        return int(self.r.get(keys.tlog_hashed()) or 0)

    def tlog_fill_hashes(self, page: int = 10_000) -> int:
        done = 0
        while True:
            start, size = self.tlog_hashed_size(), self.tlog_size()
            if start >= size:
                return done
            stop = min(size, start + page)
            appender = storedhash.Appender(start, self.tlog_read_hashes)
            for text in self.tlog_leaves(start, stop):
                appender.append(merkle.leaf_hash(text.encode("utf-8")))
            chunks = _chunk_writes(storedhash.stored_hash_count(start), appender.hashes)
            if self._script("fill")(
                keys=[keys.tlog_hashed(), keys.tlog_leaves()] + [k for k, _, _ in chunks],
                args=[start, stop, *(x for _, o, b in chunks for x in (o, b))],
            ):
                done += stop - start

    def _sequence_game(self, game_id: str, score: float | None = None) -> None:
        self._sequence_games([(game_id, score)])

    def tlog_sequence(self, game_id: str | None = None, limit: int = 1000) -> int:
        if game_id is not None:
            self._sequence_game(game_id)
        else:
            self._sequence_games(self.index_range(keys.TLOG_PENDING, limit=limit))
        return self.tlog_size()

    def tlog_size(self) -> int:
        return int(self.r.llen(keys.tlog_leaves()))

    def tlog_leaves(self, start: int, stop: int) -> list[str]:
        if stop <= start:
            return []
        return list(self.r.lrange(keys.tlog_leaves(), start, stop - 1))

    def tlog_game(self, game_id: str) -> dict[str, int]:
        types = ("commitment", "ending")
        found = self.r.hmget(keys.tlog_games(), [leaf_field(game_id, t) for t in types])
        return {t: int(i) for t, i in zip(types, found, strict=True) if i is not None}

    def tlog_head(self) -> dict | None:
        body = self.r.hget(keys.tlog_head(), "body")
        return json.loads(body) if body else None

    def tlog_put_head(self, head: dict) -> bool:
        return bool(
            self._script("head")(
                keys=[keys.tlog_head(), keys.tlog_leaves()],
                args=[head["size"], head["root"], json.dumps(head, sort_keys=True)],
            )
        )


def _chunk_writes(at: int, hashes: Sequence[bytes]) -> list[tuple[str, int, bytes]]:
    """The stored hashes from index `at` as (chunk key, byte offset, bytes) writes, one per chunk touched."""
    out, chunk = [], keys.TLOG_HASH_CHUNK
    while hashes:
        room = chunk - at % chunk
        part, hashes = hashes[:room], hashes[room:]
        out.append((keys.tlog_hashes(at // chunk), 32 * (at % chunk), b"".join(part)))
        at += len(part)
    return out
