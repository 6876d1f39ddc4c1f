"""The transcript of one game: what its parts are and what its hashes and signatures cover.

docs/transcript.md is the specification. This module holds only what the writer (fairdeal.core.writer, the
service's path) and the reader and checks (fairdeal.core.reader, fairdeal.core.checks) share: the protocol
versions, the record kinds, the record hash, the bytes the final signature covers and the anchor of the chain.

Shape of a fairdeal/2 transcript (fairdeal/1 has no seating record, clear client seeds and a shorter end):

  {"protocol": "fairdeal/2",
   "commit": {...}, "commit_signature": ...,     when the table opens, before anyone sits down
   "seating": {...}, "seating_signature": ...,   when the host starts the table: the seats and their commitments
   "start": {...}, "start_signature": ...,       when every committed seat has revealed: cards exist from here
   "records": [move records, chained],
   "end": {...}, "signature": ...,               when the game ends for any reason: reveals the server seed
   "log": {...}}                                 optional, outside the final signature (reserved)
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from fairdeal.core.canonical import canonical_json, canonical_json_of_parsed, sha256_hex
from fairdeal.core.fairness import PROTOCOL, PROTOCOLS

__all__ = [
    "PROTOCOL",
    "PROTOCOLS",
    "BY",
    "BY_OF",
    "REASONS",
    "HEADERS",
    "UNSIGNED",
    "TranscriptError",
    "canonical_json",
    "record_hash",
    "parsed_record_hash",
    "receipt",
    "transcript_body",
    "parsed_body_and_hashes",
    "chain_anchor",
    "anchor_name",
    "clocks_off",
    "CLOCK_KINDS",
    "clocked_kinds",
    "public_view",
]

# "stand-in" (fairdeal/2 only): the table's bot moving for a seated player who left or is away
# (docs/transcript.md, "Stand-ins"); checked as a bot move.
BY = ("player", "bot", "timeout", "stand-in")
BY_OF: dict[str, tuple[str, ...]] = {"fairdeal/1": ("player", "bot", "timeout"), "fairdeal/2": BY}
REASONS: dict[str, tuple[str, ...]] = {
    "fairdeal/1": ("finished", "abandoned", "cancelled"),
    # not-revealed: a seat that committed to a client seed did not reveal it in time; the table is cancelled.
    # no-humans: a table of bots only, ended by the service; move-cap: ended at the service's move cap.
    # aborted: a dealer-blind game a seat stalled or cheated (BLIND HOOK: blind-core owns this; docs/blind.md)
    "fairdeal/2": ("finished", "abandoned", "cancelled", "not-revealed", "no-humans", "move-cap", "aborted"),
}
# The signed header records of each protocol, in the order they are written; each has its "<name>_signature".
HEADERS: dict[str, tuple[str, ...]] = {
    "fairdeal/1": ("commit", "start"),
    "fairdeal/2": ("commit", "seating", "start"),
}
# Top-level members the final signature does not cover (besides "signature" itself).
UNSIGNED: dict[str, tuple[str, ...]] = {"fairdeal/1": (), "fairdeal/2": ("log",)}


class TranscriptError(ValueError):
    """The input is not a readable fairdeal transcript; the message says why."""


def record_hash(record: Mapping[str, Any]) -> str:
    """Lowercase hex SHA-256 of the record's canonical JSON."""
    return sha256_hex(canonical_json(record))


def parsed_record_hash(record: Mapping[str, Any]) -> str:
    """record_hash of a record the reader returned (validated there: the same hash, faster)."""
    return sha256_hex(canonical_json_of_parsed(record))


def receipt(record: Mapping[str, Any]) -> str:
    """The receipt a mover gets for a move record: its record hash (the next record's "prev")."""
    return record_hash(record)


