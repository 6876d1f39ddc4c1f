"""The log's checkpoints (c2sp.org/tlog-checkpoint) and the witnesses' cosignatures of them (tlog-cosignature),
docs/log.md "Checkpoints" and "Witnesses".

A checkpoint is the signed tree head in the ecosystem's form: the note text "<origin>\\n<size>\\n<base64 root>\\n"
signed by the key that signed the head, under the key name <origin>. Ed25519 is deterministic, so the checkpoint
of a stored head is a function of the head and needs no storage of its own; witnesses' cosignatures are stored
(the store's tlog_put_cosignature) and attached to the checkpoint of the size and root they cosigned.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from fairdeal.core import checkpoint, note
from fairdeal.service.errors import ApiError

FUTURE_SLACK = 300  # seconds a cosignature's timestamp may be ahead of this clock (witnesses' clocks differ)


def witness_id(v: note.Verifier) -> str:
    return f"{v.name} {v.key_id.hex()}"


class Checkpoints:
    def __init__(self, translog):
        self.translog = translog
        self.origin = translog.config.log_origin
        self.witnesses = [note.parse_vkey(v, kinds=(note.COSIGNATURE_V1,)) for v in translog.config.log_witnesses or ()]
        self._signed = lru_cache(maxsize=64)(self._sign)

    def _sign(self, size: int, root_hex: str, key: str) -> str:
        """The log's signature line of the checkpoint of (size, root), by the service key `key`."""
        text = checkpoint.text_of(self.origin, size, bytes.fromhex(root_hex))
        return note.sign(text, self.origin, self.translog.keyring.private_for(key)).line()

    def note_for(self, head: dict) -> str:
        """The checkpoint of a signed tree head, with the configured witnesses' cosignatures of that very tree."""
        text = checkpoint.text_of(self.origin, head["size"], bytes.fromhex(head["root"]))
        lines = [self._signed(head["size"], head["root"], head["key"])]
        known = {witness_id(w) for w in self.witnesses}
        held = self.translog.store.tlog_cosignatures() if known else {}  # no witness: no read
        for wid, c in sorted(held.items()):
            if wid in known and c.get("size") == head["size"] and c.get("root") == head["root"]:
                lines.append(c["line"])
        return text + "\n" + "".join(lines)

    def latest(self) -> str:
        return self.note_for(self.translog.latest_head())

    def add_cosignatures(self, body: bytes) -> dict[str, Any]:
        """Take a checkpoint of this log cosigned by configured witnesses: each known witness's cosignature is
        checked and stored (docs/log.md, "Witnesses"). What was stored."""
        try:
            text, sigs = note.parse(body)
            cp = checkpoint.parse_text(text)
        except note.NoteError as exc:
            raise ApiError(400, "bad-checkpoint", f"The body is not a checkpoint note: {exc}.") from None
        if cp.origin != self.origin:
            raise ApiError(404, "unknown-origin", f"This log is {self.origin!r}, not {cp.origin[:80]!r}.")
        head = self.translog.latest_head()
        if cp.size > head["size"]:
            raise ApiError(
                422,
                "checkpoint-not-signed",
                f"The log has signed no checkpoint of {cp.size} leaves (its latest has {head['size']}).",
            )
        if cp.root != self.translog.root(cp.size):
            raise ApiError(
                409,
                "checkpoint-not-this-log",
                f"The root of the checkpoint of {cp.size} leaves is not this log's root of that size.",
            )
        try:
            cosigned = note.known_signatures(text, sigs, self.witnesses)
        except note.NoteError as exc:
            raise ApiError(403, "bad-cosignature", f"{exc}.") from None
        if not cosigned:
            raise ApiError(
                403,
                "no-known-cosignature",
                "The checkpoint carries no cosignature (cosignature/v1) by a witness this log is configured with.",
            )
        now = self.translog.now()
        stored = []
        for w, stamp in cosigned:
            if stamp > now + FUTURE_SLACK:
                raise ApiError(
                    422,
                    "cosignature-in-future",
                    f"{w.name}'s cosignature is timestamped {stamp}, ahead of this clock ({int(now)}).",
                )
            line = next(s.line() for s in sigs if (s.name, s.key_id) == (w.name, w.key_id))
            kept = self.translog.store.tlog_put_cosignature(
                witness_id(w), {"size": cp.size, "root": cp.root.hex(), "line": line, "time": stamp}
            )
            stored.append({"witness": w.vkey, "size": cp.size, "time": stamp, "kept": kept})
        return {"origin": cp.origin, "size": cp.size, "cosignatures": stored}
