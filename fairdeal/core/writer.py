"""Writing a transcript: the records, their signatures and the chain, step by step (the service's path).

docs/transcript.md specifies every record. Every builder refuses what the format does not allow (ValueError with
the sentence) and changes nothing when it refuses, so a writer cannot produce a record the checks would fail for
its form: a revealed client seed that does not match its commitment, a bot with a seed, a timeout move at a table
without clocks. The protocol of every record is the commit record's: a game begun under fairdeal/1 ends under it.

Building: make_commit, make_seating (+ seating_seat), make_start (+ make_seat / start_seat), make_move_record,
make_end; or the helpers new_transcript, add_seating, add_start, append_move, finish.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any, cast

from fairdeal.core import keys
from fairdeal.core.canonical import canonical_json
from fairdeal.core.fairness import (
    PROTOCOL,
    PROTOCOLS,
    SEED_BYTES,
    client_seed_commitment,
    is_hex64,
    validate_client_seed,
    validate_nonce,
)
from fairdeal.core.transcript import BY, HEADERS, REASONS, anchor_name, clocked_kinds, record_hash, transcript_body

__all__ = [
    "make_commit",
    "make_seat",
    "seating_seat",
    "start_seat",
    "make_seating",
    "make_start",
    "make_move_record",
    "make_end",
    "sign_record",
    "sign_transcript",
    "new_transcript",
    "add_seating",
    "add_start",
    "chain_head",
    "append_move",
    "finish",
    "reveal_outcome",
]


def _need(ok: bool, message: str) -> None:
    if not ok:
        raise ValueError(message)


def _is_int(value: Any) -> bool:
    return type(value) is int


def _text(value: Any, what: str) -> str:
    _need(isinstance(value, str), f"'{what}' is an ISO 8601 time text.")
    return cast(str, value)


# ------------------------------------------------------------------------------------------- records


def make_commit(
    game_id: str,
    rules: Mapping[str, Any],
    commitment: str,
    key: str,
    created: str,
    *,
    protocol: str = PROTOCOL,
    deal_layout: str | None = None,
    board: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The commit record. `rules` is Rules.to_json(); `key` a public key text ("ed25519:..."); fairdeal/2 names
    the rule set's deal layout (Rules.deal_layout, an id docs/rules spells out)."""
    _need(protocol in PROTOCOLS, f"Unknown protocol {protocol!r}.")
    _need(isinstance(game_id, str) and bool(game_id), "A game id is a non-empty text.")
    _need(is_hex64(commitment), "A commitment is 64 lowercase hex digits.")
    keys.load_public_key(key)
    _text(created, "created")
    record: dict[str, Any] = {"type": "commit", "protocol": protocol, "game_id": game_id, "rules": dict(rules)}
    if protocol != "fairdeal/1":
        _need(isinstance(deal_layout, str) and bool(deal_layout), "A fairdeal/2 commit names its deal layout.")
        record["deal_layout"] = deal_layout
    record.update(commitment=commitment, key=key, created=created)
    if board is not None:  # a duplicate tournament's table (docs/tournaments.md, "Tables")
        _need(protocol != "fairdeal/1", "Only a fairdeal/2 game can be a tournament table.")
        record["board"] = dict(board)
    canonical_json(record)
    return record


def _seat_basics(seat: Any, name: Any, bot: Any) -> None:
    _need(_is_int(seat) and seat >= 0, "A seat number is a non-negative integer.")
    _need(isinstance(name, str), "A seat's name is a text.")
    _need(isinstance(bot, bool), "'bot' is true or false.")


def make_seat(seat: int, name: str, bot: bool, client_seed: str | None = None) -> dict[str, Any]:
    """fairdeal/1: one entry of start["seats"], its client seed in clear. A bot has no client seed."""
    _seat_basics(seat, name, bot)
    if client_seed is not None:
        _need(not bot, "A bot has no client seed.")
        validate_client_seed(client_seed)
    return {"seat": seat, "name": name, "bot": bot, "client_seed": client_seed}


