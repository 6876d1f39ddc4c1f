"""The log's tree kept as stored hashes (fairdeal.core.storedhash) on every store (SQLite, Redis, a Redis
Cluster): the tree they make is RFC 9162's (merkle.py's reference) at every size, proofs included; a process
answers from O(log n) of them in one read, reading no leaf but the one it proves; a log written before the hashes
were stored is filled once."""

from __future__ import annotations

import json
import random
import threading
import uuid

import pytest

from fairdeal.core import merkle, storedhash
from fairdeal.service.config import Config
from fairdeal.service.signing import KeyRing
from fairdeal.service.store import keys
from fairdeal.service.translog import TransLog
from tests.service.tlog_isolation import redis_url, tlog_store_fixture  # noqa: F401 - a database of its own


def leaf(g: str, kind: str) -> str:
    return json.dumps({"type": kind, "game_id": g, "pad": uuid.uuid4().hex}, sort_keys=True, separators=(",", ":"))


def add(store, count: int) -> None:
    for _ in range(count):
        g = uuid.uuid4().hex[:16]
        assert store.append_with_leaf(g, 0, "c", 1.0, "commitment", leaf(g, "commitment")).status == "ok"
        store.tlog_sequence(g)


def reference(store) -> merkle.Tree:
    return merkle.Tree(merkle.leaf_hash(t.encode()) for t in store.tlog_leaves(0, store.tlog_size()))


def read(store):
    return store.tlog_read_hashes


def test_the_stored_tree_is_the_reference_tree_at_every_size(tlog_store):
    store, rng = tlog_store, random.Random(7)
    before = store.tlog_sequence()
    sizes = []
    for _ in range(40):
        add(store, 1)
        sizes.append(store.tlog_size())
    ref = reference(store)
    assert store.tlog_hashed_size() == len(ref) == sizes[-1]
    every = range(before, len(ref) + 1) if before < 2000 else sizes  # a cluster's shared log may be long
    for n in every:
        assert storedhash.tree_hash(n, read(store)) == ref.root(n), n
    for _ in range(200):
        n = rng.randint(1, len(ref))
        i, m = rng.randrange(n), rng.randint(0, n)
        assert storedhash.inclusion_proof(i, n, read(store)) == ref.inclusion_proof(i, n), (i, n)
        assert storedhash.consistency_proof(m, n, read(store)) == ref.consistency_proof(m, n), (m, n)
    # every stored hash is the hash of its subtree
    count = storedhash.stored_hash_count(len(ref))
    for at, h in zip(range(count), store.tlog_read_hashes(list(range(count))), strict=True):
        level, k = storedhash.split_stored_hash_index(at)
        assert h == ref.hash(k << level, (k + 1) << level), at


