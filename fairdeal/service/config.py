"""Service configuration: one path for every setting. Defaults here, overridden by FAIRDEAL_* environment
variables, overridden by command-line options; every value is checked, and a bad one is refused with one
sentence that names its variable (ConfigError), never a traceback.

SETTINGS is the one list of what can be set: each field of Config with its environment variable, its kind
and what it does. docs/operations.md's configuration table is checked against it by a test.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any
from urllib.parse import urlsplit

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
REDIS_SCHEMES = ("redis", "rediss", "unix", "redis+cluster")


class ConfigError(ValueError):
    """A setting the service cannot use; str() is the sentence to show (it names the variable)."""


# ---------------------------------------------------------------------------- kinds of value
class Kind:
    """How a setting is read from text (parse) and what values it accepts (check); both raise ValueError
    with what the setting must be."""

    must_be = "a value"

    def parse(self, text: str) -> Any:
        return text

    def check(self, value: Any) -> None:
        pass

    def show(self, value: Any) -> str:
        """The value as an error message may quote it."""
        return repr(value)


def without_password(url: str) -> str:
    """A URL as it may be shown or logged: its password replaced by ***."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(":" + parts.password + "@", ":***@", 1)
    return parts._replace(netloc=netloc).geturl()


class Number(Kind):
    def __init__(
        self,
        low: float,
        high: float | None = None,
        integer: bool = False,
        unit: str = "",
        low_open: bool = False,
        zero_means: str | None = None,
    ):
        self.low, self.high, self.integer, self.low_open, self.zero_means = low, high, integer, low_open, zero_means
        what = "a whole number" if integer else "a number"
        what += f" of {unit}" if unit else ""
        bounds = (f"greater than {low:g}" if low_open else f"at least {low:g}") + (
            f" and at most {high:g}" if high is not None else ""
        )
        self.must_be = f"{what}, {bounds}" + (f" (0: {zero_means})" if zero_means else "")

    def parse(self, text: str) -> float | int:
        try:
            return int(text) if self.integer else float(text)
        except ValueError:
            raise ValueError(self.must_be) from None

    def check(self, value: Any) -> None:
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, float))
            or (self.integer and not isinstance(value, int))
            or value != value
        ):
            raise ValueError(self.must_be)
        if self.zero_means and value == 0:
            return
        if value < self.low or (self.low_open and value == self.low) or (self.high is not None and value > self.high):
            raise ValueError(self.must_be)


class Clock(Kind):
    """A default clock: whole seconds from 5 to 3600, or off."""

    must_be = "a whole number of seconds from 5 to 3600, or 'off'"

    def parse(self, text: str) -> int | None:
        if text.strip().lower() in ("off", "none"):
            return None
        try:
            return int(text)
        except ValueError:
            raise ValueError(self.must_be) from None

    def check(self, value: Any) -> None:
        if value is not None and (type(value) is not int or not 5 <= value <= 3600):
            raise ValueError(self.must_be)


class Text(Kind):
    must_be = "a non-empty text"

    def check(self, value: Any) -> None:
        if not isinstance(value, str) or not value.strip():
            raise ValueError(self.must_be)


class Folder(Text):
    """A folder path, or none (the feature it names is off)."""

    must_be = "a folder path (empty: none)"

    def check(self, value: Any) -> None:
        if value is not None:
            super().check(value)


class NoteName(Text):
    """A signed note's key name (c2sp.org/signed-note): no spaces, no '+'."""

    must_be = "a name with no spaces and no '+', such as fairdeal.example/fairdeal-log"

    def check(self, value: Any) -> None:
        if not isinstance(value, str) or not value or any(c.isspace() or c == "+" for c in value):
            raise ValueError(self.must_be)


class WitnessKeys(Kind):
    """Witnesses' verifier keys (tlog-cosignature, type 0x04), separated by spaces or commas; empty: none."""

    must_be = "witness verifier keys <name>+<key id>+<base64> of type 0x04, separated by spaces (empty: none)"

    def parse(self, text: str) -> tuple[str, ...]:
        return tuple(t for t in text.replace(",", " ").split() if t)

    def check(self, value: Any) -> None:
        from fairdeal.core import note

        if value is None:
            return
        if not isinstance(value, tuple):
            raise ValueError(self.must_be)
        for v in value:
            try:
                note.parse_vkey(v, kinds=(note.COSIGNATURE_V1,))
            except (note.NoteError, TypeError) as exc:
                raise ValueError(f"{self.must_be} ({exc})") from None

    def show(self, value: Any) -> str:
        return repr(" ".join(value) if isinstance(value, tuple) else value)


