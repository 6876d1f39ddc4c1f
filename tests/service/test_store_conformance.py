"""One conformance suite for every store: SQLite (embedded), Redis, and a Redis Cluster of three primaries."""

from __future__ import annotations

import multiprocessing
import threading
import uuid

import pytest

from fairdeal.service.store import keys
from fairdeal.service.store.base import CONFLICT, DUPLICATE, KEY_REUSED, OK, entry_digest
from fairdeal.service.store.sqlite import SqliteStore
from tests.service.store_faults import drop_last


@pytest.fixture(params=["sqlite", "redis", "cluster"])
def store(request, tmp_path):
    if request.param == "sqlite":
        s = SqliteStore(str(tmp_path / "s.sqlite3"))
    else:
        from fairdeal.service.store.redis import RedisStore

        url = request.getfixturevalue("redis_url" if request.param == "redis" else "redis_cluster_url")
        s = RedisStore(url)
    yield s
    s.close()


def gid() -> str:
    return uuid.uuid4().hex


def test_doc_is_created_once_and_replaced_only_at_its_version(store):
    d = gid()
    assert store.get_doc("table", d) == (None, 0)
    assert store.put_doc("table", d, {"a": 1}, 0)
    assert not store.put_doc("table", d, {"a": 2}, 0)
    assert store.get_doc("table", d) == ({"a": 1}, 1)
    assert store.put_doc("table", d, {"a": 3}, 1)
    assert not store.put_doc("table", d, {"a": 4}, 1)
    assert store.get_doc("table", d) == ({"a": 3}, 2)


def test_append_at_expected_length_then_conflict_changes_nothing(store):
    g = gid()
    r = store.append(g, 0, "r0", 1.0)
    assert (r.status, r.length, r.seq) == (OK, 1, 0)
    r = store.append(g, 0, "other", 2.0)
    assert (r.status, r.length) == (CONFLICT, 1)
    r = store.append(g, 5, "other", 2.0)
    assert r.status == CONFLICT
    assert store.records(g) == ["r0"]
    assert store.log_info(g) == (1, 1.0)
    assert store.append(g, 1, "r1", 3.5).status == OK
    assert store.records(g, 1) == ["r1"]
    assert store.log_info(g) == (2, 3.5)


def test_empty_log(store):
    assert store.records(gid()) == []
    assert store.log_info(gid()) == (0, None)


def test_retry_with_same_idempotency_key_and_body_is_acknowledged_once(store):
    g = gid()
    store.append(g, 0, "start", 1.0)
    first = store.append(g, 1, "move", 2.0, "key-1", "h1")
    again = store.append(g, 1, "move", 3.0, "key-1", "h1")
    assert first.status == OK and again.status == DUPLICATE
    assert again.seq == first.seq == 1
    # even after the log moved on, the key still answers with its original place
    store.append(g, 2, "later", 4.0)
    late = store.append(g, 2, "move", 5.0, "key-1", "h1")
    assert (late.status, late.seq, late.length) == (DUPLICATE, 1, 3)
    assert store.records(g) == ["start", "move", "later"]


def test_idempotency_key_with_a_different_body_is_refused(store):
    g = gid()
    store.append(g, 0, "move", 1.0, "k", "h1")
    r = store.append(g, 1, "other", 2.0, "k", "h2")
    assert r.status == KEY_REUSED and r.seq == 0
    assert store.records(g) == ["move"]


def test_refused_append_does_not_record_its_idempotency_key(store):
    g = gid()
    store.append(g, 0, "a", 1.0)
    assert store.append(g, 0, "b", 1.0, "k", "h").status == CONFLICT
    # the key was not spent by the refused call
    assert store.append(g, 1, "b", 1.0, "k", "h").status == OK


