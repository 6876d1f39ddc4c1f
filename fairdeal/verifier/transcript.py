"""The transcript of one game: signed header records, a hash chain of move records, the signed end.

docs/transcript.md is the specification. Shape (every record is a JSON object; hashes and signatures cover
its canonical JSON, see fairdeal.verifier.canonical):

  {"protocol": "fairdeal/1",
   "commit": {"type": "commit", "protocol", "game_id", "rules", "commitment", "key", "created"},
   "commit_signature": sign(canonical_json(commit)),
   "start": {"type": "start", "protocol", "game_id", "rules", "commitment", "seats", "clocks", "key", "started"},
   "start_signature": sign(canonical_json(start)),
   "records": [{"type": "move", "seq": 1, "prev": record_hash(start), "seat", "by", "move", "salt", "at"?}, ...],
   "end": {"type": "end", "seq": last + 1, "prev": record_hash(last), "reason", "server_seed", "result", "ended"},
   "signature": sign(canonical_json(the transcript without "signature"))}

"start"/"start_signature" are absent when a game is cancelled before it starts (then the chain is anchored on
record_hash(commit) and there are no moves); "end"/"signature" are absent while the game runs.

Building: make_commit, make_start (+ make_seat), make_move_record, make_end, or the helpers new_transcript,
add_start, append_move, finish. Checking: parse_transcript raises TranscriptError for input that is not a
readable transcript; check_header, check_chain, check_signatures, check_commitment and check_transcript
return lists of problems (empty: all good) and never raise for a parsed transcript.
"""
from __future__ import annotations

import copy
import json
import re
from typing import Any, Mapping, Sequence

from fairdeal.verifier import keys
from fairdeal.verifier.canonical import MAX_SAFE_INT, canonical_json, canonical_json_of_parsed, sha256_hex
from fairdeal.verifier.fairness import (PROTOCOL, SEED_BYTES, commitment as compute_commitment, server_seed_from_hex,
                               validate_client_seed)

__all__ = [
    "PROTOCOL", "BY", "REASONS", "TranscriptError", "canonical_json", "record_hash", "receipt",
    "make_commit", "make_seat", "make_start", "make_move_record", "make_end",
    "new_transcript", "add_start", "chain_head", "append_move", "finish",
    "sign_record", "transcript_body", "sign_transcript",
    "parse_transcript", "check_header", "check_chain", "check_signatures", "check_commitment",
    "check_transcript", "public_view",
]

BY = ("player", "bot", "timeout")
REASONS = ("finished", "abandoned", "cancelled")
_HEX64 = re.compile(r"[0-9a-f]{64}\Z")


class TranscriptError(ValueError):
    """The input is not a readable fairdeal transcript; the message says why."""


# ------------------------------------------------------------------------------------------- hashes

def record_hash(record: Mapping[str, Any]) -> str:
    """Lowercase hex SHA-256 of the record's canonical JSON."""
    return sha256_hex(canonical_json(record))


def _parsed_record_hash(record: Mapping[str, Any]) -> str:
    """record_hash of a record parse_transcript returned (it was validated there: the same hash, faster)."""
    return sha256_hex(canonical_json_of_parsed(record))


def receipt(record: Mapping[str, Any]) -> str:
    """The receipt a mover gets for a move record: its record hash (the next record's "prev")."""
    return record_hash(record)


# ------------------------------------------------------------------------------------------ building

def _need(ok: bool, message: str) -> None:
    if not ok:
        raise ValueError(message)


def _is_int(value: Any) -> bool:
    return type(value) is int


def make_commit(game_id: str, rules: Mapping[str, Any], commitment: str, key: str, created: str) -> dict:
    """The commit record. `rules` is Rules.to_json(); `key` a public key text ("ed25519:...")."""
    _need(isinstance(game_id, str) and bool(game_id), "A game id is a non-empty text.")
    _need(isinstance(commitment, str) and bool(_HEX64.match(commitment)),
          "A commitment is 64 lowercase hex digits.")
    keys.load_public_key(key)
    _need(isinstance(created, str), "'created' is an ISO 8601 time text.")
    record = {"type": "commit", "protocol": PROTOCOL, "game_id": game_id, "rules": dict(rules),
              "commitment": commitment, "key": key, "created": created}
    canonical_json(record)
    return record