class Choice(Kind):
    def __init__(self, *choices: str):
        self.choices = choices
        self.must_be = "one of " + ", ".join(choices)

    def parse(self, text: str) -> str:
        return text.strip().upper()

    def check(self, value: Any) -> None:
        if value not in self.choices:
            raise ValueError(self.must_be)


class Switch(Kind):
    must_be = "on or off (also true/false, yes/no, 1/0)"

    def parse(self, text: str) -> bool:
        t = text.strip().lower()
        if t in ("on", "true", "yes", "1"):
            return True
        if t in ("off", "false", "no", "0"):
            return False
        raise ValueError(self.must_be)

    def check(self, value: Any) -> None:
        if not isinstance(value, bool):
            raise ValueError(self.must_be)


class RedisUrl(Kind):
    must_be = "a Redis URL: redis://host:port/db, rediss://..., unix:///path, or redis+cluster://host:port"

    def parse(self, text: str) -> str | None:
        return text.strip() or None

    def check(self, value: Any) -> None:
        if value is None:
            return
        if not isinstance(value, str):
            raise ValueError(self.must_be)
        parts = urlsplit(value)
        if parts.scheme not in REDIS_SCHEMES or (parts.scheme != "unix" and not parts.hostname):
            raise ValueError(self.must_be)
        try:
            parts.port  # noqa: B018 - raises on a port that is not a number
        except ValueError:
            raise ValueError(self.must_be) from None

    def show(self, value: Any) -> str:
        return repr(without_password(value)) if isinstance(value, str) else repr(value)


class Bind(Kind):
    must_be = "host:port (e.g. 127.0.0.1:8000, 0.0.0.0:8000, [::1]:8000) or unix:/path/to/socket"

    def check(self, value: Any) -> None:
        if not isinstance(value, str):
            raise ValueError(self.must_be)
        if value.startswith("unix:"):
            if len(value) <= len("unix:"):
                raise ValueError(self.must_be)
            return
        host, sep, port = value.rpartition(":")
        if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise ValueError(self.must_be)


class HostPort(Bind):
    """host:port, or none (the feature it names is off)."""

    must_be = "host:port (e.g. 127.0.0.1:9101, 0.0.0.0:9101), or empty for none"

    def check(self, value: Any) -> None:
        if value is None:
            return
        if isinstance(value, str) and value.startswith("unix:"):
            raise ValueError(self.must_be)
        super().check(value)


class RateLimits(Kind):
    """Flask-Limiter's notation: one or more limits separated by ';', e.g. "30/minute;300/hour"."""

    must_be = "rate limits such as '30/minute' or '10 per second;300/hour' (separated by ';')"

    def check(self, value: Any) -> None:
        from limits import parse_many

        if not isinstance(value, str) or not value.strip():
            raise ValueError(self.must_be)
        try:
            parse_many(value)
        except ValueError:
            raise ValueError(self.must_be) from None


class LimitStorage(RedisUrl):
    must_be = "memory://, or a redis://, rediss:// or redis+cluster:// URL (empty: follow the store)"

    def parse(self, text: str) -> str | None:
        return text.strip() or None

    def check(self, value: Any) -> None:
        if value is None or value == "memory://":
            return
        super().check(value)


def default_workers() -> int:
    """One gevent worker per core (a worker is one thread: more than the cores only adds memory)."""
    return max(1, min(multiprocessing.cpu_count(), 8))


