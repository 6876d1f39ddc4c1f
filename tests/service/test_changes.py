"""Change notification, store by store (store/changes.py): an append wakes every watch taken before it, on
another instance of the store too (what another process or machine holds); a refused append wakes nobody;
no append made while a waiter reads is missed; after Redis comes back, watches are woken and hear again; the
embedded store's doorbell reaches other processes, forgets dead listeners and never blocks a writer."""

from __future__ import annotations

import multiprocessing
import os
import socket
import tempfile
import threading
import time
import uuid

import pytest

from fairdeal.service.store.changes import ChangesUnavailable
from fairdeal.service.store.redis import RedisStore
from fairdeal.service.store.sqlite import SqliteStore
from fairdeal.service.store.sqlite_changes import Doorbell, SqliteChanges, listeners_dir
from tests.service import redis_servers
from tests.waiting import scaled, wait_for


def gid() -> str:
    return uuid.uuid4().hex


@pytest.fixture(params=["sqlite", "redis", "cluster"])
def two_stores(request, tmp_path):
    """A writer and a listener that share nothing but the database, like two processes."""
    if request.param == "sqlite":
        path = str(tmp_path / "s.sqlite3")
        stores = [SqliteStore(path), SqliteStore(path)]
    else:
        url = request.getfixturevalue("redis_url" if request.param == "redis" else "redis_cluster_url")
        stores = [RedisStore(url), RedisStore(url)]
    yield stores
    for s in stores:
        s.close()


def test_an_append_wakes_a_watch_on_another_instance_once(two_stores):
    writer, listener = two_stores
    g = gid()
    with listener.changes().watch(g) as w:
        assert not w.wait(0.05)
        writer.append(g, 0, "r0", 1.0)
        assert w.wait(scaled(2))
        assert not w.wait(0.1), "one append, one wake-up"
        writer.append(g, 1, "r1", 1.0)
        assert w.wait(scaled(2))


def test_a_refused_append_and_other_games_wake_nobody(two_stores):
    writer, listener = two_stores
    g, other = gid(), gid()
    writer.append(g, 0, "r0", 1.0)
    with listener.changes().watch(g) as w:
        assert writer.append(g, 0, "again", 1.0).status == "conflict"
        writer.append(other, 0, "elsewhere", 1.0)
        assert not w.wait(0.3)


def test_every_watch_on_the_game_wakes_and_a_closed_one_leaves(two_stores):
    writer, listener = two_stores
    g = gid()
    changes = listener.changes()
    watches = [changes.watch(g) for _ in range(3)]
    watches[0].close()
    assert changes.count == 2
    writer.append(g, 0, "r0", 1.0)
    assert all(w.wait(scaled(2)) for w in watches[1:])
    for w in watches[1:]:
        w.close()
    assert changes.count == 0 and not changes.watching(g)


def test_an_append_heard_before_the_wait_begins_is_kept_for_it(two_stores):
    writer, listener = two_stores
    g = gid()
    with listener.changes().watch(g) as w:
        assert listener.log_info(g)[0] == 0  # the waiter's read
        writer.append(g, 0, "r0", 1.0)  # lands after the read, before the wait
        # and is delivered meanwhile: each look is a wait of 0, which finds it only if it was kept
        wait_for(lambda: w.wait(0), timeout=3, what="the append heard before the wait, kept for it")


def test_no_append_is_missed_between_reads_and_waits_under_load(two_stores):
    """The waiter's loop (watch, read, wait while nothing is new) against a writer appending as fast as it
    can: a wake-up lost between a read and the wait would leave the waiter asleep with appends unread."""
    writer, listener = two_stores
    g, n = gid(), 150

    def write():
        for i in range(n):
            writer.append(g, i, f"r{i}", 1.0)
            if i % 10 == 0:
                time.sleep(0.002)

    with listener.changes().watch(g) as w:
        th = threading.Thread(target=write)
        th.start()
        seen, stalled = 0, False
        while seen < n:
            seen = listener.log_info(g)[0]
            if seen < n and not w.wait(scaled(3.0)):
                stalled = True
                break
        th.join()
    assert not stalled and seen == n


def test_the_channel_of_a_game_is_in_its_slot():
    from redis.crc import key_slot

    from fairdeal.service.store import keys

    g = gid()
    assert key_slot(keys.events(g).encode()) == key_slot(keys.log(g).encode())
    assert keys.game_of_events(keys.events(g)) == g


# ---------------------------------------------------------------------------------------------- Redis


def test_after_redis_comes_back_watches_are_woken_and_hear_again(tmp_path):
    proc, port = redis_servers.start_server(str(tmp_path))
    url = f"redis://127.0.0.1:{port}/0"
    listener, writer = RedisStore(url), RedisStore(url)
    try:
        g = gid()
        w = listener.changes().watch(g)
        redis_servers.stop([proc])
        listener.changes().confirm_timeout = 0.3
        with pytest.raises(ChangesUnavailable):  # a new watch cannot be made live while Redis is away
            listener.changes().watch(gid())
        proc, _ = redis_servers.start_server(str(tmp_path), port=port)
        # nothing was appended, but what was published meanwhile is unknown: the watch is woken to look again
        assert w.wait(scaled(10))
        writer.append(g, 0, "r0", 1.0)
        assert w.wait(scaled(3))
        w.close()
    finally:
        listener.close()
        writer.close()
        redis_servers.stop([proc])