def make_seat(seat: int, name: str, bot: bool, client_seed: str | None = None) -> dict:
    """One entry of start["seats"]. A bot has no client seed."""
    _need(_is_int(seat) and seat >= 0, "A seat number is a non-negative integer.")
    _need(isinstance(name, str), "A seat's name is a text.")
    _need(isinstance(bot, bool), "'bot' is true or false.")
    if client_seed is not None:
        _need(not bot, "A bot has no client seed.")
        validate_client_seed(client_seed)
    return {"seat": seat, "name": name, "bot": bot, "client_seed": client_seed}


def make_start(commit: Mapping[str, Any], seats: Sequence[Mapping[str, Any]], clocks: Mapping[str, Any],
               started: str) -> dict:
    """The start record: the commit's game, rules, commitment and key, the seats in order (each as make_seat
    gives it, client seeds included) and the table's clock settings (an object of ints or nulls)."""
    seat_list = [make_seat(s["seat"], s["name"], s["bot"], s.get("client_seed")) for s in seats]
    _need([s["seat"] for s in seat_list] == list(range(len(seat_list))),
          "Seats are listed in order 0, 1, 2, ...")
    _need(len(seat_list) == commit["rules"]["players"],
          f"The rules are for {commit['rules']['players']} players; {len(seat_list)} seats were given.")
    _need(isinstance(clocks, Mapping) and all(v is None or _is_int(v) for v in clocks.values()),
          "Clock settings are an object of integers or nulls.")
    _need(isinstance(started, str), "'started' is an ISO 8601 time text.")
    record = {"type": "start", "protocol": PROTOCOL, "game_id": commit["game_id"], "rules": commit["rules"],
              "commitment": commit["commitment"], "seats": seat_list, "clocks": dict(clocks),
              "key": commit["key"], "started": started}
    canonical_json(record)
    return copy.deepcopy(record)


def make_move_record(prev_hash: str, seq: int, seat: int, by: str, move_json: Mapping[str, Any],
                     at: str | None = None, *, salt: str) -> dict:
    """One move record. `move_json` is Move.to_json(); `at` an optional ISO 8601 time text; `salt` the record's
    salt (fairness.record_salt): it keeps a face-down move (a throw) from being guessed from the record's hash,
    which every seat sees as a receipt."""
    _need(isinstance(prev_hash, str) and bool(_HEX64.match(prev_hash)), "'prev' is 64 lowercase hex digits.")
    _need(_is_int(seq) and seq >= 1, "A move's sequence number is an integer from 1.")
    _need(_is_int(seat) and seat >= 0, "A seat number is a non-negative integer.")
    _need(by in BY, f"'by' is one of {', '.join(BY)}.")
    _need(isinstance(move_json, Mapping), "A move is a JSON object.")
    _need(isinstance(salt, str) and bool(_HEX64.match(salt)), "'salt' is 64 lowercase hex digits.")
    record = {"type": "move", "seq": seq, "prev": prev_hash, "seat": seat, "by": by,
              "move": copy.deepcopy(dict(move_json)), "salt": salt}
    if at is not None:
        _need(isinstance(at, str), "'at' is an ISO 8601 time text.")
        record["at"] = at
    canonical_json(record)
    return record


def make_end(prev_hash: str, seq: int, reason: str, server_seed: bytes, result: Mapping[str, Any] | None,
             ended: str) -> dict:
    """The end record: it reveals the server seed. `result` is the engine's result, or None."""
    _need(isinstance(prev_hash, str) and bool(_HEX64.match(prev_hash)), "'prev' is 64 lowercase hex digits.")
    _need(_is_int(seq) and seq >= 1, "The end's sequence number is an integer from 1.")
    _need(reason in REASONS, f"The end reason is one of {', '.join(REASONS)}.")
    _need(isinstance(server_seed, (bytes, bytearray)) and len(server_seed) == SEED_BYTES,
          f"The server seed is {SEED_BYTES} bytes.")
    _need(result is None or isinstance(result, Mapping), "The result is a JSON object or null.")
    _need(isinstance(ended, str), "'ended' is an ISO 8601 time text.")
    record = {"type": "end", "seq": seq, "prev": prev_hash, "reason": reason,
              "server_seed": bytes(server_seed).hex(),
              "result": None if result is None else copy.deepcopy(dict(result)), "ended": ended}
    canonical_json(record)
    return record


def sign_record(private_key: Any, record: Mapping[str, Any]) -> str:
    """The Ed25519 signature (base64url) of the record's canonical JSON."""
    return keys.sign(private_key, canonical_json(record))