# ---------------------------------------------------------------------------- the settings
@dataclass(frozen=True)
class Config:
    data_dir: str = "./var"  # signing keys and the embedded store live here
    redis_url: str | None = None  # redis://host:port/0 or redis+cluster://host:port; None: embedded
    card_clock: int | None = 25  # default seconds to play a card
    other_clock: int | None = 30  # default seconds for any other decision
    abandon_after: float = 600.0  # a game whose humans are all silent this long is abandoned
    max_moves: int = 10_000  # a game still running after this many moves is ended ("move-cap")
    standin_after: float = 180.0  # at a table without clocks: a turn this long and the bot stands in
    reveal_seconds: float = 30.0  # after the start, how long committed seats have to reveal their seeds
    blind_step: float = 60.0  # a blind table without an "other" clock: time for a seat's shuffle/lock/release/reveal
    blind_grace: float = 30.0  # a blind table: past a step's or a move's deadline this long, the game is aborted
    max_content_length: int = 16 * 1024  # request bodies are small JSON objects
    long_poll_max: float = 25.0  # the longest an event-feed request waits
    # An idle stream costs a keep-alive every heartbeat and a reopening every stream_max (about 3 ms of CPU:
    # the request, the token, the rate limits, the view; a keep-alive about a twentieth of that): an hour makes
    # the reopenings a fifth of an idle stream's cost (bench/bench_idle.py, bench/README.md), the heartbeat under
    # a proxy's 60 s read timeout (docs/operations.md, "Proxies").
    stream_max: float = 3600.0  # the longest a server-sent events stream stays open
    heartbeat: float = 50.0  # seconds between keep-alive comments on an idle stream
    gc_freeze: float = 60.0  # seconds between a worker's garbage-collector freeze passes (gcfreeze.py); 0: none
    max_waits: int = 5000  # open event-feed waits per worker process (beyond: 503)
    max_waits_per_player: int = 16  # ... per player (or per address without a token) and process (429)
    redis_connections: int = 128  # the Redis command pool per process and cluster node (and one for the rate limits)
    redis_wait_replicas: int = 0  # replicas each append waits for (Redis WAIT) before it is acknowledged
    redis_wait_timeout: float = 1.0  # ... for at most this long; fewer replicas by then: 503, retry
    sweep_interval: float = 1.0
    sweeper: bool = True  # `fairdeal serve` starts a sweeper process beside the server
    sweep_metrics: str | None = None  # host:port a standalone `fairdeal sweep` serves /metrics on
    idem_ttl: float = 86400.0  # an idempotency key is honoured this long after its move (0: always)
    archive_dir: str | None = None  # finished games go to JSON Lines files here; None: they stay in the store
    retention: float = 7 * 86400.0  # ... this long after they ended, then leave the store
    cache_size: int = 512  # games kept replayed in memory per process
    cache_bytes: int = 16 * 1024 * 1024  # ... and at most this much of their logs' stored text (RSS: about 3.5x)
    log_level: str = "INFO"
    bind: str = "127.0.0.1:8000"  # the container sets 0.0.0.0:8000; a laptop stays on loopback
    workers: int = field(default_factory=default_workers)
    connections: int = 10_000  # connections one gevent worker holds at once, waits included
    token_ttl: float = 30 * 86400.0  # a token ends this long after it was issued (0: never)
    trusted_proxies: int = 0  # proxies in front whose X-Forwarded-For names the client
    rate_limits: bool = True
    rate_limit_storage: str | None = None  # None: the store's Redis, or memory for the embedded store
    limit_players: str = "60/minute;1000/hour"  # new players and new tokens, per client address
    limit_tables: str = "60/minute;600/hour"  # new tables, per player
    limit_moves: str = "1200/minute"  # moves, per player
    limit_waits: str = "1200/minute"  # event-feed requests (long-poll and stream), per player
    limit_address: str = "6000/minute"  # tables, moves and waits of all players of one address
    limit_bad_tokens: str = "60/minute"  # requests with an unknown, expired or ended token, per address
    transparency_log: bool = True  # every commitment and ending is a leaf of the log (docs/log.md)
    log_head_seconds: float = 10.0  # a new tree head is signed this often while the log grows
    log_origin: str = "localhost/fairdeal-log"  # the checkpoints' origin line and key name (docs/log.md)
    log_witnesses: tuple[str, ...] | None = None  # witnesses whose cosignatures the log takes (vkeys, type 0x04)
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for s in SETTINGS:
            value = getattr(self, s.field)
            try:
                s.kind.check(value)
            except ValueError as e:
                raise ConfigError(f"{s.env} (the {s.field} setting) is {s.kind.show(value)}: it must be {e}.") from None

    @staticmethod
    def from_env(environ: dict[str, str] | None = None, **overrides: Any) -> Config:
        """The configuration from FAIRDEAL_* variables (empty ones count as unset), then `overrides`
        (None values are ignored: an option not given)."""
        env: Mapping[str, str] = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for s in SETTINGS:
            raw = env.get(s.env)
            if raw is None or raw.strip() == "":
                continue
            try:
                values[s.field] = s.kind.parse(raw)
                s.kind.check(values[s.field])
            except ValueError as e:
                raise ConfigError(f"{s.env}={s.kind.show(raw)} is not valid: it must be {e}.") from None
        cfg = Config(**values)
        return replace(cfg, **{k: v for k, v in overrides.items() if v is not None})


@dataclass(frozen=True)
class Setting:
    field: str
    env: str
    kind: Kind
    doc: str