def test_a_batch_sequenced_at_once_and_racing_sequencers_store_the_reference_tree(tlog_store):
    store = tlog_store
    before = store.tlog_sequence()
    games = [uuid.uuid4().hex[:16] for _ in range(60)]
    for g in games:  # queued on Redis: the sweeper's round places them all in one script
        assert store.append_with_leaf(g, 0, "c", 1.0, "commitment", leaf(g, "commitment")).status == "ok"
    threads = [threading.Thread(target=store.tlog_sequence) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert store.tlog_sequence() == before + len(games) == store.tlog_hashed_size()
    ref = reference(store)
    for n in range(before, len(ref) + 1):
        assert storedhash.tree_hash(n, read(store)) == ref.root(n), n


def test_a_hash_not_stored_is_an_error_not_a_guess(tlog_store):
    add(tlog_store, 2)
    beyond = storedhash.stored_hash_count(tlog_store.tlog_size()) + 5
    with pytest.raises(ValueError):
        tlog_store.tlog_read_hashes([0, beyond])


class Counting:
    """The store, counting what the log reads from it."""

    def __init__(self, store):
        self.store, self.leaf_reads, self.leaves_read, self.hash_reads, self.hashes_read = store, 0, 0, 0, 0

    def __getattr__(self, name):
        return getattr(self.store, name)

    def tlog_leaves(self, start, stop):
        self.leaf_reads += 1
        self.leaves_read += max(0, stop - start)
        return self.store.tlog_leaves(start, stop)

    def tlog_read_hashes(self, indexes):
        self.hash_reads += 1
        self.hashes_read += len(indexes)
        return self.store.tlog_read_hashes(indexes)


def test_a_fresh_process_answers_proofs_from_a_few_hashes_reading_no_other_leaf(tlog_store, tmp_path):
    add(tlog_store, 300)
    old = TransLog(tlog_store, KeyRing(str(tmp_path)), Config(data_dir=str(tmp_path)), lambda: 1.8e9)
    head = old.sign_head(tlog_store.tlog_size())
    n = head["size"]
    ref = reference(tlog_store)
    counting = Counting(tlog_store)
    fresh = TransLog(counting, KeyRing(str(tmp_path)), Config(data_dir=str(tmp_path)), lambda: 1.8e9)
    bound = 3 * n.bit_length() + 1  # a proof's subtrees (at most 2 log2 n) and the root's (one per set bit)
    fresh.check_head()  # once a process, before it serves: the head's root and its last leaf, one read of each
    assert counting.leaves_read == 1 and counting.hash_reads == 1 and counting.hashes_read <= bound
    for index in (0, n // 3, n - 1):
        counting.hash_reads = counting.hashes_read = counting.leaves_read = 0
        got = fresh.inclusion(index)
        assert got["root"] == head["root"] == ref.root(n).hex()
        assert got["proof"] == [h.hex() for h in ref.inclusion_proof(index, n)]
        assert counting.leaves_read == 1 and counting.hash_reads == 1 and counting.hashes_read <= bound
    counting.hash_reads = counting.hashes_read = counting.leaves_read = 0
    got = fresh.consistency(n // 2, n)
    assert got["proof"] == [h.hex() for h in ref.consistency_proof(n // 2, n)]
    assert got["first_root"] == ref.root(n // 2).hex()
    assert counting.leaves_read == 0 and counting.hash_reads == 1 and counting.hashes_read <= 2 * bound
    assert fresh.root(n) == ref.root(n)
    assert fresh.subtree_hashes([(0, 5), (3, 1)]) == [ref.hash(5, 6), ref.hash(8, 16)]


def forget_hashes(store) -> None:
    """What a log written before hashes were stored looks like."""
    if hasattr(store, "r"):
        chunks = storedhash.stored_hash_count(store.tlog_size()) // keys.TLOG_HASH_CHUNK + 1
        store.r.delete(keys.tlog_hashed(), *[keys.tlog_hashes(c) for c in range(chunks)])
    else:
        store._conn().execute("DELETE FROM tlog_hash")


def test_a_log_older_than_its_stored_hashes_is_filled_once_then_grows(tlog_store):
    # on the cluster the session's log is shared: it is dropped and filled again, the same hashes
    add(tlog_store, 50)
    size = tlog_store.tlog_size()
    forget_hashes(tlog_store)
    assert tlog_store.tlog_hashed_size() == 0
    assert tlog_store.tlog_fill_hashes(page=16) == size == tlog_store.tlog_hashed_size()
    assert tlog_store.tlog_fill_hashes() == 0
    forget_hashes(tlog_store)
    add(tlog_store, 3)  # the next append (Redis: the sequencer) fills what is missing first
    ref = reference(tlog_store)
    assert tlog_store.tlog_hashed_size() == size + 3 == len(ref)
    for n in range(max(0, size - 60), size + 4):
        assert storedhash.tree_hash(n, read(tlog_store)) == ref.root(n)


def test_a_start_check_compares_the_head_with_the_stored_hashes_and_the_last_leaf(tlog_store, tmp_path):
    add(tlog_store, 5)
    translog = TransLog(tlog_store, KeyRing(str(tmp_path)), Config(data_dir=str(tmp_path)), lambda: 1.8e9)
    head = translog.sign_head(tlog_store.tlog_size())
    assert translog.check_stored() == []
    n = head["size"]
    forged = json.dumps({"type": "commitment", "game_id": "forged"}, separators=(",", ":"))
    if hasattr(tlog_store, "r"):
        original = tlog_store.r.lindex(keys.tlog_leaves(), n - 1)
        tlog_store.r.lset(keys.tlog_leaves(), n - 1, forged)
    else:
        original = tlog_store.tlog_leaves(n - 1, n)[0]
        tlog_store._conn().execute("UPDATE tlog SET leaf=? WHERE idx=?", (forged, n - 1))
    try:
        assert translog.check_stored() == [f"leaf {n - 1} is not the leaf whose hash is stored"]
    finally:  # the cluster's log is the session's
        if hasattr(tlog_store, "r"):
            tlog_store.r.lset(keys.tlog_leaves(), n - 1, original)
        else:
            tlog_store._conn().execute("UPDATE tlog SET leaf=? WHERE idx=?", (original, n - 1))
    assert translog.check_stored() == []