def transcript_body(transcript: Mapping[str, Any], *, parsed: bool = False) -> bytes:
    """What the final signature covers: canonical JSON of the transcript without "signature" (and, in fairdeal/2,
    without the unsigned "log"). parsed=True: the transcript is the reader's output (the same bytes, faster)."""
    left_out = ("signature",) + UNSIGNED.get(transcript.get("protocol"), ())
    body = {k: v for k, v in transcript.items() if k not in left_out}
    return canonical_json_of_parsed(body) if parsed else canonical_json(body)


def parsed_body_and_hashes(transcript: Mapping[str, Any]) -> tuple[bytes, list[str]]:
    """(transcript_body(t, parsed=True), [parsed_record_hash(r) for r in the records and the end]) with each
    record encoded once for both: the audit's fast path. Canonical JSON of an object is its members sorted by
    key, each "key":value, so the body is put together from the records' own canonical bytes."""
    left_out = ("signature",) + UNSIGNED.get(transcript.get("protocol"), ())
    records = [canonical_json_of_parsed(r) for r in transcript["records"]]
    end = transcript.get("end")
    members = []
    for name in sorted(k for k in transcript if k not in left_out):
        value = b"[" + b",".join(records) + b"]" if name == "records" else canonical_json_of_parsed(transcript[name])
        members.append(canonical_json_of_parsed(name) + b":" + value)
    chained = records + ([canonical_json_of_parsed(end)] if end is not None else [])
    return b"{" + b",".join(members) + b"}", [sha256_hex(data) for data in chained]


def anchor_name(transcript: Mapping[str, Any]) -> str:
    """The header record the chain hangs from: the last one present (start, else seating, else commit)."""
    for name in reversed(HEADERS.get(transcript.get("protocol"), HEADERS[PROTOCOL])):
        if transcript.get(name) is not None:
            return name
    return "commit"


def chain_anchor(transcript: Mapping[str, Any]) -> Mapping[str, Any]:
    return transcript[anchor_name(transcript)]


def clocks_off(clocks: Mapping[str, Any]) -> bool:
    """fairdeal/2: a table whose clock settings are all null (or none) has no clock, so no move can be a timeout."""
    return all(value is None for value in clocks.values())


# fairdeal/2's clock keys, each the decision kind it times: "card" a decision whose legal moves are cards to play,
# "other" every other decision (docs/transcript.md, "start").
CLOCK_KINDS = ("card", "other")


def clocked_kinds(clocks: Mapping[str, Any]) -> frozenset[str]:
    """fairdeal/2: the decision kinds a timeout move may end. Clocks naming `card` or `other` are read by kind: a
    kind has a clock when its member is not null (absent: none). Clocks naming neither (other writers' keys, as in
    docs/examples) are all or nothing: every kind has a clock exactly when every value is set."""
    if any(kind in clocks for kind in CLOCK_KINDS):
        return frozenset(kind for kind in CLOCK_KINDS if clocks.get(kind) is not None)
    values = list(clocks.values())
    return frozenset(CLOCK_KINDS) if values and all(v is not None for v in values) else frozenset()


def public_view(transcript: Mapping[str, Any]) -> dict:
    """The transcript as anyone may see it: a deep copy of the documented members only. While the game runs there
    is no "end", so no server seed; anything else a store keeps beside the transcript is dropped.
    Note: move records name every move, thrown cards included; a service that hides thrown cards must not
    publish the records of a game in progress to other seats (docs/transcript.md, "Public view")."""
    protocol = transcript.get("protocol")
    names = HEADERS.get(protocol, ())
    allowed = (
        "protocol",
        *(m for n in names for m in (n, f"{n}_signature")),
        "records",
        "end",
        "signature",
        "blind",  # a blind table's signed messages (docs/blind.md): public as relayed
        *UNSIGNED.get(protocol, ()),
    )
    out = {k: copy.deepcopy(transcript[k]) for k in allowed if k in transcript}
    if "end" not in out:
        out.pop("signature", None)
    return out
