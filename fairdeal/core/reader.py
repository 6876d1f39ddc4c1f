"""Reading a transcript: `parse_transcript` turns bytes, text or a decoded object into a structurally valid
transcript of a known protocol (fairdeal/1 or fairdeal/2), or raises TranscriptError saying why it is unreadable.

What it checks is the form only: JSON as the format allows it (UTF-8, integers only, no key twice, canonical
values), the members of every record and their kinds, which records may be present together. Hashes, signatures,
commitments and the replay are the checks' (fairdeal.core.checks), which report instead of raising.
The schemas below are the member tables of docs/transcript.md, as data.
"""

from __future__ import annotations

import copy
import itertools
import json
import re
from collections.abc import Mapping
from operator import itemgetter
from typing import Any

from fairdeal.core.canonical import MAX_SAFE_INT, canonical_json, canonical_json_of_parsed
from fairdeal.core.fairness import PROTOCOL, PROTOCOLS, is_hex64
from fairdeal.core.fastpath import fast_path
from fairdeal.core.transcript import BY, HEADERS, REASONS, UNSIGNED, TranscriptError, parsed_body_and_hashes

__all__ = ["parse_transcript", "read_transcript", "read_encoded", "keys_written", "TranscriptError"]

# ------------------------------------------------------------------------------------------- JSON


def _reject_number(text: str) -> Any:
    raise TranscriptError(f"A transcript holds integers only; {text} is not one.")


class _BigInts:
    """parse_int hook: reads integers as json does and notes whether one is outside +-(2**53 - 1), so that the
    canonical-form walk (which words that refusal) only runs when it has something to find."""

    def __init__(self) -> None:
        self.seen = False

    def __call__(self, text: str) -> int:
        value = int(text)
        if len(text) > 15 and not -MAX_SAFE_INT <= value <= MAX_SAFE_INT:
            self.seen = True
        return value


# A JSON escape that reads as a surrogate (U+D800..U+DFFF): a lone one has no UTF-8 form.
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89abcdefABCDEF]")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):  # a key repeated: name the first repeat
        seen: set[str] = set()
        for k, _ in pairs:
            if k in seen:
                raise TranscriptError(f"The key {k!r} appears twice in one object.")
            seen.add(k)
    return out


def _load(data: bytes | bytearray | str, big_ints: _BigInts | None = None, pairs_hook: bool = True) -> Any:
    if isinstance(data, (bytes, bytearray)):
        try:
            data = bytes(data).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise TranscriptError(f"A transcript is UTF-8 JSON; byte {exc.start} is not UTF-8.") from None
    if not data.strip():
        raise TranscriptError("The transcript is empty.")
    try:
        return json.loads(
            data,
            parse_float=_reject_number,
            parse_constant=_reject_number,
            object_pairs_hook=_no_duplicates if pairs_hook else None,
            parse_int=big_ints or int,
        )
    except json.JSONDecodeError as exc:
        if exc.pos >= len(data.rstrip()):
            raise TranscriptError("The transcript is not complete JSON: it ends early (truncated?).") from None
        raise TranscriptError(
            f"The transcript is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}."
        ) from None
    except RecursionError:
        raise TranscriptError("The transcript is nested too deeply to be one.") from None
    except TranscriptError:  # the hooks' own words (a key given twice, a number that is not an integer)
        raise
    except ValueError as exc:  # e.g. an integer with more digits than Python reads
        raise TranscriptError(f"The transcript could not be read as JSON: {exc}.") from None


# ------------------------------------------------------------------------------------------- schemas

STR, INT, BOOL, OBJ, LIST, HEX = "text", "integer", "true or false", "object", "list", "64 hex digits"
NULL = None
_KIND_TEST = {
    STR: lambda v: isinstance(v, str),
    INT: lambda v: type(v) is int,
    BOOL: lambda v: isinstance(v, bool),
    OBJ: lambda v: isinstance(v, dict),
    LIST: lambda v: isinstance(v, list),
    HEX: is_hex64,
    NULL: lambda v: v is None,
}