def transcript_body(transcript: Mapping[str, Any], *, parsed: bool = False) -> bytes:
    """What the final signature covers: canonical JSON of the transcript without its "signature" key.
    parsed=True: the transcript is parse_transcript's output, already validated (the same bytes, faster)."""
    body = {k: v for k, v in transcript.items() if k != "signature"}
    return canonical_json_of_parsed(body) if parsed else canonical_json(body)


def sign_transcript(private_key: Any, transcript: Mapping[str, Any]) -> str:
    """The final signature (base64url) over transcript_body(transcript). Returns the signature text; store it
    as transcript["signature"]."""
    return keys.sign(private_key, transcript_body(transcript))


# The helpers below build a transcript step by step (the service's write path).

def new_transcript(private_key: Any, commit: Mapping[str, Any]) -> dict:
    """A transcript holding only the signed commit."""
    return {"protocol": PROTOCOL, "commit": dict(commit), "commit_signature": sign_record(private_key, commit),
            "records": []}


def add_start(private_key: Any, transcript: dict, start: Mapping[str, Any]) -> dict:
    """Adds the signed start record (in place) and returns the transcript."""
    _need("start" not in transcript, "The game has already started.")
    records = transcript.pop("records")  # re-inserted after the start so the keys read in the order of events
    transcript["start"] = dict(start)
    transcript["start_signature"] = sign_record(private_key, start)
    transcript["records"] = records
    return transcript


def chain_head(transcript: Mapping[str, Any]) -> tuple[int, str]:
    """(the next sequence number, the hash the next record must carry as "prev")."""
    records = transcript.get("records") or []
    if records:
        return records[-1]["seq"] + 1, record_hash(records[-1])
    anchor = transcript["start"] if transcript.get("start") is not None else transcript["commit"]
    return 1, record_hash(anchor)


def append_move(transcript: dict, seat: int, by: str, move_json: Mapping[str, Any],
                at: str | None = None, *, salt: str) -> tuple[dict, str]:
    """Appends a move record (in place); returns (the record, its receipt)."""
    _need("start" in transcript, "No move before the game starts.")
    _need("end" not in transcript, "The game has ended.")
    seq, prev = chain_head(transcript)
    record = make_move_record(prev, seq, seat, by, move_json, at, salt=salt)
    transcript["records"].append(record)
    return record, record_hash(record)


def finish(private_key: Any, transcript: dict, reason: str, server_seed: bytes,
           result: Mapping[str, Any] | None, ended: str) -> dict:
    """Appends the end record revealing the seed and the final signature (in place); returns the transcript."""
    _need("end" not in transcript, "The game has already ended.")
    seq, prev = chain_head(transcript)
    transcript["end"] = make_end(prev, seq, reason, server_seed, result, ended)
    transcript["signature"] = sign_transcript(private_key, transcript)
    return transcript


def public_view(transcript: Mapping[str, Any]) -> dict:
    """The transcript as anyone may see it: a deep copy of the documented keys only. While the game runs there
    is no "end", so no server seed; anything else a store keeps beside the transcript is dropped.
    Note: move records name every move, thrown cards included; a service that hides thrown cards must not
    publish the records of a game in progress to other seats (docs/transcript.md, "Public view")."""
    allowed = ("protocol", "commit", "commit_signature", "start", "start_signature", "records", "end",
               "signature")
    out = {k: copy.deepcopy(transcript[k]) for k in allowed if k in transcript}
    if "end" not in out:
        out.pop("signature", None)
    return out


# ------------------------------------------------------------------------------------------- parsing

def _reject_float(text: str) -> Any:
    raise TranscriptError(f"A transcript holds integers only; {text} is not one.")


def _reject_constant(text: str) -> Any:
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


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict:
    out = dict(pairs)
    if len(out) != len(pairs):      # a key repeated: name the first repeat
        seen: set[str] = set()
        for k, _ in pairs:
            if k in seen:
                raise TranscriptError(f"The key {k!r} appears twice in one object.")
            seen.add(k)
    return out


