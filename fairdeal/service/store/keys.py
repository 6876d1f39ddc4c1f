"""Every Redis key name, defined in one place.

Each key of one game (its table document, record log, idempotency keys, secret seed) carries the hash tag
`{game_id}` so they all live in one Redis Cluster slot and the append script may touch them together.
Documents of other kinds are tagged by their own id; indexes (lobby, schedule, ...) are single keys.
"""
from __future__ import annotations

PREFIX = "fd"


def doc(kind: str, doc_id: str) -> str:
    """A JSON document with a version (tables, players, token lookups)."""
    return f"{PREFIX}:{{{doc_id}}}:{kind}"


def log(game_id: str) -> str:
    """The game's append-only list of transcript records (canonical JSON)."""
    return f"{PREFIX}:{{{game_id}}}:log"


def log_meta(game_id: str) -> str:
    """Hash: `at` = time of the last append."""
    return f"{PREFIX}:{{{game_id}}}:logmeta"


def idem(game_id: str) -> str:
    """Hash: the idempotency key with its scope (store.base.idem_field) -> "<body hash> <seq>"."""
    return f"{PREFIX}:{{{game_id}}}:idem"


def secret(game_id: str) -> str:
    """The server seed, kept apart from everything a response is built from."""
    return f"{PREFIX}:{{{game_id}}}:secret"


def index(name: str) -> str:
    """A sorted set: lobby (open tables), schedule (next deadline per game), active, finished."""
    return f"{PREFIX}:index:{name}"
