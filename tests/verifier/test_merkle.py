"""The transparency log's tree (RFC 9162): against the vectors of docs/log.md and against a tree built here from
the RFC's recursive definitions, written independently of fairdeal.core.merkle."""

from __future__ import annotations

import hashlib

import pytest

from fairdeal.core import keys, merkle, tlog
from fairdeal.core.canonical import canonical_json
from tests.verifier.vectors import vectors_of

# ----------------------------------------------------------------- the RFC's definitions, naively, as written


def h(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def mth(d: list[bytes]) -> bytes:
    n = len(d)
    if n == 0:
        return h(b"")
    if n == 1:
        return h(b"\x00" + d[0])
    k = 1
    while k * 2 < n:
        k *= 2
    return h(b"\x01" + mth(d[:k]) + mth(d[k:]))


def path(m: int, d: list[bytes]) -> list[bytes]:
    n = len(d)
    if n == 1:
        return []
    k = 1
    while k * 2 < n:
        k *= 2
    if m < k:
        return path(m, d[:k]) + [mth(d[k:])]
    return path(m - k, d[k:]) + [mth(d[:k])]


def subproof(m: int, d: list[bytes], b: bool) -> list[bytes]:
    n = len(d)
    if m == n:
        return [] if b else [mth(d)]
    k = 1
    while k * 2 < n:
        k *= 2
    if m <= k:
        return subproof(m, d[:k], b) + [mth(d[k:])]
    return subproof(m - k, d[k:], False) + [mth(d[:k])]


DATA = [f"leaf {i}".encode() for i in range(33)]
TREE = merkle.Tree(merkle.leaf_hash(x) for x in DATA)


def test_roots_match_the_recursive_definition():
    for n in range(len(DATA) + 1):
        assert TREE.root(n) == mth(DATA[:n]), n


def test_inclusion_proofs_match_and_verify():
    for n in range(1, len(DATA) + 1):
        root = mth(DATA[:n])
        for i in range(n):
            proof = TREE.inclusion_proof(i, n)
            assert proof == path(i, DATA[:n]), (i, n)
            leaf = merkle.leaf_hash(DATA[i])
            assert merkle.verify_inclusion(leaf, i, n, proof, root)
            assert not merkle.verify_inclusion(merkle.leaf_hash(b"other"), i, n, proof, root)
            if n > 1:
                assert not merkle.verify_inclusion(leaf, (i + 1) % n, n, proof, root)
                assert not merkle.verify_inclusion(leaf, i, n, proof[:-1], root)
                assert not merkle.verify_inclusion(leaf, i, n, proof + [root], root)


def test_consistency_proofs_match_and_verify():
    for n in range(1, len(DATA) + 1):
        second = mth(DATA[:n])
        for m in range(0, n + 1):
            proof = TREE.consistency_proof(m, n)
            assert proof == ([] if m in (0, n) else subproof(m, DATA[:n], True)), (m, n)
            first = mth(DATA[:m])
            assert merkle.verify_consistency(m, n, first, second, proof), (m, n)
            if 0 < m < n:
                assert not merkle.verify_consistency(m, n, mth(DATA[: m - 1] + [b"rewritten"]), second, proof)
                assert not merkle.verify_consistency(m, n, first, mth(DATA[: n - 1] + [b"x"]), proof)
                assert not merkle.verify_consistency(m, n, first, second, proof[:-1])


def test_a_rewritten_leaf_breaks_consistency_with_an_older_head():
    rewritten = merkle.Tree(merkle.leaf_hash(x) for x in DATA[:5] + [b"rewritten"] + DATA[6:])
    old_root = TREE.root(10)
    assert not merkle.verify_consistency(10, 20, old_root, rewritten.root(20), rewritten.consistency_proof(10, 20))


def test_refuses_sizes_it_does_not_have():
    with pytest.raises(ValueError):
        TREE.root(len(DATA) + 1)
    with pytest.raises(ValueError):
        TREE.inclusion_proof(3, 3)
    with pytest.raises(ValueError):
        TREE.consistency_proof(5, 4)
    assert not merkle.verify_consistency(5, 4, b"", b"", [])
    assert merkle.root_from_inclusion(b"x" * 32, 0, 0, []) is None


def _vector_tree(v) -> merkle.Tree:
    return merkle.Tree(merkle.leaf_hash(bytes.fromhex(x)) for x in v["leaves_hex"])


def test_root_vectors():
    (v,) = vectors_of("log.md", "merkle-roots")
    tree = _vector_tree(v)
    assert [x.hex() for x in tree.leaves] == v["leaf_hashes"]
    data = [bytes.fromhex(x) for x in v["leaves_hex"]]
    for n, root in enumerate(v["roots"]):
        assert tree.root(n).hex() == root == mth(data[:n]).hex()


def test_inclusion_vectors():
    (v,) = vectors_of("log.md", "merkle-inclusion")
    tree = _vector_tree(v)
    for p in v["proofs"]:
        assert tlog.proof_hex(tree.inclusion_proof(p["index"], p["size"])) == p["proof"]
        assert merkle.verify_inclusion(
            tree.leaves[p["index"]], p["index"], p["size"], tlog.proof_bytes(p["proof"]), tree.root(p["size"])
        )


def test_consistency_vectors():
    (v,) = vectors_of("log.md", "merkle-consistency")
    tree = _vector_tree(v)
    for p in v["proofs"]:
        assert tlog.proof_hex(tree.consistency_proof(p["first"], p["second"])) == p["proof"]
        assert merkle.verify_consistency(
            p["first"], p["second"], tree.root(p["first"]), tree.root(p["second"]), tlog.proof_bytes(p["proof"])
        )


def test_leaf_vectors_are_the_transcript_vectors_leaves():
    (t,) = [v["transcript"] for v in vectors_of("transcript.md", "transcript") if v["protocol"] == "fairdeal/2"][:1]
    leaves = vectors_of("log.md", "log-leaf")
    assert [v["leaf"] for v in leaves] == [tlog.commitment_leaf(t["commit"]), tlog.ending_leaf(t)]
    for v in leaves:
        assert canonical_json(v["leaf"]).decode() == v["canonical"]
        assert h(b"\x00" + v["canonical"].encode()).hex() == v["leaf_hash"] == tlog.leaf_hash_of(v["leaf"]).hex()
        assert tlog.check_leaf(v["leaf"]) == v["leaf"]


def test_head_vector():
    (v,) = vectors_of("log.md", "tree-head")
    priv = keys.private_key_from_hex(v["private_key_hex"])
    tree = merkle.Tree(tlog.leaf_hash_of(leaf) for leaf in v["leaves"])
    head = tlog.make_head(len(tree), tree.root(), v["head"]["time"], keys.public_key_text(priv))
    assert canonical_json(head).decode() == v["signed"]
    assert tlog.sign_head(priv, head) == v["head"]
    assert tlog.check_head(v["head"], key=v["head"]["key"]) == v["head"]
    for change in ({"size": 3}, {"root": "0" * 64}, {"time": "2026-11-29T17:30:02Z"}):
        with pytest.raises(tlog.LogError):
            tlog.check_head(dict(v["head"], **change))
    with pytest.raises(tlog.LogError):
        tlog.check_head(v["head"], key="ed25519:" + "A" * 43)


def test_leaf_forms_are_strict():
    (v, _) = vectors_of("log.md", "log-leaf")
    for bad in (
        dict(v["leaf"], extra=1),
        dict(v["leaf"], commit="XX"),
        {**v["leaf"], "type": "other"},
        {k: x for k, x in v["leaf"].items() if k != "time"},
    ):
        with pytest.raises(tlog.LogError):
            tlog.check_leaf(bad)


def test_the_transcript_vector_with_its_log_member_verifies_offline():
    from fairdeal.core.checks import verify_transcript

    (v,) = vectors_of("log.md", "transcript-log")
    t = [x for x in vectors_of("transcript.md", "transcript") if x["protocol"] == "fairdeal/2"][0]
    with_log = dict(t["transcript"], log=v["log"])
    assert tlog.check_log_member(with_log, key=t["public_key_text"]) == {"commitment": 0, "ending": 1}
    report = verify_transcript(with_log, key=t["public_key_text"])
    assert {c.id: c.status for c in report.checks}["log-inclusion"] == "pass"
    assert report.exit_code == 0
    without = verify_transcript(t["transcript"], key=t["public_key_text"])
    assert {c.id: c.status for c in without.checks}["log-inclusion"] == "skip" and without.exit_code == 0
    # a head signed by a key the user did not pin proves nothing about the pinned service
    pinned = verify_transcript(with_log, pins={"other": "ed25519:" + "A" * 43})
    assert {c.id: c.code for c in pinned.checks}["log-inclusion"] == "log-head-untrusted"
    swapped = dict(with_log, log=dict(v["log"], commitment=v["log"]["ending"], ending=v["log"]["commitment"]))
    assert [c.id for c in verify_transcript(swapped, key=t["public_key_text"]).failed] == ["log-inclusion"]


def test_the_reveal_phase_ending_leaf_vector_has_both_forms():
    (t,) = [
        v["transcript"]
        for v in vectors_of("transcript.md", "transcript")
        if v["protocol"] == "fairdeal/2" and "reveals" in v["transcript"]["end"]
    ]
    (v,) = vectors_of("log.md", "log-leaf-forms")
    assert [f["leaf"] for f in v["forms"]] == tlog.ending_leaf_forms(t)
    assert v["forms"][0]["leaf"]["unrevealed"] == [{"seat": 2, "name": "bob"}]
    for f in v["forms"]:
        assert canonical_json(f["leaf"]).decode() == f["canonical"]
        assert h(b"\x00" + f["canonical"].encode()).hex() == f["leaf_hash"] == tlog.leaf_hash_of(f["leaf"]).hex()
        assert tlog.check_leaf(f["leaf"]) == f["leaf"]
