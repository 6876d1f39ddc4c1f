"""The tree as stored hashes (fairdeal.core.storedhash) and as a compact range (compact.py): against the
vectors of docs/log.md and against the reference tree (fairdeal.core.merkle) at every size, proofs included."""

from __future__ import annotations

import random

import pytest

from fairdeal.core import merkle, storedhash
from fairdeal.core.compact import CompactRange
from tests.verifier.vectors import vectors_of

N = 130


def stored_log(leaf_hashes: list[bytes]) -> list[bytes]:
    store: list[bytes] = []
    for n, h in enumerate(leaf_hashes):
        assert len(store) == storedhash.stored_hash_count(n)
        store += storedhash.hashes_for_append(n, h, lambda ix, store=store: [store[i] for i in ix])
    return store


LEAVES = [merkle.leaf_hash(b"leaf %d" % i) for i in range(N)]
STORE = stored_log(LEAVES)
TREE = merkle.Tree(LEAVES)


def read(indexes):
    return [STORE[i] for i in indexes]


def test_the_stored_hashes_vector():
    (v,) = vectors_of("log.md", "stored-hashes")
    leaves = [merkle.leaf_hash(bytes.fromhex(x)) for x in v["leaves_hex"]]
    store, tree = stored_log(leaves), merkle.Tree(leaves)
    assert [h.hex() for h in store] == [e["hash"] for e in v["stored"]]
    for e in v["stored"]:
        assert storedhash.stored_hash_index(e["level"], e["n"]) == e["index"]
        assert storedhash.split_stored_hash_index(e["index"]) == (e["level"], e["n"])
        lo = e["n"] << e["level"]
        assert tree.hash(lo, lo + (1 << e["level"])).hex() == e["hash"]
    assert {str(n): storedhash.stored_hash_count(n) for n in range(9)} == v["count"]
    for c in v["compact_ranges"]:
        rng = CompactRange()
        rng.extend(leaves[: c["size"]])
        assert rng.to_json() == c
        assert [store[i].hex() for i in storedhash.subtree_indexes(0, c["size"])] == c["hashes"]
        assert CompactRange.from_json(c).root() == tree.root(c["size"])


def test_every_stored_hash_is_its_subtrees_hash_and_the_index_inverts():
    for at, h in enumerate(STORE):
        level, k = storedhash.split_stored_hash_index(at)
        assert storedhash.stored_hash_index(level, k) == at
        assert h == TREE.hash(k << level, (k + 1) << level)


def test_roots_and_proofs_equal_the_reference_at_every_size():
    for n in range(N + 1):
        assert storedhash.tree_hash(n, read) == TREE.root(n)
        assert storedhash.leaves_of_count(storedhash.stored_hash_count(n)) == n
        for m in range(n + 1):
            assert storedhash.consistency_proof(m, n, read) == TREE.consistency_proof(m, n), (m, n)
        for i in range(n):
            assert storedhash.inclusion_proof(i, n, read) == TREE.inclusion_proof(i, n), (i, n)


def test_a_proof_reads_its_hashes_at_once_and_few_of_them():
    rng = random.Random(5)
    big = 10**9  # no tree that large is built: only the indexes a proof of it would read
    for _ in range(200):
        n = rng.randint(1, big)
        i, m = rng.randrange(n), rng.randint(0, n)
        assert len(storedhash.inclusion_indexes(i, n)) <= 2 * n.bit_length()
        assert len(storedhash.consistency_indexes(m, n)) <= 3 * n.bit_length()
    calls = []

    def counted(indexes):
        calls.append(len(indexes))
        return read(indexes)

    storedhash.inclusion_proof(77, N, counted)
    storedhash.consistency_proof(33, N, counted)
    storedhash.tree_hash(N, counted)
    assert len(calls) == 3


def test_a_run_of_appends_reads_the_right_edge_once_and_keeps_only_it():
    for start in (0, 1, 6, 64, 77):
        calls = []

        def counted(indexes, calls=calls):
            calls.append(list(indexes))
            return read(indexes)

        appender = storedhash.Appender(start, counted)
        for h in LEAVES[start:]:
            appender.append(h)
            assert len(appender._edge) == bin(appender.n).count("1")
        assert appender.hashes == STORE[storedhash.stored_hash_count(start) :]
        assert len(calls) <= 1


def test_a_compact_range_grown_in_pieces_is_the_reference_tree():
    rng, cut = CompactRange(), 0
    pieces = random.Random(2)
    while cut < N:
        step = pieces.randint(1, 17)
        rng.extend(LEAVES[cut : cut + step])
        cut = min(N, cut + step)
        assert rng.size == cut and rng.root() == TREE.root(cut)
        assert CompactRange.from_json(rng.to_json()) == rng
    assert CompactRange().root() == merkle.EMPTY_ROOT


@pytest.mark.parametrize(
    "bad",
    [
        {"size": 3, "hashes": ["00" * 32]},
        {"size": 1, "hashes": ["zz"]},
        {"size": -1, "hashes": []},
        {"hashes": []},
        [],
        {"size": 1, "hashes": ["00"]},
    ],
)
def test_a_malformed_compact_range_is_refused(bad):
    with pytest.raises(ValueError):
        CompactRange.from_json(bad)


def test_a_hash_the_store_lacks_is_an_error():
    with pytest.raises(ValueError):
        storedhash.tree_hash(N, lambda ix: read(ix)[:-1])
    with pytest.raises(ValueError):
        storedhash.inclusion_proof(N, N, read)
