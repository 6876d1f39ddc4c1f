"""C2SP signed notes (c2sp.org/signed-note) with Ed25519 note signatures (type 0x01) and Ed25519 checkpoint
cosignatures (c2sp.org/tlog-cosignature, cosignature/v1, type 0x04). Stdlib and `cryptography`'s Ed25519 only.

  note         text ending in "\\n", a blank line, then one or more lines  "— <name> base64(key id || sig)\\n"
  key id       SHA-256(name || 0x0A || type || 32-byte public key)[:4]
  vkey         <name>+hex(key id)+base64(type || public key)
  skey         PRIVATE+KEY+<name>+hex(key id)+base64(type || 32-byte private seed)   (Go's sumdb/note form)
  cosignature  key id || u64 big-endian timestamp || Ed25519 over "cosignature/v1\\ntime <t>\\n" || note text

Written here rather than taken from a library: no maintained Python package implements signed notes; the format
is a page long, and the test vectors of docs/log.md (with the spec's own example) and an interop test against
Go's golang.org/x/mod/sumdb/note hold it to the standard.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
import struct
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

ED25519 = 0x01  # a note signature by the log (signed-note)
COSIGNATURE_V1 = 0x04  # a timestamped Ed25519 checkpoint cosignature (tlog-cosignature)
DASH = "\u2014"
MAX_SIGNATURES = 64  # the spec asks a verifier to accept at least 16
MAX_NOTE_BYTES = 64 * 1024
_NAME = re.compile(r"[^\s+]+\Z")
_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f]")
_B64 = re.compile(r"[A-Za-z0-9+/]*={0,2}\Z")


class NoteError(ValueError):
    """A note, key or signature is not in its documented form, or fails to verify; the message says which."""


@dataclass(frozen=True)
class Signature:
    name: str
    key_id: bytes  # 4 bytes
    data: bytes  # what follows the key id: the signature (and a cosignature's timestamp before it)

    def line(self) -> str:
        return f"{DASH} {self.name} {b64(self.key_id + self.data)}\n"


@dataclass(frozen=True)
class Verifier:
    """A known key: its name, signature type and raw Ed25519 public key."""

    name: str
    kind: int
    public: bytes

    @property
    def key_id(self) -> bytes:
        return key_id(self.name, self.kind, self.public)

    @property
    def vkey(self) -> str:
        return f"{self.name}+{self.key_id.hex()}+{b64(bytes([self.kind]) + self.public)}"

    def verify(self, text: str, sig: Signature) -> int | None:
        """Whether `sig` is this key's valid signature of the note text: for a note signature 0, for a
        cosignature its timestamp; None when it does not verify."""
        pub = Ed25519PublicKey.from_public_bytes(self.public)
        if self.kind == ED25519:
            message, raw, stamp = text.encode("utf-8"), sig.data, 0
        else:
            if len(sig.data) != 8 + 64:
                return None
            stamp = struct.unpack(">Q", sig.data[:8])[0]
            if stamp >= 1 << 63:
                return None
            message, raw = cosigned_message(text, stamp), sig.data[8:]
        if len(raw) != 64:
            return None
        try:
            pub.verify(raw, message)
        except InvalidSignature:
            return None
        return stamp


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def b64_decode(text: str) -> bytes:
    """Standard base64 with padding (RFC 4648 section 4), strictly: one encoding per byte string."""
    if not _B64.match(text) or len(text) % 4:
        raise NoteError(f"not standard base64: {text[:60]!r}")
    try:
        data = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise NoteError(f"not standard base64: {text[:60]!r}") from None
    if b64(data) != text:
        raise NoteError(f"not canonical base64: {text[:60]!r}")
    return data


def check_name(name: str) -> str:
    if not isinstance(name, str) or not _NAME.match(name):
        raise NoteError(f"a key name is non-empty, with no spaces and no '+': {name!r:.60}")
    return name


def key_id(name: str, kind: int, public: bytes) -> bytes:
    return hashlib.sha256(name.encode("utf-8") + b"\n" + bytes([kind]) + public).digest()[:4]


def raw_public(key: Ed25519PrivateKey | Ed25519PublicKey) -> bytes:
    pub = key.public_key() if isinstance(key, Ed25519PrivateKey) else key
    return pub.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def parse_vkey(text: str, kinds: Sequence[int] = (ED25519, COSIGNATURE_V1)) -> Verifier:
    """A verifier key `<name>+<hex id>+<base64(type || key)>`, its id checked against its name and key."""
    parts = text.strip().split("+", 2) if isinstance(text, str) else []  # base64 may hold '+': names may not
    if len(parts) != 3 or not re.fullmatch(r"[0-9a-f]{8}", parts[1]):
        raise NoteError(f"not a verifier key <name>+<8 hex digits>+<base64>: {str(text)[:80]!r}")
    name, raw = check_name(parts[0]), b64_decode(parts[2])
    if len(raw) != 33 or raw[0] not in kinds:
        raise NoteError(
            f"the verifier key {name!r} is not an Ed25519 key of type {' or '.join(f'0x{k:02x}' for k in kinds)}"
        )
    v = Verifier(name, raw[0], raw[1:])
    if v.key_id.hex() != parts[1]:
        raise NoteError(f"the verifier key {name!r} says key id {parts[1]}, but its name and key make {v.key_id.hex()}")
    return v


def format_skey(name: str, kind: int, private: Ed25519PrivateKey) -> str:
    seed = private.private_bytes(
        serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption()
    )
    return f"PRIVATE+KEY+{check_name(name)}+{key_id(name, kind, raw_public(private)).hex()}+{b64(bytes([kind]) + seed)}"


def parse_skey(text: str) -> tuple[str, int, Ed25519PrivateKey]:
    """(name, type, private key) of a signer key `PRIVATE+KEY+<name>+<hex id>+<base64(type || seed)>`."""
    parts = text.strip().split("+", 4)
    if len(parts) != 5 or parts[:2] != ["PRIVATE", "KEY"]:
        raise NoteError("not a signer key PRIVATE+KEY+<name>+<8 hex digits>+<base64>")
    name, raw = check_name(parts[2]), b64_decode(parts[4])
    if len(raw) != 33 or raw[0] not in (ED25519, COSIGNATURE_V1):
        raise NoteError(f"the signer key {name!r} is not an Ed25519 key of type 0x01 or 0x04")
    private = Ed25519PrivateKey.from_private_bytes(raw[1:])
    if key_id(name, raw[0], raw_public(private)).hex() != parts[3]:
        raise NoteError(f"the signer key {name!r} names a key id its key does not have")
    return name, raw[0], private


# ------------------------------------------------------------------------------------------------ notes


def check_text(text: str) -> str:
    """A note text: UTF-8, ends in a newline, no control characters other than newline."""
    if not isinstance(text, str) or not text.endswith("\n") or _CONTROL.search(text):
        raise NoteError("a note text ends in a newline and holds no control character other than newline")
    return text


def parse(note: str | bytes) -> tuple[str, list[Signature]]:
    """(text, signatures) of a signed note: the text is everything up to the last blank line."""
    if isinstance(note, (bytes, bytearray)):
        if len(note) > MAX_NOTE_BYTES:
            raise NoteError(f"a note is at most {MAX_NOTE_BYTES} bytes")
        try:
            note = bytes(note).decode("utf-8")
        except UnicodeDecodeError:
            raise NoteError("a note is UTF-8") from None
    if not isinstance(note, str) or len(note) > MAX_NOTE_BYTES:
        raise NoteError("a note is a text of at most 64 KiB")
    split = note.rfind("\n\n")
    if split < 0 or not note.endswith("\n"):
        raise NoteError("a signed note is a text, a blank line and signature lines, each ending in a newline")
    text, lines = check_text(note[: split + 1]), note[split + 2 :].split("\n")[:-1]
    if not lines:
        raise NoteError("a signed note has at least one signature line")
    if len(lines) > MAX_SIGNATURES:
        raise NoteError(f"a note of more than {MAX_SIGNATURES} signatures is refused")
    return text, [parse_signature_line(line) for line in lines]


def parse_signature_line(line: str) -> Signature:
    parts = line.split(" ")
    if len(parts) != 3 or parts[0] != DASH or _CONTROL.search(line):
        raise NoteError(f"a signature line is '— <key name> <base64>': {line[:80]!r}")
    raw = b64_decode(parts[2])
    if len(raw) < 5:
        raise NoteError(f"a signature holds a 4-byte key id and a signature: {line[:80]!r}")
    return Signature(check_name(parts[1]), raw[:4], raw[4:])


def assemble(text: str, signatures: Iterable[Signature]) -> str:
    lines = "".join(s.line() for s in signatures)
    if not lines:
        raise NoteError("a signed note has at least one signature")
    return check_text(text) + "\n" + lines


def sign(text: str, name: str, private: Ed25519PrivateKey) -> Signature:
    """The Ed25519 note signature (type 0x01) of `text` by the key named `name`."""
    check_text(text)
    return Signature(check_name(name), key_id(name, ED25519, raw_public(private)), private.sign(text.encode("utf-8")))


def cosigned_message(text: str, timestamp: int) -> bytes:
    return f"cosignature/v1\ntime {timestamp}\n".encode("ascii") + text.encode("utf-8")


def cosign(text: str, name: str, private: Ed25519PrivateKey, timestamp: int) -> Signature:
    """The cosignature/v1 (type 0x04) of a checkpoint text at `timestamp` (POSIX seconds)."""
    check_text(text)
    if type(timestamp) is not int or not 0 < timestamp < 1 << 63:
        raise NoteError("a cosignature's timestamp is a whole number of seconds from 1 to 2^63 - 1")
    data = struct.pack(">Q", timestamp) + private.sign(cosigned_message(text, timestamp))
    return Signature(check_name(name), key_id(name, COSIGNATURE_V1, raw_public(private)), data)


def known_signatures(
    text: str, signatures: Sequence[Signature], known: Iterable[Verifier]
) -> list[tuple[Verifier, int]]:
    """The known keys whose signatures the note carries, each with its timestamp (0 for a note signature).
    Signatures of unknown keys are ignored, as the spec says; a known key's failing signature is a NoteError
    (the spec asks a client to reject the whole note)."""
    by_id = {(v.name, v.key_id): v for v in known}
    out: list[tuple[Verifier, int]] = []
    for sig in signatures:
        v = by_id.get((sig.name, sig.key_id))
        if v is None:
            continue
        stamp = v.verify(text, sig)
        if stamp is None:
            raise NoteError(f"the signature by {v.name} (key id {v.key_id.hex()}) does not verify")
        if all(v is not seen for seen, _ in out):
            out.append((v, stamp))
    return out