def seating_seat(seat: int, name: str, bot: bool, client_seed_commitment: str | None = None) -> dict[str, Any]:
    """fairdeal/2: one entry of seating["seats"]: who sits there and the commitment to its client seed (or None)."""
    _seat_basics(seat, name, bot)
    if client_seed_commitment is not None:
        _need(not bot, "A bot has no client seed.")
        _need(is_hex64(client_seed_commitment), "A client seed commitment is 64 lowercase hex digits.")
    return {"seat": seat, "name": name, "bot": bot, "client_seed_commitment": client_seed_commitment}


def start_seat(
    game_id: str,
    seat: int,
    name: str,
    bot: bool,
    client_seed_commitment: str | None = None,
    client_seed: str | None = None,
    nonce: str | None = None,
) -> dict[str, Any]:
    """fairdeal/2: one entry of start["seats"]: the seating's entry with the revealed seed and nonce, which must
    open the commitment. A seat that committed to nothing has neither."""
    entry = seating_seat(seat, name, bot, client_seed_commitment)
    if client_seed_commitment is None:
        _need(client_seed is None and nonce is None, f"Seat {seat} committed to no client seed, so it reveals none.")
    else:
        _need(
            client_seed_commitment == client_seed_commitment_of(game_id, client_seed, nonce),
            f"Seat {seat}'s client seed and nonce do not open its commitment.",
        )
    entry.update(client_seed=client_seed, nonce=nonce)
    return entry


def client_seed_commitment_of(game_id: str, client_seed: Any, nonce: Any) -> str:
    validate_client_seed(client_seed)
    validate_nonce(nonce)
    return client_seed_commitment(game_id, client_seed, nonce)


def _header(commit: Mapping[str, Any], kind: str) -> dict[str, Any]:
    """The members every header record after the commit repeats from it."""
    return {
        "type": kind,
        "protocol": commit["protocol"],
        "game_id": commit["game_id"],
        "rules": commit["rules"],
        "commitment": commit["commitment"],
        "key": commit["key"],
    }


def _check_seat_list(commit: Mapping[str, Any], seats: Sequence[Mapping[str, Any]]) -> None:
    _need([s["seat"] for s in seats] == list(range(len(seats))), "Seats are listed in order 0, 1, 2, ...")
    _need(
        len(seats) == commit["rules"]["players"],
        f"The rules are for {commit['rules']['players']} players; {len(seats)} seats were given.",
    )


def make_seating(
    commit: Mapping[str, Any], seats: Sequence[Mapping[str, Any]], reveal_deadline: str | None, seated: str
) -> dict[str, Any]:
    """fairdeal/2: the seating record, written when the host starts the table: every seat (bots included) with
    its commitment, and until when the committed seats may reveal (None when no seat committed)."""
    _need(commit["protocol"] != "fairdeal/1", "fairdeal/1 has no seating record.")
    seat_list = [seating_seat(s["seat"], s["name"], s["bot"], s.get("client_seed_commitment")) for s in seats]
    _check_seat_list(commit, seat_list)
    committed = any(s["client_seed_commitment"] is not None for s in seat_list)
    _need(
        committed == (reveal_deadline is not None),
        "A seating has a reveal deadline exactly when some seat committed to a client seed.",
    )
    if reveal_deadline is not None:
        _text(reveal_deadline, "reveal_deadline")
    record = {
        **_header(commit, "seating"),
        "seats": seat_list,
        "reveal_deadline": reveal_deadline,
        "seated": _text(seated, "seated"),
    }
    canonical_json(record)
    return copy.deepcopy(record)


