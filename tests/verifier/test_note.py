"""Signed notes, checkpoints and cosignatures (C2SP signed-note, tlog-checkpoint, tlog-cosignature): the vectors
of docs/log.md and the signed-note specification's own example, the strict reading of a note, and a transcript's
`log` member carrying a checkpoint, with and without the witnesses a verifier asks for."""

from __future__ import annotations

import struct

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from fairdeal.core import checkpoint, keys, merkle, note, tlog
from fairdeal.core.checks import verify_transcript
from tests.verifier.vectors import vectors_of

SPEC_VKEY = "example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k"
SPEC_NOTE = (
    "This is an example message.\n\n\u2014 example.com/foo "
    "Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n"
)


def _private(hex_text: str) -> Ed25519PrivateKey:
    return Ed25519PrivateKey.from_private_bytes(bytes.fromhex(hex_text))


def test_the_signed_note_specs_example_verifies_and_a_changed_text_does_not():
    v = note.parse_vkey(SPEC_VKEY)
    text, sigs = note.parse(SPEC_NOTE)
    assert text == "This is an example message.\n"
    assert [(w.vkey, stamp) for w, stamp in note.known_signatures(text, sigs, [v])] == [(SPEC_VKEY, 0)]
    with pytest.raises(note.NoteError, match="does not verify"):
        note.known_signatures("This is an example message!\n", sigs, [v])
    # a key of another name, or another id, is not the signer: its line is ignored, not failed
    other = note.Verifier("example.com/bar", note.ED25519, v.public)
    assert note.known_signatures(text, sigs, [other]) == []


def test_the_checkpoint_vector():
    (v,) = vectors_of("log.md", "checkpoint")
    (head,) = vectors_of("log.md", "tree-head")
    priv = _private(v["private_key_hex"])
    assert keys.public_key_text(priv) == v["key"] == head["head"]["key"]
    assert v["root"] == head["head"]["root"] and v["size"] == head["head"]["size"]
    root = bytes.fromhex(v["root"])
    assert checkpoint.text_of(v["origin"], v["size"], root) == v["text"]
    assert checkpoint.sign(v["origin"], v["size"], root, priv) == v["note"]
    assert checkpoint.vkey(v["origin"], v["key"]) == v["vkey"] and v["vkey"].split("+")[1] == v["key_id"]
    assert note.parse_vkey(v["vkey"]).key_id.hex() == v["key_id"]
    cp = checkpoint.open_checkpoint(v["note"].encode("utf-8"), [v["key"]])
    assert (cp.origin, cp.size, cp.root, cp.key) == (v["origin"], v["size"], root, v["key"])
    with pytest.raises(note.NoteError, match="no signature by a key trusted"):
        checkpoint.open_checkpoint(v["note"], [keys.public_key_text(keys.generate_private_key())])


def test_the_cosignature_vector():
    (cv,) = vectors_of("log.md", "cosignature")
    (v,) = vectors_of("log.md", "checkpoint")
    wpriv = _private(cv["private_key_hex"])
    assert note.cosigned_message(v["text"], cv["timestamp"]).decode() == cv["message"]
    assert note.cosign(v["text"], cv["name"], wpriv, cv["timestamp"]).line() == cv["line"]
    assert v["note"] + cv["line"] == cv["cosigned"]
    w = note.parse_vkey(cv["vkey"])
    assert w == note.Verifier(cv["name"], note.COSIGNATURE_V1, note.raw_public(wpriv))
    cp = checkpoint.open_checkpoint(cv["cosigned"], [v["key"]], [w])
    assert [(c.vkey, stamp) for c, stamp in cp.cosigners] == [(cv["vkey"], cv["timestamp"])]
    # the timestamp is signed: moved by a second, the cosignature fails
    text, sigs = note.parse(cv["cosigned"])
    moved = note.Signature(sigs[1].name, sigs[1].key_id, struct.pack(">Q", cv["timestamp"] + 1) + sigs[1].data[8:])
    with pytest.raises(note.NoteError, match="does not verify"):
        note.known_signatures(text, [sigs[0], moved], [w])
    # a cosignature key is not a log key, and the log's key is no witness: the same bytes under another type fail
    assert checkpoint.open_checkpoint(v["note"], [v["key"]], [w]).cosigners == []


