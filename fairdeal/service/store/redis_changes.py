"""Change notification for Redis and Redis Cluster: sharded pub/sub.

The append script announces the new log length on the game's channel with SPUBLISH (keys.events: it carries
the game's hash tag, so on a cluster the message goes to the shard that holds the game, and only to the
processes subscribed there). Each process keeps one subscriber connection per shard it has waiters on, and
subscribes (SSUBSCRIBE) to a game's channel while it has a watch on that game, and for LINGER seconds after
the last one (a long-poll that answered is usually followed by the next one at once).

A watch is live only once Redis has confirmed the subscription, so an append after the waiter's read is
always heard. Whenever notifications may have been missed (the connection broke and was made again, a slot
moved to another shard and the server dropped its subscriptions) the watches concerned are woken once the
subscription is confirmed again: they read the game again, and nothing is lost.
"""

from __future__ import annotations

import collections
import logging
import threading
import time
from typing import Any

import redis as redis_lib
from redis.cluster import RedisCluster
from redis.crc import key_slot
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import MovedError, ResponseError, TimeoutError

from fairdeal.service.store import keys
from fairdeal.service.store.changes import Changes, ChangesUnavailable

log = logging.getLogger("fairdeal.changes")

LINGER = 30.0  # seconds a channel stays subscribed after its last watch
TICK = 10.0  # how often an idle subscriber connection looks for lingering channels to drop
CONFIRM_TIMEOUT = 5.0  # how long a new watch waits for Redis to confirm its subscription


class _Sub:
    """One game's channel, subscribed (or being subscribed) on one shard."""

    __slots__ = ("game_id", "channel", "live", "resync", "idle_since", "shard")

    def __init__(self, game_id: str):
        self.game_id, self.channel = game_id, keys.events(game_id)
        self.live = threading.Event()  # Redis confirmed the subscription
        self.resync = False  # notifications may have been missed: wake the watches when live
        self.idle_since: float | None = None
        self.shard: _Shard | None = None


class _Shard:
    """The subscriber connection to one Redis node, and the thread (greenlet) that reads it."""

    def __init__(self, changes: RedisChanges, name: str, make_connection):
        self.changes, self.name, self._make = changes, name, make_connection
        self.subs: dict[str, _Sub] = {}
        # one writer at a time (taken after changes._lock, never before it); only the reader thread reads
        self._wlock = threading.Lock()
        self._pending: collections.deque = collections.deque()  # (command, channel) awaiting their replies
        self._conn = None
        self._closed = False
        self._thread = threading.Thread(target=self._run, name=f"fairdeal-changes-{name}", daemon=True)
        self._thread.start()

    # ---------------------------------------------------------------- called by waiters (under changes._lock)
    def add(self, sub: _Sub) -> None:
        sub.shard = self
        self.subs[sub.channel] = sub
        self._send("SSUBSCRIBE", sub.channel)

    def remove(self, sub: _Sub) -> None:
        if self.subs.get(sub.channel) is sub:
            del self.subs[sub.channel]
            self._send("SUNSUBSCRIBE", sub.channel)

    def _send(self, command: str, channel: str) -> None:
        with self._wlock:
            if self._conn is None:
                return  # not connected: the next connection subscribes to everything in self.subs
            try:
                self._pending.append((command, channel))
                self._conn.send_command(command, channel, check_health=False)
            except Exception:  # the reader sees the broken connection and starts over
                log.warning("subscriber connection failed", extra={"fields": {"shard": self.name}})

    # ---------------------------------------------------------------- the reader
    def _run(self) -> None:
        backoff, lost_at = 0.05, None
        while not self._closed:
            conn = None
            try:
                conn = self._make()
                conn.connect()
                with self.changes._lock, self._wlock:
                    self._conn = conn
                    self._pending.clear()
                    for channel in self.subs:
                        self._pending.append(("SSUBSCRIBE", channel))
                        conn.send_command("SSUBSCRIBE", channel, check_health=False)
                if lost_at is not None:
                    log.warning(
                        "subscriber connection back",
                        extra={"fields": {"shard": self.name, "after_s": round(time.monotonic() - lost_at, 2)}},
                    )
                backoff, lost_at = 0.05, None
                self._read(conn)
            except Exception as exc:
                if not self._closed and lost_at is None:  # said once an outage, not at every retry
                    lost_at = time.monotonic()
                    known = isinstance(exc, (RedisConnectionError, TimeoutError, OSError))
                    log.warning(
                        "subscriber connection lost",
                        exc_info=not known,
                        extra={"fields": {"shard": self.name, "error": str(exc)}},
                    )
            finally:
                with self.changes._lock, self._wlock:
                    self._conn = None
                    for sub in self.subs.values():
                        if sub.live.is_set():
                            sub.live.clear()
                            sub.resync = True  # published meanwhile may be lost: wake when live again
                if conn is not None:
                    conn.disconnect()
            if not self._closed:
                time.sleep(backoff)
                backoff = min(backoff * 2, 2.0)

    def _read(self, conn) -> None:
        next_tick = time.monotonic() + TICK
        while not self._closed:
            if time.monotonic() >= next_tick:
                self.changes._drop_idle(self)
                next_tick = time.monotonic() + TICK
            if not conn.can_read(timeout=TICK):
                continue
            try:
                reply = conn.read_response(disconnect_on_error=False, push_request=True)
            except MovedError:
                self._moved(self._pending.popleft()[1])
                continue
            except ResponseError as exc:
                command, channel = self._pending.popleft()
                log.error(
                    "subscribe refused", extra={"fields": {"shard": self.name, "channel": channel, "error": str(exc)}}
                )
                continue
            self._handle(reply)

    def _handle(self, reply) -> None:
        kind, channel = reply[0], reply[1]
        if kind == "smessage":
            self.changes.wake(keys.game_of_events(channel))
        elif kind == "ssubscribe":
            self._popped("SSUBSCRIBE", channel)
            with self.changes._lock:
                sub = self.subs.get(channel)
                resync = sub is not None and sub.resync
                if sub is not None:
                    sub.resync = False
                    sub.live.set()
            if resync and sub is not None:
                self.changes.wake(sub.game_id)
        elif kind == "sunsubscribe":
            if self._pending and self._pending[0] == ("SUNSUBSCRIBE", channel):
                self._pending.popleft()  # ours
            else:
                self._moved(channel)  # the server's: the slot moved to another shard

    def _popped(self, command: str, channel: str) -> None:
        if self._pending and self._pending[0] == (command, channel):
            self._pending.popleft()

    def _moved(self, channel: str) -> None:
        with self.changes._lock:
            sub = self.subs.pop(channel, None)
        if sub is not None:
            sub.live.clear()
            sub.resync = True
            self.changes._reroute(sub)

    def close(self) -> None:
        self._closed = True
        with self._wlock:
            conn = self._conn
        if conn is not None:
            try:
                conn.disconnect()
            except Exception:
                pass