def test_a_channel_stays_subscribed_for_the_linger_then_goes(redis_url):
    store = RedisStore(redis_url)
    try:
        changes = store.changes()
        changes.linger = 0.0
        g = gid()
        with changes.watch(g):
            assert changes.subscribed == 1
        assert changes.subscribed == 0
        changes.linger = 60.0
        with changes.watch(g):
            pass
        assert changes.subscribed == 1  # kept: the next long-poll of this game needs no new subscription
        with changes.watch(g) as w:  # and it is live at once
            RedisStore(redis_url).append(g, 0, "r0", 1.0)
            assert w.wait(scaled(2))
    finally:
        store.close()


# --------------------------------------------------------------------------------------------- SQLite


def _append_in_child(path: str, g: str) -> None:
    SqliteStore(path).append(g, 0, "from another process", 1.0)


def test_an_append_in_another_process_wakes_the_watch(tmp_path):
    path = str(tmp_path / "p.sqlite3")
    store = SqliteStore(path)
    g = gid()
    try:
        with store.changes().watch(g) as w:
            child = multiprocessing.get_context("spawn").Process(target=_append_in_child, args=(path, g))
            child.start()
            child.join(scaled(30))
            assert child.exitcode == 0
            assert w.wait(scaled(3))
        assert store.records(g) == ["from another process"]
    finally:
        store.close()


def test_a_dead_listeners_marker_is_removed_by_the_next_writer(tmp_path):
    path = str(tmp_path / "d.sqlite3")
    store = SqliteStore(path)
    folder = listeners_dir(path)
    os.makedirs(folder, exist_ok=True)
    dead = os.path.join(folder, "999999-deadbeef")
    if store._bell.abstract:
        open(dead, "x").close()
    else:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as s:
            s.bind(dead)
    store.append(gid(), 0, "r", 1.0)
    assert not os.path.exists(dead)


def test_a_closed_listener_takes_its_marker_away(tmp_path):
    path = str(tmp_path / "c.sqlite3")
    store = SqliteStore(path)
    with store.changes().watch(gid()):
        assert len(os.listdir(listeners_dir(path))) == 1
    store.close()
    wait_for(
        lambda: os.listdir(listeners_dir(path)) == [],
        timeout=3,
        interval=0.02,
        what="the closed listener's marker gone",
    )


def test_a_listener_that_does_not_read_never_blocks_a_writer(tmp_path):
    folder = tempfile.mkdtemp(prefix="fd", dir="/tmp")
    bell = Doorbell(folder)
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as deaf:
        deaf.bind(bell.address("deaf"))
        if bell.abstract:
            open(os.path.join(folder, "deaf"), "x").close()
        started = time.monotonic()
        for _ in range(2000):  # far more than its queue holds
            bell.ring()
        assert time.monotonic() - started < 2
        assert os.path.exists(os.path.join(folder, "deaf"))  # full is not dead: it stays


@pytest.mark.parametrize("abstract", [True, False], ids=["abstract-socket", "socket-file"])
def test_the_doorbell_works_with_either_kind_of_address(tmp_path, abstract):
    if abstract and not Doorbell("x").abstract:
        pytest.skip("abstract sockets are Linux's")
    store = SqliteStore(str(tmp_path / "a.sqlite3"))
    folder = tempfile.mkdtemp(prefix="fd", dir="/tmp")  # a socket file's path must be short
    changes = SqliteChanges(folder, store._log_since, store._last_rowid, abstract=abstract)
    bell = Doorbell(folder, abstract=abstract)
    g = gid()
    try:
        with changes.watch(g) as w:
            store.append(g, 0, "r", 1.0)
            bell.ring()
            assert w.wait(scaled(2))
    finally:
        changes.close()
        store.close()


def test_a_watch_closed_without_linger_drops_its_subscription_at_once(redis_url):
    store = RedisStore(redis_url)
    try:
        changes = store.changes()
        w = changes.watch(gid())
        w.close(linger=False)
        assert changes.subscribed == 0
    finally:
        store.close()


def test_a_listener_bound_past_fd_1024_still_hears(tmp_path):
    # a worker holding thousands of streams opens its listener's socket past select()'s FD_SETSIZE: the
    # listener failed there and woke every waiter ten times a second (bench_idle at 5,000 streams)
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1200:
        pytest.fail(f"the hard open-file limit ({hard}) is below what this test needs")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1200), hard))
    filler = [os.open(os.devnull, os.O_RDONLY) for _ in range(1100)]
    path = str(tmp_path / "f.sqlite3")
    store = SqliteStore(path)
    g = gid()
    try:
        with store.changes().watch(g) as w:
            assert store.changes()._sock.fileno() > 1024
            SqliteStore(path).append(g, 0, "r", 1.0)
            assert w.wait(scaled(3))
            assert not w.wait(0.3), "one append, one wake-up: the listener does not fail and wake everyone"
    finally:
        store.close()
        for fd in filler:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