@pytest.mark.parametrize(
    "bad",
    [
        "no blank line\n\u2014 a/b AAAA\n",  # no separating blank line
        "text\n\n",  # no signature line
        "text\n\n\u2014 a/b QUFBQUFB\nmore",  # not ending in a newline
        "te\x01xt\n\n\u2014 a/b QUFBQUFB\n",  # a control character
        "text\n\n- a/b QUFBQUFB\n",  # a hyphen for the em dash
        "text\n\n\u2014 a+b QUFBQUFB\n",  # '+' in a key name
        "text\n\n\u2014 a/b QUFBQUF\n",  # base64 not padded
        "text\n\n\u2014 a/b QUFBQQ==\n",  # 4 bytes: no room for a signature
        "text\n\n\u2014 a/b QUFBQUFB \n",  # a trailing space
    ],
)
def test_a_malformed_note_is_refused(bad):
    with pytest.raises(note.NoteError):
        note.parse(bad)


@pytest.mark.parametrize(
    "text",
    [
        "o/x\n02\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n",  # leading zero
        "o/x\n-1\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n",
        "o/x\n2\nAAAA\n",  # not 32 bytes
        "o/x\n2\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\next\n",  # an extension
        "o x\n2\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n",  # a space
        "o/x\n2\n",
    ],
)
def test_a_malformed_checkpoint_text_is_refused(text):
    with pytest.raises(note.NoteError):
        checkpoint.parse_text(text)


def test_vkeys_and_skeys_are_checked_and_round_trip():
    priv = keys.generate_private_key()
    skey = note.format_skey("w.example/1", note.COSIGNATURE_V1, priv)
    name, kind, back = note.parse_skey(skey)
    assert (name, kind, note.raw_public(back)) == ("w.example/1", note.COSIGNATURE_V1, note.raw_public(priv))
    v = note.Verifier("w.example/1", note.COSIGNATURE_V1, note.raw_public(priv))
    assert note.parse_vkey(v.vkey) == v
    name, kid, key = v.vkey.split("+", 2)
    with pytest.raises(note.NoteError, match="key id"):
        note.parse_vkey(f"other.example/1+{kid}+{key}")
    with pytest.raises(note.NoteError, match="type"):
        note.parse_vkey(v.vkey, kinds=(note.ED25519,))


# ------------------------------------------------------------------------------------------------ transcripts


def _transcript_with(log_extra: dict, drop_head: bool = False) -> tuple[dict, str]:
    (v,) = vectors_of("log.md", "transcript-log")
    t = [x for x in vectors_of("transcript.md", "transcript") if x["protocol"] == "fairdeal/2"][0]
    log = dict(v["log"], **log_extra)
    if drop_head:
        del log["head"]
    return dict(t["transcript"], log=log), t["public_key_text"]


def _log_check(report):
    return {c.id: c for c in report.checks}["log-inclusion"]


def test_a_log_member_with_a_checkpoint_verifies_and_one_of_another_tree_does_not():
    (cv,) = vectors_of("log.md", "cosignature")
    t, key = _transcript_with({"checkpoint": cv["cosigned"]})
    assert tlog.check_log_member(t) == {"commitment": 0, "ending": 1}
    assert _log_check(verify_transcript(t, key=key)).status == "pass"
    # the checkpoint alone (no JSON head) is checked against the key given
    alone, _ = _transcript_with({"checkpoint": cv["cosigned"]}, drop_head=True)
    assert _log_check(verify_transcript(alone, key=key)).status == "pass"
    # ... and its key must count like a head's (logtrust): a checkpoint by a key not given proves nothing
    elsewhere = keys.public_key_text(keys.generate_private_key())
    assert _log_check(verify_transcript(alone, key=elsewhere)).code == "log-head-untrusted"
    assert _log_check(verify_transcript(t, key=elsewhere)).code == "log-head-untrusted"
    # a checkpoint of another root under the same key does not go with this head
    (v,) = vectors_of("log.md", "checkpoint")
    other = checkpoint.sign(v["origin"], 2, merkle.EMPTY_ROOT, _private(v["private_key_hex"]))
    forked, _ = _transcript_with({"checkpoint": other})
    check = _log_check(verify_transcript(forked, key=key))
    assert check.status == "fail" and "sign different trees" in check.fields["reason"]
    # a checkpoint signed by a stranger under the log's origin is no checkpoint of this log
    stranger = checkpoint.sign(v["origin"], 2, bytes.fromhex(v["root"]), keys.generate_private_key())
    foreign, _ = _transcript_with({"checkpoint": stranger})
    assert _log_check(verify_transcript(foreign, key=key)).code == "log-not-included"