Schema = tuple[dict[str, Any], dict[str, Any]]  # (required members, optional members): name -> kind or a tuple of kinds

_RULES: Schema = ({"id": STR, "players": INT, "settings": OBJ, "version": INT}, {})
_MOVE: Schema = ({"type": STR, "seq": INT, "prev": HEX, "seat": INT, "by": STR, "move": OBJ, "salt": HEX}, {"at": STR})
_HEADER = {"type": STR, "protocol": STR, "game_id": STR, "rules": OBJ, "commitment": HEX, "key": STR}
_END = {"type": STR, "seq": INT, "prev": HEX, "reason": STR, "server_seed": HEX, "result": (OBJ, NULL), "ended": STR}

SCHEMAS: dict[str, dict[str, Schema]] = {
    "fairdeal/1": {
        "transcript": (
            {"protocol": STR, "commit": OBJ, "commit_signature": STR, "records": LIST},
            {"start": OBJ, "start_signature": STR, "end": OBJ, "signature": STR},
        ),
        "commit": ({**_HEADER, "created": STR}, {}),
        "start": ({**_HEADER, "seats": LIST, "clocks": OBJ, "started": STR}, {}),
        "start.seat": ({"seat": INT, "name": STR, "bot": BOOL, "client_seed": (STR, NULL)}, {}),
        "move": _MOVE,
        "end": (_END, {}),
    },
    "fairdeal/2": {
        "transcript": (
            {"protocol": STR, "commit": OBJ, "commit_signature": STR, "records": LIST},
            {
                "seating": OBJ,
                "seating_signature": STR,
                "start": OBJ,
                "start_signature": STR,
                "end": OBJ,
                "signature": STR,
                "log": OBJ,
                "blind": OBJ,  # a dealer-blind table's messages (docs/blind.md, "The transcript")
            },
        ),
        "blind": ({"protocol": STR, "messages": LIST, "blame": LIST}, {"abort": OBJ}),  # abort: checked by stall.py
        "commit": ({**_HEADER, "deal_layout": STR, "created": STR}, {"board": OBJ}),  # board: tournaments.md
        "seating": ({**_HEADER, "seats": LIST, "reveal_deadline": (STR, NULL), "seated": STR}, {}),
        "seating.seat": ({"seat": INT, "name": STR, "bot": BOOL, "client_seed_commitment": (HEX, NULL)}, {}),
        "start": ({**_HEADER, "seats": LIST, "clocks": OBJ, "started": STR}, {}),
        "start.seat": (
            {
                "seat": INT,
                "name": STR,
                "bot": BOOL,
                "client_seed_commitment": (HEX, NULL),
                "client_seed": (STR, NULL),
                "nonce": (HEX, NULL),
            },
            {},
        ),
        "move": _MOVE,
        "end": ({**_END, "deals": LIST}, {"reveals": LIST, "unrevealed": LIST}),
        "end.deal": ({"hand": INT, "dealer": INT}, {}),
        "end.reveal": ({"seat": INT, "client_seed": STR, "nonce": HEX}, {}),
    },
}


def _fields(obj: Any, where: str, schema: Schema) -> None:
    """Checks an object's members and their kinds (a tuple of kinds allows each)."""
    members, plan = _plan(schema)
    if not isinstance(obj, dict):
        raise TranscriptError(f"{where} is not a JSON object.")
    if not obj.keys() <= members:
        for key in obj:
            if key not in members:
                raise TranscriptError(f"{where} has an unknown field {key!r}.")
    for key, required, tests, kinds in plan:
        if key not in obj:
            if required:
                raise TranscriptError(f"{where} has no {key!r}.")
            continue
        value = obj[key]
        for test in tests:
            if test(value):
                break
        else:
            names = " or ".join("null" if k is None else k for k in kinds)
            raise TranscriptError(f"{where}.{key} should be {names}.")


_PLANS: dict[int, tuple[Schema, frozenset[Any], tuple[Any, ...]]] = {}


