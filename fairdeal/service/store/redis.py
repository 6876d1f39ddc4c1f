"""The production store: Redis (a single server or Redis Cluster, unchanged).

Compare-and-set of documents and compare-and-append of records are Lua scripts that make every check
before their first write, so a refused call changes nothing. All keys one script touches share the hash
tag of their game (see keys.py), so the scripts run in one cluster slot. The append script announces the
new log length on the game's sharded channel (SPUBLISH, Redis 7): the announcement is part of the append,
so there is none without an append and no append without one (redis_changes.py listens).
"""

from __future__ import annotations

import json
import os
import threading
import time
from typing import Any

import redis as redis_lib
from redis.cluster import RedisCluster
from redis.exceptions import AskError, MovedError, TryAgainError

from fairdeal.service.store import keys
from fairdeal.service.store.base import OK, AppendResult, Store, StoreUnavailable, idem_field
from fairdeal.service.store.cosignatures import RedisCosignatures
from fairdeal.service.store.redis_changes import RedisChanges
from fairdeal.service.store.redis_lua import idem_check, last_entry_check
from fairdeal.service.store.redis_pool import POOL_TIMEOUT, QueuedPool
from fairdeal.service.store.redis_tlog import RedisTlog

MIN_VERSION = (7, 0)  # sharded pub/sub
MAX_REDIRECTS = 5  # MOVED/ASK/TRYAGAIN followed by an append that waits for replicas, before giving up (503)
TRY_AGAIN_PAUSE = 0.05

PUT_DOC = """
local v = tonumber(redis.call('HGET', KEYS[1], 'v') or '0')
if v ~= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'v', v + 1, 'body', ARGV[2])
return 1
"""

# KEYS: log, log meta, idempotency hash. ARGV: expected length, record, at, idempotency key ('' none), body hash,
# events channel (same hash tag: same shard), digest of the expected last entry ('' unchecked), idempotency TTL
# in ms (0: none; the game's keys expire together that long after its last keyed move).
# An idempotency key whose record is past the log's end was lost with it (a failover): it is taken anew.
APPEND = (
    """
local len = redis.call('LLEN', KEYS[1])
"""
    + idem_check(3, 4, 5)
    + """
if len ~= tonumber(ARGV[1]) then return {'conflict', len, -1} end
"""
    + last_entry_check(7)
    + """
redis.call('RPUSH', KEYS[1], ARGV[2])
redis.call('HSET', KEYS[2], 'at', ARGV[3])
if ARGV[4] ~= '' then
  redis.call('HSET', KEYS[3], ARGV[4], ARGV[5] .. ' ' .. len)
  if ARGV[8] ~= '0' then redis.call('PEXPIRE', KEYS[3], ARGV[8]) end
end
redis.call('SPUBLISH', ARGV[6], len + 1)
return {'ok', len + 1, len}
"""
)

# KEYS: log, idempotency hash (same hash tag). ARGV: idempotency key (with its scope), body hash. Reads only: what
# APPEND would answer for the key, or {'', len, -1} when it is unused.
IDEM_LOOKUP = (
    """
local len = redis.call('LLEN', KEYS[1])
"""
    + idem_check(2, 1, 2)
    + """
return {'', len, -1}
"""
)


# KEYS: a document, a log (same hash tag). ARGV: first log index. One command instead of a pipeline.
DOC_AND_RECORDS = """
local d = redis.call('HMGET', KEYS[1], 'v', 'body')
local out = {d[1] or '', d[2] or ''}
local recs = redis.call('LRANGE', KEYS[2], tonumber(ARGV[1]), -1)
for i = 1, #recs do out[#out + 1] = recs[i] end
return out
"""


POOL_SIZE = 128  # connections per process (and per node of a cluster); Config.redis_connections


def connect(url: str, max_connections: int = POOL_SIZE) -> redis_lib.Redis | RedisCluster:
    """redis://host:port/0 for one server; redis+cluster://host:port (or ?cluster=1) for a cluster.

    The pool is bounded (per node on a cluster) and queued (redis_pool.QueuedPool): past `max_connections`, a
    request waits its turn for a connection instead of opening yet another one (under gevent thousands of
    requests may be running), and is refused only when no connection has come back for POOL_TIMEOUT."""
    pool = {"max_connections": max_connections, "connection_pool_class": QueuedPool, "timeout": POOL_TIMEOUT}
    if url.startswith("redis+cluster://") or "cluster=1" in url:
        url = url.replace("redis+cluster://", "redis://").replace("?cluster=1", "").replace("&cluster=1", "")
        return RedisCluster.from_url(url, decode_responses=True, **pool)
    return redis_lib.Redis(
        connection_pool=QueuedPool.from_url(
            url, decode_responses=True, max_connections=max_connections, timeout=POOL_TIMEOUT
        )
    )