def test_idempotency_keys_are_per_player(store):
    # the same key text from another scope (the player who sent it) is another request; within a scope it is
    # still one request
    g = gid()
    assert store.append(g, 0, "a's move", 1.0, "k", "h-a", idem_scope="player-a").status == OK
    assert store.append(g, 1, "b's move", 2.0, "k", "h-b", idem_scope="player-b").status == OK
    again = store.append(g, 2, "a's move", 3.0, "k", "h-a", idem_scope="player-a")
    assert (again.status, again.seq) == (DUPLICATE, 0)
    assert store.append(g, 2, "x", 3.0, "k", "h-x", idem_scope="player-b").status == KEY_REUSED
    # scopes are kept apart whatever their text: no scope's key can be read as another's
    assert store.append(g, 2, "c", 4.0, '"]k', "h", idem_scope="player-a").status == OK
    assert store.append(g, 3, "d", 5.0, "k", "h", idem_scope='player-a"]').status == OK
    assert store.records(g) == ["a's move", "b's move", "c", "d"]


def test_an_idempotency_key_is_read_as_an_append_would_answer_it_and_nothing_is_written(store):
    g = gid()
    assert store.idem_lookup(g, "k", "h", "p", 1.0) is None  # no log at all
    assert store.append(g, 0, "start", 1.0).status == OK
    assert store.idem_lookup(g, "k", "h", "p", 1.5) is None  # never used
    assert store.append(g, 1, "move", 2.0, "k", "h", idem_scope="p").status == OK
    assert store.append(g, 2, "later", 2.5).status == OK
    found = store.idem_lookup(g, "k", "h", "p", 3.0)
    assert (found.status, found.seq, found.length) == (DUPLICATE, 1, 3)
    assert store.append(g, 3, "move", 3.0, "k", "h", idem_scope="p") == found  # what the append answers
    reused = store.idem_lookup(g, "k", "other body", "p", 3.0)
    assert (reused.status, reused.seq) == (KEY_REUSED, 1)
    assert store.idem_lookup(g, "k", "h", "q", 3.0) is None  # another player's key of the same text
    assert store.idem_lookup(gid(), "k", "h", "p", 3.0) is None  # another game's
    assert store.records(g) == ["start", "move", "later"]
    drop_last(store, g)
    drop_last(store, g)
    assert store.idem_lookup(g, "k", "h", "p", 3.0) is None  # lost with its record: unused again


def test_idempotency_keys_are_per_game(store):
    g1, g2 = gid(), gid()
    assert store.append(g1, 0, "a", 1.0, "k", "h").status == OK
    assert store.append(g2, 0, "b", 1.0, "k", "other").status == OK


def test_append_checks_the_last_entry_when_told_it(store):
    """A log that lost its last entry and was written again has the length the caller expects, not its last entry:
    the append is refused and changes nothing."""
    g = gid()
    assert store.append(g, 0, "r0", 1.0).status == OK
    assert store.append(g, 1, "r1", 2.0, last_digest=entry_digest("r0")).status == OK
    drop_last(store, g)
    assert store.append(g, 1, "r1 again", 3.0).status == OK  # another writer re-made entry 1
    res = store.append(g, 2, "r2", 4.0, last_digest=entry_digest("r1"))
    assert (res.status, res.length) == (CONFLICT, 2)
    assert store.records(g) == ["r0", "r1 again"]
    assert store.append(g, 2, "r2", 4.0, last_digest=entry_digest("r1 again")).status == OK
    assert store.append(g, 0, "x", 5.0, last_digest=entry_digest("")).status == CONFLICT  # the length still counts


def test_an_idempotency_key_lost_with_its_record_is_taken_anew(store):
    """The key's record is gone (the log lost it): a retry is a new move, not a duplicate of a missing one."""
    g = gid()
    assert store.append(g, 0, "r0", 1.0).status == OK
    assert store.append(g, 1, "move", 2.0, "k", "h").status == OK
    drop_last(store, g)
    res = store.append(g, 1, "move again", 3.0, "k", "h")
    assert (res.status, res.seq) == (OK, 1)
    assert store.append(g, 2, "x", 4.0, "k", "h").status == DUPLICATE
    assert store.append(g, 2, "x", 4.0, "k", "other").status == KEY_REUSED