def _plan(schema: Schema) -> tuple[frozenset[Any], tuple[Any, ...]]:
    """A schema's members, and for each (in order, required first) whether it is required, its kinds' tests and
    its kinds: made once a schema (the schemas are this module's constants), not at every object checked. The
    schema is kept beside its plan, so that its id is never another schema's."""
    plan = _PLANS.get(id(schema))
    if plan is None or plan[0] is not schema:
        required, optional = schema
        steps = []
        for key, kinds in {**required, **optional}.items():
            kinds = kinds if isinstance(kinds, tuple) else (kinds,)
            steps.append((key, key in required, tuple(_KIND_TEST[k] for k in kinds), kinds))
        plan = _PLANS[id(schema)] = (schema, frozenset(required) | frozenset(optional), tuple(steps))
    return plan[1], plan[2]


def _check_type(obj: dict[str, Any], where: str, expected: str) -> None:
    if obj.get("type") != expected:
        raise TranscriptError(f"{where}.type should be {expected!r}, not {obj.get('type')!r}.")


def _items(obj: dict[str, Any], member: str, where: str, schema: Schema) -> None:
    for i, item in enumerate(obj[member]):
        _fields(item, f"{where}.{member}[{i}]", schema)


_MOVE_FIELDS = itemgetter("type", "seq", "seat", "by", "move", "prev", "salt")  # _MOVE's required members
_BY = frozenset(BY)
_HEX_DIGITS = re.compile(r"[0-9a-f]*\Z")


def check_move_record(rec: Any, where: str, protocol: str) -> None:
    """The full checks of one move record: raises TranscriptError saying what is wrong."""
    _fields(rec, where, SCHEMAS[protocol]["move"])
    _check_type(rec, where, "move")
    if rec["by"] not in BY:
        raise TranscriptError(f"{where}.by should be one of {', '.join(BY)}, not {rec['by']!r}.")


def move_records_pass_full_checks(records: list[Any]) -> bool:
    """Whether check_move_record refuses none of the records: the general form of plain_move_records."""
    try:
        for i, rec in enumerate(records):
            check_move_record(rec, f"records[{i}]", PROTOCOL)
    except TranscriptError:
        return False
    return True


@fast_path(general=move_records_pass_full_checks)
def plain_move_records(records: list[Any]) -> bool:
    """True when every move record passes every check the reader makes of it: the records' fast path (they are
    most of a transcript), one pass over them and one match of all their hex digits at once. False sends them
    through the full checks (check_move_record), whose messages say what is wrong; it never lets through a record
    those checks refuse (tests/verifier/test_reader_fast_path.py holds the two to the same answers)."""
    hexes: list[str] = []
    add = hexes.append
    try:
        for rec in records:
            kind, seq, seat, by, move, prev, salt = _MOVE_FIELDS(rec)
            if (
                type(rec) is not dict
                or kind != "move"
                or type(seq) is not int
                or type(seat) is not int
                or by not in _BY
                or type(move) is not dict
                or type(prev) is not str
                or type(salt) is not str
                or len(prev) != 64
                or len(salt) != 64
            ):
                return False
            n = len(rec)
            if n != 7 and (n != 8 or type(rec.get("at")) is not str):  # "at" is the one optional member
                return False
            add(prev)
            add(salt)
    except (KeyError, TypeError):  # not a dict, a member missing, an unhashable "by"
        return False
    return _HEX_DIGITS.match("".join(hexes)) is not None


# ------------------------------------------------------------------------------------------- reading