def make_start(
    commit: Mapping[str, Any],
    seats: Sequence[Mapping[str, Any]],
    clocks: Mapping[str, Any],
    started: str,
    seating: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The start record: the commit's game, rules, commitment and key, the seats in order and the table's clock
    settings (an object of ints or nulls). fairdeal/1: seats as make_seat gives them (client seeds in clear).
    fairdeal/2: seats as start_seat gives them, which must be the `seating` record's seats, each revealed."""
    if commit["protocol"] == "fairdeal/1":
        seat_list = [make_seat(s["seat"], s["name"], s["bot"], s.get("client_seed")) for s in seats]
    else:
        _need(seating is not None, "A fairdeal/2 start follows its seating record.")
        seat_list = [
            start_seat(
                commit["game_id"],
                s["seat"],
                s["name"],
                s["bot"],
                s.get("client_seed_commitment"),
                s.get("client_seed"),
                s.get("nonce"),
            )
            for s in seats
        ]
        _need(
            [{k: s[k] for k in ("seat", "name", "bot", "client_seed_commitment")} for s in seat_list]
            == list(seating["seats"]),  # type: ignore[index]  # _need above refused a missing seating
            "The start record's seats are not the seating record's.",
        )
    _check_seat_list(commit, seat_list)
    _need(
        isinstance(clocks, Mapping) and all(v is None or _is_int(v) for v in clocks.values()),
        "Clock settings are an object of integers or nulls.",
    )
    record = {
        **_header(commit, "start"),
        "seats": seat_list,
        "clocks": dict(clocks),
        "started": _text(started, "started"),
    }
    if commit["protocol"] == "fairdeal/1":  # fairdeal/1's member order, as its transcripts were written
        record = {
            k: record[k]
            for k in ("type", "protocol", "game_id", "rules", "commitment", "seats", "clocks", "key", "started")
        }
    canonical_json(record)
    return copy.deepcopy(record)


def make_move_record(
    prev_hash: str, seq: int, seat: int, by: str, move_json: Mapping[str, Any], at: str | None = None, *, salt: str
) -> dict[str, Any]:
    """One move record. `move_json` is Move.to_json(); `at` an optional ISO 8601 time text; `salt` the record's
    salt (fairness.record_salt): it keeps a face-down move (a throw) from being guessed from the record's hash,
    which every seat sees as a receipt."""
    _need(is_hex64(prev_hash), "'prev' is 64 lowercase hex digits.")
    _need(_is_int(seq) and seq >= 1, "A move's sequence number is an integer from 1.")
    _need(_is_int(seat) and seat >= 0, "A seat number is a non-negative integer.")
    _need(by in BY, f"'by' is one of {', '.join(BY)}.")
    _need(isinstance(move_json, Mapping), "A move is a JSON object.")
    _need(is_hex64(salt), "'salt' is 64 lowercase hex digits.")
    record = {
        "type": "move",
        "seq": seq,
        "prev": prev_hash,
        "seat": seat,
        "by": by,
        "move": copy.deepcopy(dict(move_json)),
        "salt": salt,
    }
    if at is not None:
        record["at"] = _text(at, "at")
    canonical_json(record)
    return record


def make_end(
    prev_hash: str,
    seq: int,
    reason: str,
    server_seed: bytes,
    result: Mapping[str, Any] | None,
    ended: str,
    *,
    protocol: str = PROTOCOL,
    deals: Sequence[tuple[int, int]] | None = None,
    reveals: Sequence[Mapping[str, Any]] | None = None,
    unrevealed: Sequence[int] | None = None,
) -> dict[str, Any]:
    """The end record: it reveals the server seed. `result` is the engine's result, or None.
    fairdeal/2 adds `deals`, every deal's (number, dealer) in order; and, for a table that ended between its
    seating and its start, `reveals` (the seeds and nonces the seats revealed) and `unrevealed` (the committed
    seats that did not reveal)."""
    _need(protocol in PROTOCOLS, f"Unknown protocol {protocol!r}.")
    _need(is_hex64(prev_hash), "'prev' is 64 lowercase hex digits.")
    _need(_is_int(seq) and seq >= 1, "The end's sequence number is an integer from 1.")
    _need(reason in REASONS[protocol], f"The end reason is one of {', '.join(REASONS[protocol])}.")
    _need(
        isinstance(server_seed, (bytes, bytearray)) and len(server_seed) == SEED_BYTES,
        f"The server seed is {SEED_BYTES} bytes.",
    )
    _need(result is None or isinstance(result, Mapping), "The result is a JSON object or null.")
    _text(ended, "ended")
    record: dict[str, Any] = {
        "type": "end",
        "seq": seq,
        "prev": prev_hash,
        "reason": reason,
        "server_seed": bytes(server_seed).hex(),
        "result": None if result is None else copy.deepcopy(dict(result)),
    }
    if protocol != "fairdeal/1":
        deal_list = [{"hand": h, "dealer": d} for h, d in (deals or ())]
        _need(
            all(_is_int(d["hand"]) and _is_int(d["dealer"]) for d in deal_list)
            and [d["hand"] for d in deal_list] == list(range(len(deal_list))),
            "Deals are numbered 0, 1, 2, ... in order, each with its dealer's seat.",
        )
        record["deals"] = deal_list
        _need((reveals is None) == (unrevealed is None), "An end names its reveals and unrevealed seats together.")
        if reveals is not None and unrevealed is not None:  # both or neither, as just checked
            record["reveals"] = [
                {
                    "seat": r["seat"],
                    "client_seed": validate_client_seed(r["client_seed"]),
                    "nonce": validate_nonce(r["nonce"]),
                }
                for r in reveals
            ]
            record["unrevealed"] = list(unrevealed)
        _need(
            (reason == "not-revealed") <= bool(unrevealed),
            "A table ends as not-revealed only when a committed seat did not reveal.",
        )
    else:
        _need(deals is None and reveals is None and unrevealed is None, "fairdeal/1's end has no deals or reveals.")
    record["ended"] = ended
    canonical_json(record)
    return record


def sign_record(private_key: Any, record: Mapping[str, Any]) -> str:
    """The Ed25519 signature (base64url) of the record's canonical JSON."""
    return keys.sign(private_key, canonical_json(record))


def sign_transcript(private_key: Any, transcript: Mapping[str, Any]) -> str:
    """The final signature (base64url) over transcript_body(transcript). Returns the signature text; store it
    as transcript["signature"]."""
    return keys.sign(private_key, transcript_body(transcript))


# ------------------------------------------------------------------------------ step by step (the service)


def new_transcript(private_key: Any, commit: Mapping[str, Any]) -> dict[str, Any]:
    """A transcript holding only the signed commit."""
    return {
        "protocol": commit["protocol"],
        "commit": dict(commit),
        "commit_signature": sign_record(private_key, commit),
        "records": [],
    }


def _add_header(private_key: Any, transcript: dict[str, Any], name: str, record: Mapping[str, Any]) -> dict[str, Any]:
    names = HEADERS[transcript["protocol"]]
    _need(name in names, f"A {transcript['protocol']} transcript has no {name} record.")
    _need(name not in transcript, f"The transcript already has its {name} record.")
    before = names[names.index(name) - 1]
    _need(before in transcript, f"The {name} record follows the {before} record.")
    _need("end" not in transcript, "The game has ended.")
    records = transcript.pop("records")  # re-inserted after the header so the members read in the order of events
    transcript[name] = dict(record)
    transcript[f"{name}_signature"] = sign_record(private_key, record)
    transcript["records"] = records
    return transcript


def add_seating(private_key: Any, transcript: dict[str, Any], seating: Mapping[str, Any]) -> dict[str, Any]:
    """fairdeal/2: adds the signed seating record (in place) and returns the transcript."""
    return _add_header(private_key, transcript, "seating", seating)


def add_start(private_key: Any, transcript: dict[str, Any], start: Mapping[str, Any]) -> dict[str, Any]:
    """Adds the signed start record (in place) and returns the transcript."""
    _need("start" not in transcript, "The game has already started.")
    return _add_header(private_key, transcript, "start", start)


def chain_head(transcript: Mapping[str, Any]) -> tuple[int, str]:
    """(the next sequence number, the hash the next record must carry as "prev")."""
    records = transcript.get("records") or []
    if records:
        return records[-1]["seq"] + 1, record_hash(records[-1])
    return 1, record_hash(transcript[anchor_name(transcript)])


def append_move(
    transcript: dict[str, Any], seat: int, by: str, move_json: Mapping[str, Any], at: str | None = None, *, salt: str
) -> tuple[dict[str, Any], str]:
    """Appends a move record (in place); returns (the record, its receipt)."""
    _need("start" in transcript, "No move before the game starts.")
    _need("end" not in transcript, "The game has ended.")
    if by == "timeout" and transcript["protocol"] != "fairdeal/1":
        _need(bool(clocked_kinds(transcript["start"]["clocks"])), "A table without clocks has no timeout moves.")
    if by == "stand-in":
        _need(transcript["protocol"] != "fairdeal/1", "fairdeal/1 has no stand-in moves.")
        _need(not transcript["start"]["seats"][seat]["bot"], "A stand-in plays a player's seat, not a bot's.")
    seq, prev = chain_head(transcript)
    record = make_move_record(prev, seq, seat, by, move_json, at, salt=salt)
    transcript["records"].append(record)
    return record, record_hash(record)


def reveal_outcome(
    seating: Mapping[str, Any], reveals: Sequence[Mapping[str, Any]]
) -> tuple[list[dict[str, Any]], list[int]]:
    """fairdeal/2, a table that ends between its seating and its start: the reveals (checked against the
    seating's commitments, in seat order) and the committed seats that did not reveal."""
    commitments = {s["seat"]: s["client_seed_commitment"] for s in seating["seats"]}
    by_seat = {}
    for r in reveals:
        seat = r["seat"]
        _need(commitments.get(seat) is not None, f"Seat {seat} committed to no client seed.")
        _need(
            commitments[seat] == client_seed_commitment_of(seating["game_id"], r["client_seed"], r["nonce"]),
            f"Seat {seat}'s client seed and nonce do not open its commitment.",
        )
        by_seat[seat] = {"seat": seat, "client_seed": r["client_seed"], "nonce": r["nonce"]}
    unrevealed = [s for s, c in sorted(commitments.items()) if c is not None and s not in by_seat]
    return [by_seat[s] for s in sorted(by_seat)], unrevealed


def finish(
    private_key: Any,
    transcript: dict[str, Any],
    reason: str,
    server_seed: bytes,
    result: Mapping[str, Any] | None,
    ended: str,
    *,
    deals: Sequence[tuple[int, int]] | None = None,
    reveals: Sequence[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """Appends the end record revealing the seed and the final signature (in place); returns the transcript.
    fairdeal/2: `deals` are the game's deals (state.deals); a table ended after its seating and before its
    start passes the `reveals` it received (the unrevealed seats are worked out from the seating)."""
    _need("end" not in transcript, "The game has already ended.")
    seq, prev = chain_head(transcript)
    protocol = transcript["protocol"]
    extra: dict[str, Any] = {}
    if protocol != "fairdeal/1":
        extra["deals"] = list(deals or ())
        if transcript.get("seating") is not None and "start" not in transcript:
            extra["reveals"], extra["unrevealed"] = reveal_outcome(transcript["seating"], reveals)
        else:
            _need(not reveals, "Reveals belong in the end record only of a table that never started.")
    transcript["end"] = make_end(prev, seq, reason, server_seed, result, ended, protocol=protocol, **extra)
    transcript["signature"] = sign_transcript(private_key, transcript)
    return transcript
