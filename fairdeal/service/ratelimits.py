"""Rate limits (Flask-Limiter): per client address on making identities, per player on tables, moves and
waits, per address on everything those players of one address do together, and per address on forged,
expired or ended tokens. A refusal is 429 problem JSON with Retry-After.

The counts live in the store's Redis when the store is Redis, so every instance shares them (the keys start
with fd:rl:); with the embedded store each process counts for itself (memory): under N gunicorn workers a
client may get up to N times a limit. Which limits, and their values, are settings (config.py: FAIRDEAL_LIMIT_*);
FAIRDEAL_RATE_LIMITS=off turns them all off.
"""

from __future__ import annotations

import math
import time

from flask import Flask, request
from flask_limiter import Limiter, RateLimitExceeded
from limits import parse_many

from fairdeal.service import errors, ratelimit_memory
from fairdeal.service.auth import current_player_id
from fairdeal.service.config import Config
from fairdeal.service.errors import ApiError

KEY_PREFIX = "fd:rl"  # Redis keys of the counts (deploy/redis.conf's ACL allows fd:*)
STRATEGY = "sliding-window-counter"  # no burst of twice the limit at a window's edge; one call per check

# new identities (limit_players, per address, shared by these endpoints)
CREDENTIALS = ("players.create_player", "tokens.new_token", "tokens.end_every_token")
# endpoint -> its per-player setting (endpoints of one setting share its count); each takes limit_address too
PER_PLAYER = {
    "tables.create_table": "limit_tables",
    "games.post_move": "limit_moves",
    "games.events": "limit_waits",
    "games.stream": "limit_waits",
}


def client_address() -> str:
    """The client's address (with FAIRDEAL_TRUSTED_PROXIES, the one the proxies name)."""
    return request.remote_addr or "unknown"


def storage(config: Config) -> tuple[str, dict]:
    """Where the counts live: the setting, else the store's Redis (FAIRDEAL_REDIS_URL), else this process's
    memory (ratelimit_memory: limits' memory storage without its sweep thread).

    On Redis the counts get a command pool like the store's (redis_pool.RateLimitPool, a QueuedPool of
    FAIRDEAL_REDIS_CONNECTIONS per process and node): `limits` would otherwise make redis-py's default pool (100
    connections, refusing at once past them), which 5,000 long-polls made again every 25 s ran dry (issue 25)."""
    uri = config.rate_limit_storage or config.redis_url
    if not uri or uri == "memory://":
        return ratelimit_memory.SCHEME + "://", {}
    from fairdeal.service.store.redis_pool import POOL_TIMEOUT, RateLimitPool

    size = config.redis_connections
    if "cluster=1" in uri or uri.startswith("redis+cluster://"):
        uri = uri.replace("redis://", "redis+cluster://", 1).replace("?cluster=1", "").replace("&cluster=1", "")
        # RedisCluster uses connection_pool_class for its nodes only when given a url (from_url): the same node
        return uri, {
            "key_prefix": KEY_PREFIX,
            "url": uri.replace("redis+cluster://", "redis://", 1),
            "connection_pool_class": RateLimitPool,
            "max_connections": size,
            "timeout": POOL_TIMEOUT,
        }
    pool = RateLimitPool.from_url(uri, max_connections=size, timeout=POOL_TIMEOUT)  # no connection made yet
    if uri.startswith("unix://"):
        uri = "redis+unix://" + uri[len("unix://") :]
    return uri, {"key_prefix": KEY_PREFIX, "connection_pool": pool}


def too_many(limit: str, reset_at: float, what: str = "requests") -> ApiError:
    """The 429 refusal: which limit, and Retry-After in whole seconds (at least 1)."""
    wait = max(1, math.ceil(reset_at - time.time()))
    return ApiError(
        429,
        "rate-limited",
        f"Too many {what} (at most {limit}). Try again in {wait} seconds.",
        "Too many requests",
        headers={"Retry-After": str(wait)},
        limit=limit,
        retry_after=wait,
    )


class RateLimits:
    def __init__(self, app: Flask, config: Config, store):
        self.config, self.store = config, store
        uri, options = storage(config)
        self.limiter = Limiter(
            client_address,
            app=app,
            storage_uri=uri,
            storage_options=options,
            strategy=STRATEGY,
            key_prefix="fd",
            headers_enabled=False,
            enabled=config.rate_limits,
        )
        self.enabled = config.rate_limits
        self.bad_tokens = parse_many(config.limit_bad_tokens)
        if not self.enabled:
            return
        # Flask-Limiter also checks every request in a before_request hook, for application-wide (default)
        # limits. There are none here: every limit is a decorator's (_wrap), checked in one pass by the decorators.
        # That hook's pass over nothing cost as much as the decorators' own (a quarter of a stream's opening).
        hooks = app.before_request_funcs.get(None, [])
        app.before_request_funcs[None] = [f for f in hooks if f != self.limiter._check_request_limit]
        identities = self.limiter.shared_limit(config.limit_players, scope="credentials")
        together = self.limiter.shared_limit(config.limit_address, scope="address")
        per_player = {
            setting: self.limiter.shared_limit(getattr(config, setting), scope=setting, key_func=self.player_key)
            for setting in set(PER_PLAYER.values())
        }  # shared: a long-poll and a stream count together
        for endpoint in CREDENTIALS:
            self._wrap(app, endpoint, identities)
        for endpoint, setting in PER_PLAYER.items():
            self._wrap(app, endpoint, together)
            self._wrap(app, endpoint, per_player[setting])

        @app.errorhandler(RateLimitExceeded)
        def _too_many(exc: RateLimitExceeded):
            current = self.limiter.current_limit
            return errors.response(too_many(str(exc.limit.limit), current.reset_at if current else time.time()))

    @staticmethod
    def _wrap(app: Flask, endpoint: str, limit) -> None:
        if endpoint in app.view_functions:  # a route another build of the app may not have
            app.view_functions[endpoint] = limit(app.view_functions[endpoint])

    def player_key(self) -> str:
        """Per player: their id when the request carries a live token, else (a spectator) their address."""
        pid = current_player_id(self.store, required=False)
        return "player:" + pid if pid else "address:" + client_address()

    # ---- forged, expired and ended tokens (auth.resolve calls this once a token it looked up is not live)
    def _bad_token_key(self) -> tuple[str, str, str]:
        return "fd", "bad-token", client_address()

    def bad_token(self) -> None:
        """Count a bad token from this address; past the limit, 429 instead of 401. Counted only after the
        lookup, never before it: an address's bad tokens never make its good ones refused (behind a NAT or a
        proxy, one client's forgeries would lock out everyone else). What a forger gets past the limit is a
        slower answer than a 401 (Retry-After), at the cost of one lookup by key, as any request costs."""
        if not self.enabled:
            return
        strategy = self.limiter.limiter
        for item in self.bad_tokens:
            if not strategy.hit(item, *self._bad_token_key()):
                reset = strategy.get_window_stats(item, *self._bad_token_key()).reset_time
                raise too_many(str(item), reset, "unknown, expired or ended tokens from your address")
