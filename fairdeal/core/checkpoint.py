"""The log's checkpoint (c2sp.org/tlog-checkpoint): a signed note whose text is three lines

  <origin>                 the log's name, e.g. "fairdeal.example/fairdeal-log" (no spaces, no '+')
  <size>                   the tree size in decimal, no leading zeros
  <base64 root>            the RFC 9162 root of the first <size> leaves, standard base64

signed by the service's Ed25519 key under the key name <origin> (note signature type 0x01), and cosigned by
witnesses (tlog-cosignature, type 0x04). docs/log.md, "Checkpoints", is the specification.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from fairdeal.core import keys, note

_SIZE = re.compile(r"(0|[1-9][0-9]{0,18})\Z")


@dataclass
class Checkpoint:
    origin: str
    size: int
    root: bytes
    text: str
    key: str | None = None  # the service key ("ed25519:...") whose signature verified
    cosigners: list[tuple[note.Verifier, int]] = field(default_factory=list)  # (witness, timestamp)


def text_of(origin: str, size: int, root: bytes) -> str:
    note.check_name(origin)
    if type(size) is not int or size < 0 or len(root) != 32:
        raise note.NoteError("a checkpoint has a size (a whole number) and a 32-byte root")
    return f"{origin}\n{size}\n{note.b64(root)}\n"


def parse_text(text: str) -> Checkpoint:
    """origin, size and root of a checkpoint text (exactly three lines: this log writes no extension line)."""
    lines = note.check_text(text).split("\n")[:-1]
    if len(lines) < 3 or not all(lines):
        raise note.NoteError("a checkpoint's text is an origin, a size and a root hash, one a line")
    if len(lines) > 3:
        raise note.NoteError("this log's checkpoints have no extension lines")
    origin, size, root = lines
    if not _SIZE.match(size):
        raise note.NoteError(f"a checkpoint's size is a decimal number with no leading zeros, not {size[:30]!r}")
    raw = note.b64_decode(root)
    if len(raw) != 32:
        raise note.NoteError("a checkpoint's root hash is 32 bytes in base64")
    return Checkpoint(note.check_name(origin), int(size), raw, text)


def log_verifier(origin: str, key_text: str) -> note.Verifier:
    """The note verifier of a service key ("ed25519:..." of docs/transcript.md) under the log's origin."""
    return note.Verifier(origin, note.ED25519, note.raw_public(keys.load_public_key(key_text)))


def vkey(origin: str, key_text: str) -> str:
    return log_verifier(origin, key_text).vkey


def sign(origin: str, size: int, root: bytes, private: Ed25519PrivateKey) -> str:
    text = text_of(origin, size, root)
    return note.assemble(text, [note.sign(text, origin, private)])


def open_checkpoint(data: str | bytes, log_keys: Iterable[str], witnesses: Iterable[note.Verifier] = ()) -> Checkpoint:
    """A checkpoint signed by one of `log_keys` (service keys) under its origin, with the cosignatures of the
    known `witnesses` it carries; else NoteError. Signatures of other keys are ignored (signed-note)."""
    text, sigs = note.parse(data)
    cp = parse_text(text)
    candidates = []
    for k in dict.fromkeys(log_keys):
        try:
            candidates.append((log_verifier(cp.origin, k), k))
        except ValueError:
            continue
    signed = note.known_signatures(text, sigs, [v for v, _ in candidates])
    if not signed:
        raise note.NoteError(
            f"the checkpoint of {cp.origin!r} at size {cp.size} carries no signature by a key trusted for it"
        )
    cp.key = next(k for v, k in candidates if v is signed[0][0])
    witnesses = [w for w in witnesses if w.kind == note.COSIGNATURE_V1]
    cp.cosigners = note.known_signatures(text, sigs, witnesses)
    return cp


@dataclass(frozen=True)
class CosignerPolicy:
    """What a verifier asks of a checkpoint's witnesses: valid cosignatures by at least `quorum` of `witnesses`."""

    witnesses: tuple[note.Verifier, ...]
    quorum: int

    @staticmethod
    def of(vkeys: Iterable[str], quorum: int | None = None) -> CosignerPolicy | None:
        """From verifier keys (type 0x04) and N (default: all of them); None when no witness is given."""
        ws = tuple(dict.fromkeys(note.parse_vkey(v, kinds=(note.COSIGNATURE_V1,)) for v in vkeys))
        if not ws:
            if quorum:
                raise note.NoteError("--cosignatures asks for witnesses: give them with --cosigner VKEY")
            return None
        n = len(ws) if quorum is None else quorum
        if not 1 <= n <= len(ws):
            raise note.NoteError(f"--cosignatures is from 1 to the {len(ws)} witness(es) given, not {n}")
        return CosignerPolicy(ws, n)