class RedisChanges(Changes):
    client: Any  # a Redis or a RedisCluster: self.cluster says which, and the cluster-only calls need one

    def __init__(
        self, client: redis_lib.Redis | RedisCluster, linger: float = LINGER, confirm_timeout: float = CONFIRM_TIMEOUT
    ):
        super().__init__()
        self.client, self.linger, self.confirm_timeout = client, linger, confirm_timeout
        self.cluster = isinstance(client, RedisCluster)
        self._subs: dict[str, _Sub] = {}
        self._shards: dict[str, _Shard] = {}

    # ------------------------------------------------------------------ routing
    def _connection_factory(self, channel: str):
        """(shard name, a function making a new subscriber connection to it)."""
        if self.cluster:
            node = self.client.nodes_manager.get_node_from_slot(key_slot(channel.encode()))
            pool = self.client.get_redis_connection(node).connection_pool
            name = node.name
        else:
            pool, name = self.client.connection_pool, "redis"
        # the pool's settings (address, credentials, TLS), as a connection of its own outside the pool
        kwargs = {k: v for k, v in pool.connection_kwargs.items() if k != "maint_notifications_pool_handler"}
        kwargs.update(health_check_interval=0, socket_timeout=None)
        kwargs.setdefault("socket_connect_timeout", 5)
        return name, lambda: pool.connection_class(**kwargs)

    def _shard_for(self, channel: str) -> _Shard:
        name, make = self._connection_factory(channel)
        shard = self._shards.get(name)
        if shard is None:
            shard = self._shards[name] = _Shard(self, name, make)
        return shard

    def _reroute(self, sub: _Sub) -> None:
        """Subscribe again where the slot lives now (after a MOVED or a server-side unsubscribe)."""
        if self.cluster:
            try:
                self.client.nodes_manager.initialize()
            except Exception:
                log.exception("cluster topology refresh failed")
        with self._lock:
            if self._subs.get(sub.game_id) is sub:
                self._shard_for(sub.channel).add(sub)

    # ------------------------------------------------------------------ the hooks
    def _listen(self, game_id: str) -> None:
        with self._lock:
            sub = self._subs.get(game_id)
            if sub is None:
                sub = self._subs[game_id] = _Sub(game_id)
                self._shard_for(sub.channel).add(sub)
            sub.idle_since = None
        if not sub.live.wait(self.confirm_timeout):
            raise ChangesUnavailable("Redis did not confirm the subscription")

    def _unlisten(self, game_id: str, linger: bool = True) -> None:
        with self._lock:
            sub = self._subs.get(game_id)
            if sub is not None and game_id not in self._watches:
                sub.idle_since = time.monotonic()
                if self.linger <= 0 or not linger:
                    self._forget(sub)

    def _drop_idle(self, shard: _Shard) -> None:
        """Unsubscribe the shard's channels idle longer than the linger."""
        now = time.monotonic()
        with self._lock:
            for sub in list(shard.subs.values()):
                if (
                    sub.idle_since is not None
                    and now - sub.idle_since >= self.linger
                    and sub.game_id not in self._watches
                ):
                    self._forget(sub)

    def _forget(self, sub: _Sub) -> None:
        del self._subs[sub.game_id]
        if sub.shard is not None:
            sub.shard.remove(sub)

    @property
    def subscribed(self) -> int:
        with self._lock:
            return len(self._subs)

    def close(self) -> None:
        with self._lock:
            shards, self._shards = list(self._shards.values()), {}
            self._subs.clear()
        for shard in shards:
            shard.close()
