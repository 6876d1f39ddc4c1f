"""A witness (c2sp.org/tlog-witness, add-checkpoint; c2sp.org/tlog-cosignature, cosignature/v1): it cosigns a
checkpoint only when it is consistent with the last one it cosigned for the same log, which it keeps.

`add_checkpoint` is the protocol's request handler, whole: the request body is

  old <size>\\n                  the size of the checkpoint the submitter believes the witness cosigned last
  <base64 hash>\\n ...           the consistency proof from that size to the new one (RFC 9162 2.1.4)
  \\n
  <checkpoint>                  the new checkpoint, signed by the log

and the answer (status, body, content type) is the protocol's: 200 with the cosignature line, 404 an unknown
origin, 403 no valid signature by the log's key, 400 a malformed request or old size above the new one, 409 the
old size is not the witness's (body: its size), 422 a proof or root that does not hold.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from fairdeal.core import checkpoint, merkle, note

MAX_PROOF = 63
SIZE_TYPE = "text/x.tlog.size"
TEXT_TYPE = "text/plain; charset=utf-8"


class Witness:
    def __init__(
        self,
        name: str,
        private: Ed25519PrivateKey,
        log_keys: Mapping[str, Iterable[str]],
        state: dict[str, Any] | None = None,
    ):
        """`log_keys`: origin -> the service keys ("ed25519:...") trusted to sign that log's checkpoints.
        `state`: origin -> {"size", "root" (base64), "checkpoint"}: the latest checkpoint cosigned."""
        self.name, self.private = note.check_name(name), private
        self.log_keys = {o: list(k) for o, k in log_keys.items()}
        self.state = state if state is not None else {}

    @property
    def verifier(self) -> note.Verifier:
        return note.Verifier(self.name, note.COSIGNATURE_V1, note.raw_public(self.private))

    def add_checkpoint(self, body: bytes | str, now: int) -> tuple[int, str, str]:
        try:
            text = body.decode("utf-8") if isinstance(body, (bytes, bytearray)) else body
            head, sep, submitted = text.partition("\n\n")
            lines = head.split("\n")
            if not sep or not lines[0].startswith("old "):
                raise note.NoteError("the request is 'old <size>', the proof lines, a blank line, the checkpoint")
            old_text = lines[0][4:]
            if not old_text.isdigit() or str(int(old_text)) != old_text:
                raise note.NoteError(f"the old size is a decimal number with no leading zeros, not {old_text[:20]!r}")
            old = int(old_text)
            if len(lines) - 1 > MAX_PROOF:
                raise note.NoteError(f"a consistency proof has at most {MAX_PROOF} hashes")
            proof = [note.b64_decode(p) for p in lines[1:]]
            if any(len(p) != 32 for p in proof):
                raise note.NoteError("each proof line is a 32-byte hash in base64")
            cp_text, _ = note.parse(submitted)
            cp = checkpoint.parse_text(cp_text)
        except (note.NoteError, UnicodeDecodeError) as exc:
            return 400, f"{exc}\n", TEXT_TYPE
        if cp.origin not in self.log_keys:
            return 404, f"unknown log {cp.origin}\n", TEXT_TYPE
        try:
            signer = checkpoint.open_checkpoint(submitted, self.log_keys[cp.origin]).key
        except note.NoteError as exc:
            return 403, f"{exc}\n", TEXT_TYPE
        if old > cp.size:
            return 400, f"the old size {old} is above the checkpoint's {cp.size}\n", TEXT_TYPE
        last = self.state.get(cp.origin, {})
        have = last["size"] if last else 0
        if old != have:
            return 409, f"{have}\n", SIZE_TYPE
        if cp.size == 0 and cp.root != merkle.EMPTY_ROOT:
            return 422, "a tree of size 0 has the empty tree's root\n", TEXT_TYPE
        if old == 0:
            if proof:
                return 422, "no consistency proof is sent from the empty tree\n", TEXT_TYPE
        elif not merkle.verify_consistency(old, cp.size, note.b64_decode(last["root"]), cp.root, proof):
            what = "a different root for the same size" if old == cp.size else "a proof that does not hold"
            return 422, f"inconsistent with the checkpoint of size {old} cosigned before: {what}\n", TEXT_TYPE
        line = note.cosign(cp_text, self.name, self.private, now).line()
        self.state[cp.origin] = {"size": cp.size, "root": note.b64(cp.root), "checkpoint": submitted, "key": signer}
        return 200, line, TEXT_TYPE


def for_log_key(name: str, private: Ed25519PrivateKey, state: dict[str, Any], log_key: str, origin: str) -> Witness:
    """The witness of the log whose checkpoints `log_key` signs. The origin it knows that log by is the one in
    its state for that key (a service cannot get a fork cosigned by naming it another log); the checkpoint's
    own `origin` only for a key it never witnessed."""
    bound = sorted(o for o, e in state.items() if e.get("key") == log_key)
    return Witness(name, private, {o: [log_key] for o in bound or [origin]}, state)


def request_body(old: int, proof: Iterable[bytes], checkpoint_note: str) -> str:
    return f"old {old}\n" + "".join(note.b64(h) + "\n" for h in proof) + "\n" + checkpoint_note


# ------------------------------------------------------------------------------------------------ files


def load_key(path: str) -> tuple[str, Ed25519PrivateKey]:
    """A witness's signer key file: one line PRIVATE+KEY+<name>+<id>+<base64(0x04 || seed)>."""
    try:
        name, kind, private = note.parse_skey(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise note.NoteError(f"cannot read the witness key {path}: {exc.strerror}") from None
    if kind != note.COSIGNATURE_V1:
        raise note.NoteError(f"the witness key {path} is not a cosignature key (type 0x04)")
    return name, private


def new_key(name: str) -> tuple[str, str]:
    """(signer key, verifier key) of a new witness named `name`."""
    private = Ed25519PrivateKey.generate()
    return (
        note.format_skey(name, note.COSIGNATURE_V1, private),
        note.Verifier(name, note.COSIGNATURE_V1, note.raw_public(private)).vkey,
    )


def load_state(path: str) -> dict[str, Any]:
    p = Path(path)
    if not p.exists():
        return {}
    data = json.loads(p.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not all(
        isinstance(v, dict) and type(v.get("size")) is int and isinstance(v.get("root"), str) for v in data.values()
    ):
        raise note.NoteError(f'{path} is not a witness\'s state {{origin: {{"size", "root", ...}}}}')
    return data


def save_state(path: str, state: Mapping[str, Any]) -> None:
    """Written whole and renamed: the witness never forgets a checkpoint half way (it would then cosign a fork)."""
    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=".witness-", dir=str(target.parent.resolve()))
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(state, fh, indent=1, sort_keys=True)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, target)