class RedisStore(RedisTlog, RedisCosignatures, Store):
    def __init__(
        self,
        url_or_client: str | redis_lib.Redis | RedisCluster,
        max_connections: int = POOL_SIZE,
        wait_replicas: int = 0,
        wait_timeout: float = 1.0,
        idem_ttl: float = 0.0,
    ):
        self.r = connect(url_or_client, max_connections) if isinstance(url_or_client, str) else url_or_client
        # Config.redis_wait_replicas: an append is acknowledged only once that many replicas have it (WAIT)
        self.wait_replicas, self.wait_ms = wait_replicas, max(1, round(wait_timeout * 1000))
        self.idem_ttl_ms = str(round(idem_ttl * 1000))  # Config.idem_ttl
        self._check_version()
        self._changes: RedisChanges | None = None
        self._changes_pid = -1
        self._changes_lock = threading.Lock()
        self._put_doc = self.r.register_script(PUT_DOC)
        self._append = self.r.register_script(APPEND)
        self._idem_lookup = self.r.register_script(IDEM_LOOKUP)
        self._doc_and_records = self.r.register_script(DOC_AND_RECORDS)

    def _check_version(self) -> None:
        """Sharded pub/sub is there (Redis 7 or newer): one SPUBLISH nobody hears (no INFO: the deploy's ACL user
        may not run it)."""
        try:
            self.r.spublish(keys.events("0000000000000000"), "0")
        except redis_lib.ResponseError as e:
            if "unknown command" in str(e).lower():
                raise RuntimeError(
                    f"fairdeal needs Redis {'.'.join(map(str, MIN_VERSION))} or newer (sharded "
                    "pub/sub, SPUBLISH); this server does not know SPUBLISH"
                ) from None
            raise

    # ---- documents
    def get_doc(self, kind: str, doc_id: str) -> tuple[dict[str, Any] | None, int]:
        v, body = self.r.hmget(keys.doc(kind, doc_id), ["v", "body"])
        return (json.loads(body), int(v)) if body is not None else (None, 0)

    def put_doc(self, kind: str, doc_id: str, doc: dict[str, Any], expected_version: int) -> bool:
        body = json.dumps(doc, separators=(",", ":"), sort_keys=True)
        return bool(self._put_doc(keys=[keys.doc(kind, doc_id)], args=[expected_version, body]))

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
        script_keys = [keys.log(game_id), keys.log_meta(game_id), keys.idem(game_id)]
        args = [
            expected_length,
            record,
            repr(float(at)),
            "" if idem_key is None else idem_field(idem_scope, idem_key),
            body_hash or "",
            keys.events(game_id),
            last_digest or "",
            self.idem_ttl_ms,
        ]
        status, length, seq = self._run_append(self._append, script_keys, args)
        return AppendResult(status, int(length), None if int(seq) < 0 else int(seq))

    def idem_lookup(
        self, game_id: str, idem_key: str, body_hash: str | None, idem_scope: str, at: float
    ) -> AppendResult | None:
        # the key hash expires by itself (PEXPIRE at the idempotency TTL): `at` is not needed here
        status, length, seq = self._idem_lookup(
            keys=[keys.log(game_id), keys.idem(game_id)], args=[idem_field(idem_scope, idem_key), body_hash or ""]
        )
        return None if not status else AppendResult(status, int(length), int(seq))

    def _run_append(self, script, script_keys: list[str], args: list) -> list:
        """An append script (this store's or the transparency log's), followed, with FAIRDEAL_REDIS_WAIT_REPLICAS,
        by WAIT on the same connection (WAIT counts the replicas that have every write of its connection): a
        failover to one of them keeps the append. Too few replicas in time: StoreUnavailable (503); the append
        stays on the primary, and a retry with its idempotency key is acknowledged then."""
        if not self.wait_replicas:
            return script(keys=script_keys, args=args)
        if not isinstance(self.r, RedisCluster):
            return self._append_and_wait(self.r, script, script_keys, args)
        return self._cluster_append_and_wait(script, script_keys, args)

    def _cluster_append_and_wait(self, script, script_keys: list[str], args: list) -> list:
        """On a cluster the pipeline goes to the game's primary itself, so the cluster client's own redirections
        do not apply: MOVED (the slot's owner changed: a failover, a resharding) updates the slot map and goes to
        the new owner; ASK (the slot is migrating and the key is already on the target) goes to the target once,
        after ASKING; TRYAGAIN (a migrating slot holds some of the game's keys here, some there) is tried again a
        moment later. Either way the script did not run where it was refused, so sending it on is safe; still
        refused after MAX_REDIRECTS tries, the append is StoreUnavailable (503, Retry-After)."""
        cluster = self.r
        node, asking = cluster.get_node_from_key(script_keys[0]), False
        for _ in range(MAX_REDIRECTS):
            try:
                return self._append_and_wait(cluster.get_redis_connection(node), script, script_keys, args, asking)
            except MovedError as e:
                cluster.nodes_manager.move_slot(e)
                node, asking = cluster.get_node_from_key(script_keys[0]), False
            except AskError as e:
                node = cluster.nodes_manager.get_node(host=e.host, port=e.port)
                if node is None:
                    cluster.nodes_manager.initialize()
                    node = cluster.nodes_manager.get_node(host=e.host, port=e.port)
                asking = True
            except TryAgainError:
                time.sleep(TRY_AGAIN_PAUSE)
        raise StoreUnavailable(
            f"Redis Cluster: the game's slot is moving (redirected or refused {MAX_REDIRECTS} times); try again shortly"
        )

    def _append_and_wait(self, client, script, script_keys: list[str], args: list, asking: bool = False) -> list:
        pipe = client.pipeline(transaction=False)
        if asking:
            pipe.execute_command("ASKING")
        script(keys=script_keys, args=args, client=pipe)
        pipe.execute_command("WAIT", self.wait_replicas, self.wait_ms)
        out = pipe.execute()
        result, replicas = out[-2], out[-1]
        if result[0] == OK and int(replicas) < self.wait_replicas:
            raise StoreUnavailable(
                f"Redis: the append reached {replicas} of the {self.wait_replicas} replicas "
                f"required (FAIRDEAL_REDIS_WAIT_REPLICAS) within {self.wait_ms} ms"
            )
        return result

    def records(self, game_id: str, start: int = 0) -> list[str]:
        return list(self.r.lrange(keys.log(game_id), start, -1))

    def delete_game(self, game_id: str) -> None:
        self.r.delete(
            keys.doc("table", game_id),
            keys.log(game_id),
            keys.log_meta(game_id),
            keys.idem(game_id),
            keys.secret(game_id),
        )  # one hash tag: one slot, one command

    def log_info(self, game_id: str) -> tuple[int, float | None]:
        length = self.r.llen(keys.log(game_id))
        at = self.r.hget(keys.log_meta(game_id), "at")
        return int(length), (float(at) if at is not None else None)

    def doc_and_records(self, kind: str, doc_id: str, game_id: str, start: int):
        if keys.doc(kind, doc_id) != keys.doc(kind, game_id):
            return super().doc_and_records(kind, doc_id, game_id, start)
        # both keys carry the game's hash tag: one slot, one script
        v, body, *records = self._doc_and_records(keys=[keys.doc(kind, doc_id), keys.log(game_id)], args=[start])
        return ((json.loads(body), int(v)) if body else (None, 0)), records

    # ---- secrets
    def put_secret(self, game_id: str, value: str) -> bool:
        return bool(self.r.set(keys.secret(game_id), value, nx=True))

    def get_secret(self, game_id: str) -> str | None:
        return self.r.get(keys.secret(game_id))

    # ---- indexes
    def index_set(self, name: str, member: str, score: float) -> None:
        self.r.zadd(keys.index(name), {member: score})

    def index_remove(self, name: str, member: str) -> None:
        self.r.zrem(keys.index(name), member)

    def index_score(self, name: str, member: str) -> float | None:
        score = self.r.zscore(keys.index(name), member)
        return None if score is None else float(score)

    def index_count(self, name: str) -> int:
        return int(self.r.zcard(keys.index(name)))

    def index_range(
        self, name: str, max_score: float | None = None, limit: int = 100, after: float | None = None
    ) -> list[tuple[str, float]]:
        lo = "-inf" if after is None else f"({after!r}"
        hi = "+inf" if max_score is None else repr(float(max_score))
        rows = self.r.zrangebyscore(keys.index(name), lo, hi, start=0, num=limit, withscores=True)
        return [(m, float(s)) for m, s in rows]

    def ping(self) -> bool:
        return bool(self.r.ping())

    # ---- change notification
    def announce(self, topic: str) -> None:
        self.r.spublish(keys.events(topic), "0")  # the topic's own channel, heard as a game's is

    def changes(self) -> RedisChanges:
        with self._changes_lock:
            if self._changes is None or self._changes_pid != os.getpid():  # a forked child subscribes anew
                self._changes, self._changes_pid = RedisChanges(self.r), os.getpid()
            return self._changes

    def close(self) -> None:
        if self._changes is not None and self._changes_pid == os.getpid():
            self._changes.close()
            self._changes = None
        try:
            self.r.close()
        except Exception:  # closing is best effort
            pass