def _load(data: bytes | str, big_ints: _BigInts | None = None) -> Any:
    if isinstance(data, (bytes, bytearray)):
        try:
            data = bytes(data).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise TranscriptError(f"A transcript is UTF-8 JSON; byte {exc.start} is not UTF-8.") from None
    if not data.strip():
        raise TranscriptError("The transcript is empty.")
    try:
        return json.loads(data, parse_float=_reject_float, parse_constant=_reject_constant,
                          object_pairs_hook=_no_duplicates, parse_int=big_ints or int)
    except json.JSONDecodeError as exc:
        if exc.pos >= len(data.rstrip()):
            raise TranscriptError("The transcript is not complete JSON: it ends early (truncated?).") from None
        raise TranscriptError(f"The transcript is not valid JSON: {exc.msg} at line {exc.lineno} "
                              f"column {exc.colno}.") from None
    except RecursionError:
        raise TranscriptError("The transcript is nested too deeply to be one.") from None
    except ValueError as exc:  # e.g. an integer with more digits than Python reads
        raise TranscriptError(f"The transcript could not be read as JSON: {exc}.") from None


_STR, _INT, _BOOL, _OBJ, _LIST, _HEX = "text", "integer", "true or false", "object", "list", "64 hex digits"


def _is(value: Any, kind: str) -> bool:
    if kind == _STR:
        return isinstance(value, str)
    if kind == _INT:
        return type(value) is int
    if kind == _BOOL:
        return isinstance(value, bool)
    if kind == _OBJ:
        return isinstance(value, dict)
    if kind == _LIST:
        return isinstance(value, list)
    if kind == _HEX:
        return isinstance(value, str) and bool(_HEX64.match(value))
    raise AssertionError(kind)


def _fields(obj: Any, where: str, required: dict[str, str | tuple[str, ...]],
            optional: dict[str, str | tuple[str, ...]] | None = None) -> None:
    """Checks an object's keys and value kinds (a tuple of kinds allows each; None in it allows null)."""
    if not isinstance(obj, dict):
        raise TranscriptError(f"{where} is not a JSON object.")
    optional = optional or {}
    for key in obj:
        if key not in required and key not in optional:
            raise TranscriptError(f"{where} has an unknown field {key!r}.")
    for key, kinds in {**required, **optional}.items():
        if key not in obj:
            if key in required:
                raise TranscriptError(f"{where} has no {key!r}.")
            continue
        kinds = kinds if isinstance(kinds, tuple) else (kinds,)
        value = obj[key]
        if not any(value is None if k is None else _is(value, k) for k in kinds):
            names = " or ".join("null" if k is None else k for k in kinds)
            raise TranscriptError(f"{where}.{key} should be {names}.")


def _check_type(obj: dict, where: str, expected: str) -> None:
    if obj.get("type") != expected:
        raise TranscriptError(f"{where}.type should be {expected!r}, not {obj.get('type')!r}.")


def _parse_rules(rules: Any, where: str) -> None:
    _fields(rules, where, {"id": _STR, "players": _INT, "settings": _OBJ, "version": _INT})


_MOVE_REQUIRED = {"type": _STR, "seq": _INT, "prev": _HEX, "seat": _INT, "by": _STR, "move": _OBJ, "salt": _HEX}
_MOVE_OPTIONAL = {"at": _STR}
_MOVE_MUST = frozenset(_MOVE_REQUIRED)
_MOVE_MAY = _MOVE_MUST | frozenset(_MOVE_OPTIONAL)


def _is_hex64(value: Any) -> bool:
    return type(value) is str and len(value) == 64 and _HEX64.match(value) is not None


def _plain_move_record(rec: Any) -> bool:
    """True when a move record passes every check parse_transcript makes of it (a quick test, for the records
    are most of a transcript). Anything else takes the full checks, whose messages say what is wrong."""
    return (type(rec) is dict and _MOVE_MUST <= rec.keys() <= _MOVE_MAY and rec["type"] == "move"
            and type(rec["type"]) is str and type(rec["seq"]) is int and type(rec["seat"]) is int
            and type(rec["by"]) is str and rec["by"] in BY and type(rec["move"]) is dict
            and _is_hex64(rec["prev"]) and _is_hex64(rec["salt"]) and type(rec.get("at", "")) is str)