SETTINGS: tuple[Setting, ...] = (
    Setting("data_dir", "FAIRDEAL_DATA", Text(), "data dir: signing keys and the embedded store"),
    Setting("redis_url", "FAIRDEAL_REDIS_URL", RedisUrl(), "Redis (none: the embedded SQLite store)"),
    Setting("card_clock", "FAIRDEAL_CARD_CLOCK", Clock(), "default seconds to play a card (or off)"),
    Setting("other_clock", "FAIRDEAL_OTHER_CLOCK", Clock(), "default seconds for any other decision (or off)"),
    Setting(
        "abandon_after",
        "FAIRDEAL_ABANDON_AFTER",
        Number(0, unit="seconds", low_open=True),
        "silence before a game is abandoned",
    ),
    Setting(
        "max_moves",
        "FAIRDEAL_MAX_MOVES",
        Number(100, 1_000_000, integer=True, unit="moves"),
        "moves after which a game still running is ended (reason move-cap)",
    ),
    Setting(
        "standin_after",
        "FAIRDEAL_STANDIN_AFTER",
        Number(0, unit="seconds", low_open=True),
        "at a table without clocks, how long a player's turn may last before the table's bot stands in",
    ),
    Setting(
        "reveal_seconds",
        "FAIRDEAL_REVEAL_SECONDS",
        Number(0, 3600, unit="seconds", low_open=True),
        "time the committed seats have to reveal their client seeds after the start",
    ),
    Setting(
        "blind_step",
        "FAIRDEAL_BLIND_STEP",
        Number(0, 3600, unit="seconds", low_open=True),
        "at a blind table without an other-decision clock, the time a seat has for each shuffle, lock, release "
        "and reveal",
    ),
    Setting(
        "blind_grace",
        "FAIRDEAL_BLIND_GRACE",
        Number(0, 3600, unit="seconds"),
        "at a blind table, how long past a step's or a move's deadline the game waits before it is aborted",
    ),
    Setting(
        "max_content_length",
        "FAIRDEAL_MAX_BODY",
        Number(256, 1 << 20, integer=True, unit="bytes"),
        "largest request body",
    ),
    Setting(
        "long_poll_max", "FAIRDEAL_LONG_POLL_MAX", Number(0, 300, unit="seconds", low_open=True), "longest long-poll"
    ),
    Setting(
        "stream_max",
        "FAIRDEAL_STREAM_MAX",
        Number(0, 86400, unit="seconds", low_open=True),
        "longest server-sent events stream",
    ),
    Setting(
        "heartbeat",
        "FAIRDEAL_HEARTBEAT",
        Number(0, 300, unit="seconds", low_open=True),
        "seconds between an idle stream's keep-alive comments",
    ),
    Setting(
        "gc_freeze",
        "FAIRDEAL_GC_FREEZE",
        Number(0, 86400, unit="seconds"),
        "seconds between a worker's garbage-collector freeze passes (0: none)",
    ),
    Setting(
        "max_waits",
        "FAIRDEAL_MAX_WAITS",
        Number(1, integer=True, unit="waits"),
        "open event-feed waits per worker process",
    ),
    Setting(
        "max_waits_per_player",
        "FAIRDEAL_MAX_WAITS_PER_PLAYER",
        Number(1, integer=True, unit="waits"),
        "open event-feed waits per player (or address) and worker process",
    ),
    Setting(
        "redis_connections",
        "FAIRDEAL_REDIS_CONNECTIONS",
        Number(1, 10000, integer=True, unit="connections"),
        "Redis command connections per process (per node of a cluster)",
    ),
    Setting(
        "redis_wait_replicas",
        "FAIRDEAL_REDIS_WAIT_REPLICAS",
        Number(0, 100, integer=True, unit="replicas"),
        "replicas that must have each append before it is acknowledged (Redis WAIT; 0: none)",
    ),
    Setting(
        "redis_wait_timeout",
        "FAIRDEAL_REDIS_WAIT_TIMEOUT",
        Number(0, 60, unit="seconds", low_open=True),
        "longest an append waits for those replicas",
    ),
    Setting(
        "idem_ttl",
        "FAIRDEAL_IDEMPOTENCY_TTL",
        Number(1, unit="seconds", zero_means="always"),
        "how long an Idempotency-Key is honoured after its move",
    ),
    Setting(
        "archive_dir",
        "FAIRDEAL_ARCHIVE",
        Folder(),
        "folder the sweeper archives finished games to (JSON Lines), then deletes them from the store",
    ),
    Setting(
        "retention",
        "FAIRDEAL_RETENTION",
        Number(0, unit="seconds"),
        "how long a finished game stays in the store before it is archived and deleted",
    ),
    Setting("sweeper", "FAIRDEAL_SWEEPER", Switch(), "`fairdeal serve` starts a sweeper process beside the server"),
    Setting(
        "sweep_metrics",
        "FAIRDEAL_SWEEP_METRICS",
        HostPort(),
        "host:port a `fairdeal sweep` of its own serves its metrics on",
    ),
    Setting(
        "sweep_interval",
        "FAIRDEAL_SWEEP_INTERVAL",
        Number(0, 3600, unit="seconds", low_open=True),
        "seconds between the sweeper's rounds",
    ),
    Setting(
        "cache_bytes",
        "FAIRDEAL_CACHE_BYTES",
        Number(1024, integer=True, unit="bytes"),
        "bytes of log text the replayed games a process keeps may hold together",
    ),
    Setting(
        "cache_size",
        "FAIRDEAL_CACHE_GAMES",
        Number(1, integer=True, unit="games"),
        "games kept replayed in memory per process",
    ),
    Setting("log_level", "FAIRDEAL_LOG_LEVEL", Choice(*LOG_LEVELS), "log level (DEBUG adds a line per request)"),
    Setting("bind", "FAIRDEAL_BIND", Bind(), "address the API listens on"),
    Setting("workers", "FAIRDEAL_WORKERS", Number(1, 256, integer=True, unit="processes"), "gunicorn workers"),
    Setting(
        "connections",
        "FAIRDEAL_CONNECTIONS",
        Number(16, 1_000_000, integer=True, unit="connections"),
        "connections each gunicorn worker holds at once, waiting ones included",
    ),
    Setting(
        "token_ttl",
        "FAIRDEAL_TOKEN_TTL",
        Number(60, unit="seconds", zero_means="never"),
        "lifetime of a player's token",
    ),
    Setting(
        "trusted_proxies",
        "FAIRDEAL_TRUSTED_PROXIES",
        Number(0, 10, integer=True, unit="proxies"),
        "proxies in front whose X-Forwarded-For gives the client address",
    ),
    Setting("rate_limits", "FAIRDEAL_RATE_LIMITS", Switch(), "rate limiting on or off"),
    Setting(
        "rate_limit_storage",
        "FAIRDEAL_RATE_LIMIT_STORAGE",
        LimitStorage(),
        "where the limits count (default: the store's Redis; memory for the embedded store)",
    ),
    Setting("limit_players", "FAIRDEAL_LIMIT_PLAYERS", RateLimits(), "new players and new tokens per address"),
    Setting("limit_tables", "FAIRDEAL_LIMIT_TABLES", RateLimits(), "new tables per player"),
    Setting("limit_moves", "FAIRDEAL_LIMIT_MOVES", RateLimits(), "moves per player"),
    Setting("limit_waits", "FAIRDEAL_LIMIT_WAITS", RateLimits(), "event-feed requests per player"),
    Setting(
        "limit_address",
        "FAIRDEAL_LIMIT_ADDRESS",
        RateLimits(),
        "tables, moves and waits per address, all its players together",
    ),
    Setting(
        "limit_bad_tokens", "FAIRDEAL_LIMIT_BAD_TOKENS", RateLimits(), "unknown, expired or ended tokens per address"
    ),
    Setting(
        "transparency_log",
        "FAIRDEAL_TRANSPARENCY_LOG",
        Switch(),
        "the transparency log of commitments and endings on or off (off only for a benchmark's baseline)",
    ),
    Setting(
        "log_head_seconds",
        "FAIRDEAL_LOG_HEAD_SECONDS",
        Number(0, 86400, unit="seconds", low_open=True),
        "how often a new signed tree head is made while the log grows",
    ),
    Setting(
        "log_origin",
        "FAIRDEAL_LOG_ORIGIN",
        NoteName(),
        "the log's name in its checkpoints (origin line and key name), e.g. fairdeal.example/fairdeal-log",
    ),
    Setting(
        "log_witnesses",
        "FAIRDEAL_LOG_WITNESSES",
        WitnessKeys(),
        "witnesses whose checkpoint cosignatures the log accepts and serves (verifier keys, type 0x04)",
    ),
)

assert {s.field for s in SETTINGS} == {f.name for f in fields(Config)} - {"extra"}, "a setting without its variable"
