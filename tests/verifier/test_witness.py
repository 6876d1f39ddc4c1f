"""The witness (C2SP tlog-witness add-checkpoint, tlog-cosignature): it cosigns only a checkpoint consistent with
the last one it cosigned, and answers every other request with the status the specification names."""

from __future__ import annotations

import pytest

from fairdeal.core import checkpoint, keys, merkle, note, witness

ORIGIN = "log.example/fairdeal-log"
NOW = 1_800_000_000


@pytest.fixture
def log():
    """A log key and a tree of 20 leaves; `cp(n)` its checkpoint at size n (or of a given root)."""
    priv = keys.generate_private_key()
    tree = merkle.Tree(merkle.leaf_hash(bytes([i])) for i in range(20))

    class Log:
        key = keys.public_key_text(priv)
        t = tree

        @staticmethod
        def cp(n: int, root: bytes | None = None, signer=priv, origin: str = ORIGIN) -> str:
            return checkpoint.sign(origin, n, tree.root(n) if root is None else root, signer)

    return Log


@pytest.fixture
def w(log):
    return witness.Witness("witness.example/w", keys.generate_private_key(), {ORIGIN: [log.key]})


def _add(w, old: int, proof, cp: str):
    return w.add_checkpoint(witness.request_body(old, proof, cp).encode(), NOW)


def test_it_cosigns_a_first_checkpoint_then_only_consistent_growth(log, w):
    status, body, _ = _add(w, 0, [], log.cp(5))
    assert status == 200
    cp = checkpoint.open_checkpoint(log.cp(5) + body, [log.key], [w.verifier])
    assert [(v.name, stamp) for v, stamp in cp.cosigners] == [("witness.example/w", NOW)]
    assert w.state[ORIGIN]["size"] == 5
    status, body, _ = _add(w, 5, log.t.consistency_proof(5, 13), log.cp(13))
    assert status == 200 and w.state[ORIGIN]["size"] == 13
    status, _, _ = _add(w, 13, [], log.cp(13))  # the same checkpoint again: cosigned again
    assert status == 200


def test_it_refuses_what_the_spec_says_with_its_status(log, w):
    assert _add(w, 0, [], log.cp(8))[0] == 200
    proof = log.t.consistency_proof(8, 12)
    forked = merkle.Tree(merkle.leaf_hash(bytes([i + 100])) for i in range(12))
    stranger = keys.generate_private_key()
    cases = [
        (_add(w, 4, log.t.consistency_proof(4, 12), log.cp(12)), 409),  # not the size it cosigned
        (_add(w, 0, [], log.cp(12)), 409),  # pretending it never cosigned
        (_add(w, 13, [], log.cp(12)), 400),  # old size above the new one
        (_add(w, 8, proof[:-1], log.cp(12)), 422),  # a proof that does not hold
        (_add(w, 8, forked.consistency_proof(8, 12), log.cp(12, forked.root(12))), 422),  # a fork
        (_add(w, 8, [], log.cp(8, merkle.EMPTY_ROOT)), 422),  # the same size, another root
        (_add(w, 8, proof, log.cp(12, signer=stranger)), 403),  # not signed by the log's key
        (_add(w, 8, proof, log.cp(12, origin="other.example/log")), 404),  # a log it does not witness
        (w.add_checkpoint(b"old 8\n\nnot a checkpoint\n", NOW), 400),
        (w.add_checkpoint(b"old 08\n\n" + log.cp(12).encode(), NOW), 400),
    ]
    for (status, body, ctype), expected in cases:
        assert status == expected, (status, body)
        if status == 409:
            assert (body, ctype) == ("8\n", "text/x.tlog.size")
    assert w.state[ORIGIN]["size"] == 8  # nothing refused moved the witness


def test_the_empty_tree_and_a_proof_from_it(log):
    w = witness.Witness("witness.example/w", keys.generate_private_key(), {ORIGIN: [log.key]})
    assert _add(w, 0, [], log.cp(0, merkle.leaf_hash(b"x")))[0] == 422  # size 0 has the empty tree's root
    assert _add(w, 0, [merkle.EMPTY_ROOT], log.cp(3))[0] == 422  # no proof is sent from size 0
    assert _add(w, 0, [], log.cp(0))[0] == 200


def test_a_bad_signature_by_the_logs_key_is_refused(log, w):
    text, sigs = note.parse(log.cp(6))
    broken = note.assemble(text, [note.Signature(sigs[0].name, sigs[0].key_id, bytes(64))])
    assert _add(w, 0, [], broken)[0] == 403


def test_keys_and_state_files(tmp_path, log, w):
    skey, vkey = witness.new_key("witness.example/w9")
    (tmp_path / "k").write_text(skey + "\n")
    name, priv = witness.load_key(str(tmp_path / "k"))
    assert note.Verifier(name, note.COSIGNATURE_V1, note.raw_public(priv)).vkey == vkey
    assert _add(w, 0, [], log.cp(7))[0] == 200
    witness.save_state(str(tmp_path / "s.json"), w.state)
    assert witness.load_state(str(tmp_path / "s.json")) == w.state
    assert witness.load_state(str(tmp_path / "none.json")) == {}
    (tmp_path / "bad.json").write_text('{"o": {"size": "7"}}')
    with pytest.raises(note.NoteError):
        witness.load_state(str(tmp_path / "bad.json"))


def test_a_log_key_it_witnesses_cannot_start_a_second_log_under_another_origin(log):
    """A service that shows a rolled-back log under a new origin, signed by the same key, is not cosigned: the
    witness knows the key's log by the origin it first cosigned."""
    priv = keys.generate_private_key()
    state: dict = {}
    first = witness.for_log_key("witness.example/w", priv, state, log.key, ORIGIN)
    assert _add(first, 0, [], log.cp(9))[0] == 200 and state[ORIGIN]["key"] == log.key
    renamed = witness.for_log_key("witness.example/w", priv, state, log.key, "fresh.example/log")
    status, body, _ = _add(renamed, 0, [], log.cp(4, origin="fresh.example/log"))
    assert status == 404 and "fresh.example/log" in body and set(state) == {ORIGIN}
    again = witness.for_log_key("witness.example/w", priv, state, log.key, ORIGIN)
    assert _add(again, 9, log.t.consistency_proof(9, 15), log.cp(15))[0] == 200