def parse_transcript(data: bytes | str | Mapping[str, Any]) -> dict:
    """Reads and structurally validates a transcript (JSON bytes, text, or an already-decoded object).
    Returns the transcript as a dict (a deep copy for dict input). Raises TranscriptError with a clear message
    for anything that is not a readable fairdeal/1 transcript. Hashes, signatures and the commitment are
    not checked here: the check_* functions report those."""
    # Every value must have a canonical form, or hashing it later would fail. JSON bytes need no walk over every
    # value unless they hold an integer out of range or a surrogate escape: the parser refuses floats, NaN and
    # Infinity, and object keys are always texts.
    walk = True
    if isinstance(data, Mapping):
        try:
            obj = copy.deepcopy(dict(data))
        except RecursionError:
            raise TranscriptError("The transcript is nested too deeply to be one.") from None
    elif isinstance(data, (bytes, bytearray, str)):
        big_ints = _BigInts()
        obj = _load(data, big_ints)
        walk = big_ints.seen or not isinstance(data, (bytes, bytearray)) or _SURROGATE_ESCAPE.search(data) is not None
    else:
        raise TranscriptError(f"A transcript is JSON text or an object, not {type(data).__name__}.")
    try:
        if walk:
            canonical_json(obj)
    except ValueError as exc:
        raise TranscriptError(f"The transcript holds a value that has no canonical JSON form: {exc}.") from None
    except RecursionError:
        raise TranscriptError("The transcript is nested too deeply to be one.") from None
    if not isinstance(obj, dict) or ("protocol" not in obj and "commit" not in obj):
        raise TranscriptError("This is not a fairdeal transcript (no \"protocol\" and no \"commit\").")
    protocol = obj.get("protocol")
    if protocol != PROTOCOL:
        raise TranscriptError(f"This transcript uses protocol {protocol!r}; this verifier knows {PROTOCOL!r} only.")
    _fields(obj, "The transcript",
            {"protocol": _STR, "commit": _OBJ, "commit_signature": _STR, "records": _LIST},
            {"start": _OBJ, "start_signature": _STR, "end": _OBJ, "signature": _STR})
    if ("start" in obj) != ("start_signature" in obj):
        raise TranscriptError("The transcript has a start record without its signature, or the other way round.")

    commit = obj["commit"]
    _fields(commit, "commit", {"type": _STR, "protocol": _STR, "game_id": _STR, "rules": _OBJ,
                               "commitment": _HEX, "key": _STR, "created": _STR})
    _check_type(commit, "commit", "commit")
    _parse_rules(commit["rules"], "commit.rules")

    if "start" in obj:
        start = obj["start"]
        _fields(start, "start", {"type": _STR, "protocol": _STR, "game_id": _STR, "rules": _OBJ,
                                 "commitment": _HEX, "seats": _LIST, "clocks": _OBJ, "key": _STR,
                                 "started": _STR})
        _check_type(start, "start", "start")
        _parse_rules(start["rules"], "start.rules")
        for i, seat in enumerate(start["seats"]):
            _fields(seat, f"start.seats[{i}]", {"seat": _INT, "name": _STR, "bot": _BOOL,
                                                "client_seed": (_STR, None)})
        for name, value in start["clocks"].items():
            if not (value is None or type(value) is int):
                raise TranscriptError(f"start.clocks.{name} should be an integer or null.")
    elif obj["records"]:
        raise TranscriptError("The transcript has moves but no start record.")

    for i, rec in enumerate(obj["records"]):
        if _plain_move_record(rec):
            continue
        where = f"records[{i}]"
        _fields(rec, where, _MOVE_REQUIRED, _MOVE_OPTIONAL)
        _check_type(rec, where, "move")
        if rec["by"] not in BY:
            raise TranscriptError(f"{where}.by should be one of {', '.join(BY)}, not {rec['by']!r}.")

    if "end" in obj:
        end = obj["end"]
        _fields(end, "end", {"type": _STR, "seq": _INT, "prev": _HEX, "reason": _STR, "server_seed": _HEX,
                             "result": (_OBJ, None), "ended": _STR})
        _check_type(end, "end", "end")
        if end["reason"] not in REASONS:
            raise TranscriptError(f"end.reason should be one of {', '.join(REASONS)}, not {end['reason']!r}.")
    elif "signature" in obj:
        raise TranscriptError("The transcript has a final signature but no end record.")
    return obj


# ------------------------------------------------------------------------------------------- checking