def test_the_verifier_requires_the_cosignatures_it_is_asked_for():
    (cv,) = vectors_of("log.md", "cosignature")
    (v,) = vectors_of("log.md", "checkpoint")
    w2 = note.Verifier("w.example/2", note.COSIGNATURE_V1, note.raw_public(keys.generate_private_key()))
    cosigned, key = _transcript_with({"checkpoint": cv["cosigned"]})
    bare, _ = _transcript_with({"checkpoint": v["note"]})
    old, _ = _transcript_with({})  # a log member from before checkpoints
    one = checkpoint.CosignerPolicy.of([cv["vkey"]])
    both = checkpoint.CosignerPolicy.of([cv["vkey"], w2.vkey])
    either = checkpoint.CosignerPolicy.of([cv["vkey"], w2.vkey], 1)
    passed = _log_check(verify_transcript(cosigned, key=key, cosigners=one))
    assert passed.status == "pass" and passed.code == "log-included-cosigned"
    assert passed.fields["cosigners"] == "witness.example/w1"
    assert _log_check(verify_transcript(cosigned, key=key, cosigners=either)).status == "pass"
    for t, policy in ((cosigned, both), (bare, one), (old, one)):
        check = _log_check(verify_transcript(t, key=key, cosigners=policy))
        assert check.status == "fail" and check.code == "log-not-cosigned", (check.code, check.fields)
    # without a policy the old member and the bare checkpoint still pass
    assert _log_check(verify_transcript(old, key=key)).status == "pass"
    assert _log_check(verify_transcript(bare, key=key)).status == "pass"
    with pytest.raises(note.NoteError):
        checkpoint.CosignerPolicy.of([cv["vkey"]], 2)


def test_verify_and_audit_take_cosigners_on_the_command_line(tmp_path, capsys):
    import json

    from tests.verifier.cli_run import run

    (cv,) = vectors_of("log.md", "cosignature")
    t, key = _transcript_with({"checkpoint": cv["cosigned"]})
    path = tmp_path / "game.json"
    path.write_text(json.dumps(t))
    other = note.Verifier("w.example/2", note.COSIGNATURE_V1, note.raw_public(keys.generate_private_key())).vkey
    code, out, _ = run(["verify", str(path), "--key", key, "--cosigner", cv["vkey"]], capsys)
    assert code == 0 and "cosigned by witness.example/w1" in out
    code, out, _ = run(["verify", str(path), "--key", key, "--cosigner", cv["vkey"], "--cosigner", other], capsys)
    assert code == 1 and "log-inclusion" in out and "2 are required" in out
    code, _, _ = run(
        ["verify", str(path), "--key", key, "--cosigner", cv["vkey"], "--cosigner", other, "--cosignatures", "1"],
        capsys,
    )
    assert code == 0
    code, _, err = run(["verify", str(path), "--key", key, "--cosigner", cv["vkey"], "--cosignatures", "2"], capsys)
    assert code == 2 and "--cosignatures" in err
    code, _, err = run(["verify", str(path), "--key", key, "--cosigner", "not-a-vkey"], capsys)
    assert code == 2 and "verifier key" in err
    code, _, _ = run(["audit", str(tmp_path), "--key", key, "--jobs", "1", "--cosigner", cv["vkey"]], capsys)
    assert code == 0
    code, out, _ = run(["audit", str(tmp_path), "--key", key, "--jobs", "1", "--cosigner", other], capsys)
    assert code == 1 and "log-inclusion" in out