def _json_value(data: Any, pairs_hook: bool, may_skip_walk: bool) -> Any:
    """The JSON value of the input, every value with a canonical form (or hashing it later would fail).
    pairs_hook=False: no test for a key given twice (read_transcript's caller counts the keys instead).
    may_skip_walk: the walk over every value is left out where it has nothing to find (see below)."""
    # JSON bytes need no walk over every value unless they hold an integer out of range or a surrogate escape:
    # the parser refuses floats, NaN and Infinity, and object keys are always texts.
    walk = True  # a value given as an object is always walked
    if isinstance(data, Mapping):
        try:
            obj = copy.deepcopy(dict(data))
        except RecursionError:
            raise TranscriptError("The transcript is nested too deeply to be one.") from None
    elif isinstance(data, (bytes, bytearray, str)):
        big_ints = _BigInts()
        obj = _load(data, big_ints, pairs_hook)
        walk = (
            not may_skip_walk
            or big_ints.seen
            or not isinstance(data, (bytes, bytearray))
            or (b"\\" in data and _SURROGATE_ESCAPE.search(data) is not None)
        )  # no backslash: no escape at all
    else:
        raise TranscriptError(f"A transcript is JSON text or an object, not {type(data).__name__}.")
    try:
        if walk:
            canonical_json(obj)
    except ValueError as exc:
        raise TranscriptError(f"The transcript holds a value that has no canonical JSON form: {exc}.") from None
    except RecursionError:
        raise TranscriptError("The transcript is nested too deeply to be one.") from None
    return obj


def _decode_walked(data: Any, pairs_hook: bool = True) -> Any:
    """_decode's general form: every value walked for its canonical form."""
    return _json_value(data, pairs_hook, may_skip_walk=False)


@fast_path(general=_decode_walked)
def _decode(data: Any, pairs_hook: bool = True) -> Any:
    """The JSON value of the input, the canonical-form walk run only where it can find something (JSON bytes
    holding an integer out of range or a surrogate escape): the same value, or the same refusal."""
    return _json_value(data, pairs_hook, may_skip_walk=True)


def parse_transcript(data: bytes | str | Mapping[str, Any]) -> dict[str, Any]:
    """Reads and structurally validates a transcript (JSON bytes, text, or an already-decoded object).
    Returns the transcript as a dict (a deep copy for dict input). Raises TranscriptError with a clear message
    for anything that is not a readable transcript of a protocol this verifier knows."""
    return _validated(_decode(data))


def read_transcript(data: bytes | str | Mapping[str, Any]) -> tuple[dict[str, Any], int | None]:
    """parse_transcript, with the test for a key given twice left to a count where a count can settle it: what
    read_encoded, the audit's fast path, reads with (the parser's hook is a Python call per object). Returns the
    transcript and, for JSON bytes holding no backslash, the number of '":' in them; the caller compares it with
    keys_written(t, body) once it has the canonical body, and on any difference reads the input again with
    parse_transcript, which names the repeated key. None: read with the hook, nothing to compare.

    Why the count settles it: without a backslash no string holds a '"', so '":' ends a key, or opens a string
    that starts with ':'. The canonical form writes the same values with the same keys, once each, so it has
    as many '":' exactly when no key was dropped as a repeat (a repeat's key, and its value, are in the input
    only); keys written '"a" :' in the input are counted only in the canonical form, and fall back too."""
    if isinstance(data, (bytes, bytearray)) and b"\\" not in data:
        try:
            return _validated(_decode(data, pairs_hook=False)), bytes(data).count(b'":')
        except TranscriptError:
            pass  # refused: read again in full, so that a repeated key is named first, as it always is
    return parse_transcript(data), None


def keys_written(t: Mapping[str, Any], body: bytes) -> int:
    """The '":' of the canonical form of a transcript read by read_transcript, from its canonical body
    (transcript.transcript_body: everything but "signature" and the unsigned members) and those members."""
    count = body.count(b'":')
    for name, value in t.items():
        if name == "signature" or name in UNSIGNED.get(t.get("protocol"), ()):
            count += 1 + canonical_json_of_parsed(value).count(b'":')
    return count


def read_encoded_with_hook(data: bytes | str | Mapping[str, Any]) -> tuple[dict[str, Any], bytes, list[str]]:
    """read_encoded's general form: the transcript read by parse_transcript (every object through the hook that
    names a key given twice), then its body and hashes."""
    t = parse_transcript(data)
    return (t, *parsed_body_and_hashes(t))