def check_header(transcript: Mapping[str, Any]) -> list[str]:
    """The start record repeats the commit's protocol, game, rules, commitment and key; seats are numbered
    0..n-1 for the rules' n players; bots have no client seed; client seeds are valid."""
    problems: list[str] = []
    commit, start = transcript["commit"], transcript.get("start")
    for rec, name in ((commit, "commit"), (start, "start")):
        if rec is not None and rec["protocol"] != transcript["protocol"]:
            problems.append(f"The {name} record names protocol {rec['protocol']!r}, the transcript "
                            f"{transcript['protocol']!r}.")
    if start is None:
        return problems
    for field in ("game_id", "rules", "commitment", "key"):
        if start[field] != commit[field]:
            problems.append(f"The start record's {field} differs from the commit record's.")
    seats = start["seats"]
    if [s["seat"] for s in seats] != list(range(len(seats))):
        problems.append("The seats are not numbered 0, 1, 2, ... in order.")
    if len(seats) != commit["rules"]["players"]:
        problems.append(f"The rules are for {commit['rules']['players']} players but {len(seats)} seats are "
                        f"listed.")
    for s in seats:
        if s["bot"] and s["client_seed"] is not None:
            problems.append(f"Seat {s['seat']} is a bot but has a client seed.")
        if s["client_seed"] is not None:
            try:
                validate_client_seed(s["client_seed"])
            except ValueError as exc:
                problems.append(f"Seat {s['seat']}'s client seed is not valid: {exc}")
    return problems


def check_chain(transcript: Mapping[str, Any], *, parsed: bool = False) -> list[str]:
    """Sequence numbers run 1, 2, ... without gap (the end's too) and each record's "prev" is the hash of the
    record before it (the first one's: the start record, or the commit record if the game never started).
    parsed=True: the transcript is parse_transcript's output, already validated (the same hashes, faster)."""
    hash_of = _parsed_record_hash if parsed else record_hash
    problems: list[str] = []
    start = transcript.get("start")
    anchor = start if start is not None else transcript["commit"]
    prev_hash = hash_of(anchor)
    chained = list(transcript.get("records") or [])
    if transcript.get("end") is not None:
        chained.append(transcript["end"])
    for i, rec in enumerate(chained, start=1):
        name = "The end record" if rec.get("type") == "end" else f"Move record {i}"
        if rec.get("seq") != i:
            problems.append(f"{name} has sequence number {rec.get('seq')!r}; {i} was expected.")
        if rec.get("prev") != prev_hash:
            before = "the start record" if i == 1 and start is not None else (
                "the commit record" if i == 1 else f"record {i - 1}")
            problems.append(f"{name} does not carry the hash of {before} (the chain is broken there).")
        prev_hash = hash_of(rec)
    return problems


def check_signatures(transcript: Mapping[str, Any], public_key_text: str | None = None) -> list[str]:
    """The commit, start and final signatures verify under the server key. With `public_key_text` (a pinned
    key) the transcript's key must be that key; without, the key named in the commit record is used."""
    problems: list[str] = []
    commit = transcript["commit"]
    key = commit.get("key")
    if public_key_text is not None and key != public_key_text:
        problems.append(f"The transcript is signed by key {key!r}, not by the pinned key {public_key_text!r}.")
        key = public_key_text
    try:
        keys.load_public_key(key)
    except ValueError as exc:
        return problems + [f"The signing key cannot be read: {exc}"]
    if not keys.verify(key, canonical_json(commit), transcript.get("commit_signature")):
        problems.append("The commit record's signature is not valid.")
    start = transcript.get("start")
    if start is not None:
        if start.get("key") != commit.get("key"):
            problems.append("The start record names another key than the commit record.")
        if not keys.verify(key, canonical_json(start), transcript.get("start_signature")):
            problems.append("The start record's signature is not valid.")
    if "signature" in transcript:
        if not keys.verify(key, transcript_body(transcript), transcript["signature"]):
            problems.append("The transcript's final signature is not valid.")
    elif transcript.get("end") is not None:
        problems.append("The game has ended but the transcript has no final signature.")
    return problems


def check_commitment(transcript: Mapping[str, Any]) -> list[str]:
    """The revealed server seed matches the commitment published before the game (and repeated at start)."""
    end = transcript.get("end")
    if end is None:
        return ["The game has not ended: the server seed is not revealed yet, so the commitment cannot be checked."]
    commit = transcript["commit"]
    try:
        seed = server_seed_from_hex(end["server_seed"])
        expected = compute_commitment(seed, commit["game_id"], commit["rules"])
    except (ValueError, KeyError, TypeError) as exc:
        return [f"The commitment cannot be recomputed: {exc}"]
    if expected != commit["commitment"]:
        return ["The revealed server seed does not match the commitment published before the game."]
    return []


def check_transcript(transcript: Mapping[str, Any], public_key_text: str | None = None) -> list[str]:
    """All the checks above, in order: header, chain, signatures, commitment."""
    return (check_header(transcript) + check_chain(transcript)
            + check_signatures(transcript, public_key_text) + check_commitment(transcript))