def test_concurrent_appends_at_one_length_admit_exactly_one(store):
    g = gid()
    results = []

    def worker(i):
        results.append(store.append(g, 0, f"r{i}", 1.0).status)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results.count(OK) == 1 and results.count(CONFLICT) == 7
    assert len(store.records(g)) == 1


def test_secret_is_kept(store):
    g = gid()
    assert store.get_secret(g) is None
    assert store.put_secret(g, "ab" * 32) is True
    assert store.get_secret(g) == "ab" * 32


def test_a_secret_is_never_replaced(store):
    """A game's seed is bound by its published commitment: a second write for the id stores nothing."""
    g = gid()
    assert store.put_secret(g, "ab" * 32) is True
    assert store.put_secret(g, "cd" * 32) is False
    assert store.get_secret(g) == "ab" * 32


def test_index_orders_by_score_and_filters(store):
    name = "t" + gid()
    store.index_set(name, "b", 2.0)
    store.index_set(name, "a", 1.0)
    store.index_set(name, "c", 3.0)
    store.index_set(name, "a", 4.0)  # moved
    assert store.index_range(name) == [("b", 2.0), ("c", 3.0), ("a", 4.0)]
    assert store.index_range(name, max_score=3.0) == [("b", 2.0), ("c", 3.0)]
    assert store.index_range(name, limit=1) == [("b", 2.0)]
    assert store.index_range(name, after=2.0) == [("c", 3.0), ("a", 4.0)]
    store.index_remove(name, "c")
    assert [m for m, _ in store.index_range(name)] == ["b", "a"]
    assert store.index_score(name, "a") == 4.0 and store.index_score(name, "c") is None
    assert store.index_score("other" + name, "a") is None


def test_ping(store):
    assert store.ping()


def test_every_key_of_a_game_is_in_one_cluster_slot():
    from redis.crc import key_slot

    g = gid()
    slots = {
        key_slot(k.encode())
        for k in (keys.log(g), keys.log_meta(g), keys.idem(g), keys.secret(g), keys.doc("table", g))
    }
    assert len(slots) == 1


def _append_many(path, g, n, out):
    s = SqliteStore(path)
    won = 0
    for _ in range(n):
        while True:
            length, _ = s.log_info(g)
            if s.append(g, length, "x", 1.0).status == OK:
                won += 1
                break
    out.put(won)


def test_sqlite_compare_and_append_is_safe_across_processes(tmp_path):
    path = str(tmp_path / "p.sqlite3")
    SqliteStore(path)
    g = gid()
    ctx = multiprocessing.get_context("fork")
    out = ctx.Queue()
    procs = [ctx.Process(target=_append_many, args=(path, g, 25, out)) for _ in range(3)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(30)
    assert sum(out.get() for _ in procs) == 75
    assert len(SqliteStore(path).records(g)) == 75


# ------------------------------------------------------------------ a model of compare-and-append

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st

OPS = st.lists(
    st.tuples(
        st.sampled_from([0, -1, 1, None]),  # expected length: current + delta, or -1
        st.sampled_from([None, "k1", "k2", "k3"]),  # idempotency key
        st.sampled_from(["a", "b"]),
    ),  # body (and its hash)
    min_size=1,
    max_size=25,
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=OPS)
def test_compare_and_append_matches_a_model(store, ops):
    g = gid()
    log: list[str] = []
    keys_seen: dict[str, tuple[str, int]] = {}
    for delta, key, body in ops:
        expected = -1 if delta is None else len(log) + delta
        res = store.append(g, expected, f"{body}{len(log)}", 1.0, key, body if key else None)
        if key in keys_seen:
            first_body, seq = keys_seen[key]
            assert (res.status, res.seq) == (DUPLICATE if first_body == body else KEY_REUSED, seq)
        elif expected != len(log):
            assert res.status == CONFLICT
        else:
            assert (res.status, res.seq) == (OK, len(log))
            log.append(f"{body}{len(log)}")
            if key:
                keys_seen[key] = (body, len(log) - 1)
        assert res.length == len(log)
    assert store.records(g) == log