@fast_path(general=read_encoded_with_hook)
def read_encoded(data: bytes | str | Mapping[str, Any]) -> tuple[dict[str, Any], bytes, list[str]]:
    """The transcript read and validated (parse_transcript), with its canonical body and the hashes of its records
    and end (transcript.parsed_body_and_hashes): the audit's reading. A key given twice is found by read_transcript's
    count, and on a difference the input is read again with the hook, which names it."""
    t, raw_keys = read_transcript(data)
    body, hashes = parsed_body_and_hashes(t)  # each record encoded once, for the signature and the chain
    if raw_keys is not None and raw_keys != keys_written(t, body):
        t = parse_transcript(data)  # a key given twice: the full reader names it
        body, hashes = parsed_body_and_hashes(t)
    return t, body, hashes


def _validated(obj: Any) -> dict[str, Any]:
    if not isinstance(obj, dict) or ("protocol" not in obj and "commit" not in obj):
        raise TranscriptError('This is not a fairdeal transcript (no "protocol" and no "commit").')
    protocol = obj.get("protocol")
    if protocol not in PROTOCOLS:
        raise TranscriptError(
            f"This transcript uses protocol {protocol!r}; this verifier knows "
            f"{' and '.join(repr(p) for p in PROTOCOLS)}."
        )
    schema = SCHEMAS[protocol]
    _fields(obj, "The transcript", schema["transcript"])
    headers = HEADERS[protocol]
    for name in headers:
        if (name in obj) != (f"{name}_signature" in obj):
            raise TranscriptError(f"The transcript has a {name} record without its signature, or the other way round.")
    for before, name in itertools.pairwise(headers):
        if name in obj and before not in obj:
            raise TranscriptError(f"The transcript has a {name} record but no {before} record.")

    for name in headers:
        if name not in obj:
            continue
        record = obj[name]
        _fields(record, name, schema[name])
        _check_type(record, name, name)
        _fields(record["rules"], f"{name}.rules", _RULES)
        if f"{name}.seat" in schema:
            _items(record, "seats", name, schema[f"{name}.seat"])
    if "start" in obj:
        for key, value in obj["start"]["clocks"].items():
            if not (value is None or type(value) is int):
                raise TranscriptError(f"start.clocks.{key} should be an integer or null.")
    elif obj["records"]:
        raise TranscriptError("The transcript has moves but no start record.")

    if not plain_move_records(obj["records"]):
        for i, rec in enumerate(obj["records"]):
            check_move_record(rec, f"records[{i}]", protocol)

    if "blind" in obj:
        _fields(obj["blind"], "blind", schema["blind"])
        if obj["blind"]["protocol"] != "fairdeal-blind/1":
            raise TranscriptError(f"blind.protocol {obj['blind']['protocol']!r:.40} is not 'fairdeal-blind/1'.")
        if not all(isinstance(m, dict) for m in obj["blind"]["messages"]):
            raise TranscriptError("blind.messages should be a list of JSON objects.")
        if not all(type(s) is int for s in obj["blind"]["blame"]):
            raise TranscriptError("blind.blame should be a list of seat numbers.")

    if "end" in obj:
        _parse_end(obj, protocol)
    elif "signature" in obj:
        raise TranscriptError("The transcript has a final signature but no end record.")
    return obj


def _parse_end(obj: dict[str, Any], protocol: str) -> None:
    end, schema = obj["end"], SCHEMAS[protocol]
    _fields(end, "end", schema["end"])
    _check_type(end, "end", "end")
    if end["reason"] not in REASONS[protocol]:
        raise TranscriptError(f"end.reason should be one of {', '.join(REASONS[protocol])}, not {end['reason']!r}.")
    if protocol == "fairdeal/1":
        return
    _items(end, "deals", "end", schema["end.deal"])
    between = obj.get("seating") is not None and obj.get("start") is None
    if between != ("reveals" in end) or ("reveals" in end) != ("unrevealed" in end):
        raise TranscriptError(
            "The end record names reveals and unrevealed seats exactly when the table ended "
            "after its seating and before its start."
        )
    if between:
        _items(end, "reveals", "end", schema["end.reveal"])
        if not all(type(s) is int for s in end["unrevealed"]):
            raise TranscriptError("end.unrevealed should be a list of seat numbers.")
