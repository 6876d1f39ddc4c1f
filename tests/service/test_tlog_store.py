"""The transparency log's storage on every store (SQLite, Redis, a Redis Cluster): a leaf is written with its
record or not at all, sequenced once whatever races or retries, and heads only ever grow."""

from __future__ import annotations

import json
import threading
import uuid

import pytest

from fairdeal.service.store import keys
from fairdeal.service.store.base import CONFLICT, OK
from fairdeal.service.store.sqlite import SqliteStore
from tests.service.tlog_isolation import redis_url  # noqa: F401 - a database of its own


@pytest.fixture(params=["sqlite", "redis", "cluster"])
def store(request, tmp_path):
    if request.param == "sqlite":
        s = SqliteStore(str(tmp_path / "s.sqlite3"))
    else:
        from fairdeal.service.store.redis import RedisStore

        s = RedisStore(request.getfixturevalue("redis_url" if request.param == "redis" else "redis_cluster_url"))
    yield s
    s.close()


def gid() -> str:
    return uuid.uuid4().hex[:16]


def leaf(g: str, kind: str) -> str:
    return json.dumps({"type": kind, "game_id": g}, sort_keys=True, separators=(",", ":"))


def test_a_leaf_is_written_with_its_record_and_sequenced_once(store):
    g = gid()
    before = store.tlog_sequence()
    r = store.append_with_leaf(g, 0, "commit", 1.0, "commitment", leaf(g, "commitment"))
    assert (r.status, r.length, r.seq) == (OK, 1, 0)
    assert store.records(g) == ["commit"]
    assert store.tlog_sequence(g) == before + 1
    assert store.tlog_sequence() == before + 1 == store.tlog_size()  # nothing twice
    assert store.tlog_game(g) == {"commitment": before}
    assert store.tlog_leaves(before, before + 1) == [leaf(g, "commitment")]
    assert store.append(g, 1, "move", 2.0).status == OK
    assert store.append_with_leaf(g, 2, "end", 3.0, "ending", leaf(g, "ending")).status == OK
    size = store.tlog_sequence()
    assert store.tlog_game(g)["ending"] == size - 1 > before
    assert store.log_info(g) == (3, 3.0)


def test_a_refused_append_writes_no_leaf(store):
    g = gid()
    assert store.append(g, 0, "commit", 1.0).status == OK
    size = store.tlog_sequence()
    r = store.append_with_leaf(g, 0, "other", 2.0, "commitment", leaf(g, "commitment"))
    assert (r.status, r.length) == (CONFLICT, 1)
    assert store.tlog_sequence(g) == size == store.tlog_sequence()
    assert store.tlog_game(g) == {}
    assert store.records(g) == ["commit"]


def test_racing_sequencers_give_every_leaf_one_index(store):
    games = [gid() for _ in range(40)]
    before = store.tlog_sequence()
    for g in games:
        assert store.append_with_leaf(g, 0, "c", 1.0, "commitment", leaf(g, "commitment")).status == OK
    threads = [threading.Thread(target=store.tlog_sequence) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    size = store.tlog_sequence()
    assert size == before + len(games)
    texts = store.tlog_leaves(before, size)
    assert sorted(texts) == sorted(leaf(g, "commitment") for g in games)
    assert sorted(store.tlog_game(g)["commitment"] for g in games) == list(range(before, size))


def test_heads_only_grow_and_a_second_root_for_a_size_is_refused(store):
    g = gid()
    store.append_with_leaf(g, 0, "c", 1.0, "commitment", leaf(g, "commitment"))
    size = store.tlog_sequence()
    head = {"type": "tree-head", "size": size, "root": "a" * 64, "time": "t", "key": "k", "signature": "s"}
    assert store.tlog_put_head(head)
    assert store.tlog_head() == head
    assert store.tlog_put_head(dict(head, time="later"))  # the same tree, signed again
    assert not store.tlog_put_head(dict(head, root="b" * 64))  # a fork
    assert not store.tlog_put_head(dict(head, size=size - 1))  # smaller
    assert not store.tlog_put_head(dict(head, size=size + 1))  # more leaves than the log has
    assert store.tlog_head() == dict(head, time="later")
    if hasattr(store, "r"):  # the cluster's log is the session's: a later test's start check must not meet this head
        from fairdeal.service.store import keys

        store.r.delete(keys.tlog_head())


def test_redis_sequencing_dies_half_way_and_resumes_without_a_duplicate(request):
    from fairdeal.service.store.redis import RedisStore

    store = RedisStore(request.getfixturevalue("redis_url"))
    g = gid()
    store.append_with_leaf(g, 0, "c", 1.0, "commitment", leaf(g, "commitment"))
    before = store.tlog_size()
    assert store.tlog_game(g) == {}  # queued in the game's slot
    assert store.r.lrange(keys.tlog_queue(g), 0, -1) == [leaf(g, "commitment")]
    assert g in dict(store.index_range(keys.TLOG_PENDING, limit=10_000))
    # the log's script ran, then the sequencer died before emptying the queue
    store._script("sequence")(
        keys=[keys.tlog_leaves(), keys.tlog_games()], args=[f"{g} commitment", leaf(g, "commitment")]
    )
    assert store.tlog_sequence() == before + 1
    assert store.tlog_game(g) == {"commitment": before}
    assert store.r.llen(keys.tlog_queue(g)) == 0
    assert g not in dict(store.index_range(keys.TLOG_PENDING, limit=10_000))
    store.close()


def test_redis_a_leaf_queued_while_the_sequencer_drains_keeps_its_game_pending(request):
    from fairdeal.service.store.redis import RedisStore

    store = RedisStore(request.getfixturevalue("redis_url"))
    g = gid()
    store.append_with_leaf(g, 0, "c", 1.0, "commitment", leaf(g, "commitment"))
    (score,) = [s for m, s in store.index_range(keys.TLOG_PENDING, limit=10_000) if m == g]
    store.append(g, 1, "m", 2.0)
    store.append_with_leaf(g, 2, "e", 3.0, "ending", leaf(g, "ending"))  # after the sequencer read `score`
    store._sequence_game(g, score)
    assert g in dict(store.index_range(keys.TLOG_PENDING, limit=10_000))  # the newer write keeps it
    store.tlog_sequence()
    assert set(store.tlog_game(g)) == {"commitment", "ending"}
    assert g not in dict(store.index_range(keys.TLOG_PENDING, limit=10_000))
    store.close()


def test_sqlite_a_second_leaf_of_one_kind_fails_the_record_with_it(tmp_path):
    import sqlite3

    store = SqliteStore(str(tmp_path / "s.sqlite3"))
    g = gid()
    assert store.append_with_leaf(g, 0, "commit", 1.0, "commitment", leaf(g, "commitment")).status == OK
    with pytest.raises(sqlite3.IntegrityError):
        store.append_with_leaf(g, 1, "again", 2.0, "commitment", leaf(g, "commitment"))
    assert store.records(g) == ["commit"] and store.tlog_size() == 1
    store.close()
