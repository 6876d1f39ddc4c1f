"""Every Redis key name, defined in one place.

Each key of one game (its table document, record log, idempotency keys, secret seed) carries the hash tag
`{game_id}` so they all live in one Redis Cluster slot and the append script may touch them together; so does
the game's event channel, so the append script's SPUBLISH goes to that slot's shard.
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


def events(game_id: str) -> str:
    """The (sharded) pub/sub channel the append script announces each new log length on; also the channel of
    any other topic a watch may hear (Store.announce: a token's end, whose topic is "token:<sha256>")."""
    return f"{PREFIX}:{{{game_id}}}:events"


def game_of_events(channel: str) -> str:
    """The game id of an events channel name (the inverse of events())."""
    return channel[len(PREFIX) + 2 : -len("}:events")]


def index(name: str) -> str:
    """A sorted set: lobby (open tables), running (started tables, newest first), schedule (next deadline per
    game), active, finished, tournaments (being played, by when their next round is due)."""
    return f"{PREFIX}:index:{name}"


# ---- the transparency log (docs/log.md, "Storage"): a game's leaves wait in its own slot, the log has its own
TLOG_TAG = "{tlog}"


def tlog_queue(game_id: str) -> str:
    """List: the game's leaves (canonical JSON) written with its commit and end records, not yet sequenced."""
    return f"{PREFIX}:{{{game_id}}}:tlogq"


def tlog_leaves() -> str:
    """List: the log's leaves in order (index = leaf index)."""
    return f"{PREFIX}:{TLOG_TAG}:leaves"


def tlog_games() -> str:
    """Hash: "<game id> <leaf type>" -> leaf index (each leaf is sequenced once, whatever retries)."""
    return f"{PREFIX}:{TLOG_TAG}:games"


def tlog_head() -> str:
    """Hash: the latest signed tree head (size, root, body)."""
    return f"{PREFIX}:{TLOG_TAG}:head"


def tlog_cosignatures() -> str:
    """Hash: witness ("<key name> <key id hex>") -> its latest cosignature of a checkpoint (JSON)."""
    return f"{PREFIX}:{TLOG_TAG}:cosignatures"


TLOG_PENDING = "tlog-pending"  # index(): the games whose queue may hold leaves, scored by the time of the write

TLOG_HASH_CHUNK = 1 << 16  # stored hashes per string key (2 MiB): far below Redis's 512 MB string limit


def tlog_hashes(chunk: int) -> str:
    """String: the stored hashes (fairdeal.core.storedhash) chunk * TLOG_HASH_CHUNK onwards, 32 raw bytes each
    at byte offset 32 * (index % TLOG_HASH_CHUNK)."""
    return f"{PREFIX}:{TLOG_TAG}:hashes:{chunk}"


def tlog_hashed() -> str:
    """String: how many leaves have their hashes stored (the log's length, once a log older than them is filled)."""
    return f"{PREFIX}:{TLOG_TAG}:hashed"
