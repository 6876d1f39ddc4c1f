"""The check of a blind game's abort record (docs/blind.md, "Aborts"): when the server ended a game because a seat
did not send a step or a move in time, the transcript's `blind.abort` says which seat, which message, after which
message of the log it was due and when the deadline passed. The verifier holds the blame to what the transcript
shows, so the server cannot frame a seat that did send, or that was not the one the table waited for:

- the record is in its form (else `stall-unknown`);
- for a stall (`step-timeout`, `move-timeout`): the blamed message is in no place of the log, nor a forgery in its
  name; the log holds no reveal before `after` and nothing but reveals from there; it was the seat's step (the
  order of the deal, from the steps in before `after`) or its turn (the records replayed without the hands:
  fairdeal.core.blind.hidden); and deadline <= at <= the end's time, the deadline no earlier than the table's own
  clock allows from the last time the transcript shows (else `stall-framed`, the server's fault).

Any other abort (a seat that left, a wrong open, a revoke) is blamed by what the messages or the rules replay show
(verify.py); only its form is checked here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import datetime, timezone
from typing import Any

from fairdeal.core.blind.check import Audit, Finding
from fairdeal.core.blind.hidden import blind_live_game
from fairdeal.core.blind.order import waiting_after

STEP_TIMEOUT, MOVE_TIMEOUT = "step-timeout", "move-timeout"
STALLS = (STEP_TIMEOUT, MOVE_TIMEOUT)
MOVE_FAULTS = {"revoke": "moves-legal", "bad-timeout-move": "timeout-moves"}  # why -> the replay check that shows it
DEAL_STEPS = ("shuffle", "lock", "release")
# why -> the steps an abort of that why may name
WHYS: dict[str, tuple[str, ...]] = {
    STEP_TIMEOUT: DEAL_STEPS,
    MOVE_TIMEOUT: ("move",),
    "left": (*DEAL_STEPS, "move", "leave"),
    "bad-open": ("move",),
    "revoke": ("move",),
    "bad-timeout-move": ("move",),
}
REQUIRED = ("seat", "why", "deal", "step", "after", "at", "deadline")
SLACK = 0.01  # seconds: the service writes its times to the thousandth, cut; another writer may cut more

# why a stall blame does not hold: reason -> the sentence the report gives
FRAMED = {
    "present": "its message is in the log",
    "forged": "the log holds a message in its name that it did not sign in that place (the server's doing)",
    "after": "the log does not split at 'after' into the messages before the abort and the reveals after it",
    "records": "the records cannot be replayed to the abort",
    "game-over": "the game's last hand was over: no step or move was due",
    "not-this-deal": "that deal was not the one in play",
    "not-due": "the deal was not waiting for that seat's step then",
    "deal-not-ready": "the deal's steps were not all in: no move was due",
    "not-next-move": "'seq' is not the move after the last record",
    "not-their-turn": "it was another seat's turn",
    "open-present": "the log holds the open of a card it played that no record has",
    "before-deadline": "'at' is before 'deadline'",
    "after-end": "'at' is after the game's end",
    "deadline-too-early": "the deadline is earlier than the table's clock allows",
}


class BadAbort(ValueError):
    pass


UTC_TIME = re.compile(r"(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(\.\d{1,9})?Z")


def time_of(text: Any, name: str) -> float:
    """A time as the transcript writes it, YYYY-MM-DDTHH:MM:SS[.fraction]Z (UTC), in seconds since the epoch."""
    found = UTC_TIME.fullmatch(text) if isinstance(text, str) else None
    if found is None:
        raise BadAbort(f"'{name}' {text!r:.40} is no ISO 8601 UTC time (YYYY-MM-DDTHH:MM:SS[.fraction]Z).")
    try:
        y, mo, d, h, mi, sec = (int(x) for x in found.groups()[:6])
        whole = datetime(y, mo, d, h, mi, sec, tzinfo=timezone.utc)
    except ValueError:
        raise BadAbort(f"'{name}' {text!r:.40} is no ISO 8601 UTC time.") from None
    return whole.timestamp() + float(found.group(7) or 0)


def _int(record: Mapping[str, Any], name: str, low: int, high: int | None = None) -> int:
    v = record.get(name)
    if type(v) is not int or v < low or (high is not None and v > high):
        raise BadAbort(f"'{name}' is an integer from {low}" + ("" if high is None else f" to {high}") + ".")
    return v


def read_abort(record: Any, seats: int, messages: int, size: int) -> dict[str, Any]:
    """The abort record checked for its form (docs/blind.md, "Aborts"); BadAbort says what is wrong."""
    if not isinstance(record, Mapping):
        raise BadAbort("The abort record is a JSON object.")
    why, step = record.get("why"), record.get("step")
    if why not in WHYS:
        raise BadAbort(f"'why' is one of {', '.join(WHYS)}.")
    if step not in WHYS[why]:
        raise BadAbort(f"An abort of why {why!r} names the step {' or '.join(WHYS[why])}.")
    allowed = {*REQUIRED, *(("seq",) if step == "move" else ()), *(("position",) if why == "bad-open" else ())}
    if set(record) != allowed:
        raise BadAbort(
            f"An abort of why {why!r} and step {step!r} has exactly the members {', '.join(sorted(allowed))}."
        )
    _int(record, "seat", 0, seats - 1)
    _int(record, "deal", 0)
    _int(record, "after", 0, messages)
    if step == "move":
        _int(record, "seq", 1)
    if why == "bad-open":
        _int(record, "position", 0, size - 1)
    time_of(record["at"], "at")
    if why in STALLS:
        time_of(record["deadline"], "deadline")
    elif record["deadline"] is not None:
        raise BadAbort(f"An abort of why {why!r} names no deadline: 'deadline' is null.")
    return dict(record)


def check(t: Mapping[str, Any], audit: Audit, game_seed: bytes, size: int) -> Finding | None:
    """The verdict on the transcript's abort record: None when there is none; `stall-unknown` when it is not in
    its form; for a stall, `stall-ok` (the blamed seat named, as the messages show it) or `stall-framed`; for any
    other abort, `abort-ok` (its blame is held to the other checks)."""
    blind, seats = t["blind"], t["commit"]["rules"]["players"]
    if "abort" not in blind:
        return None
    messages = blind["messages"]
    try:
        a = read_abort(blind["abort"], seats, len(messages), size)
    except BadAbort as exc:
        return Finding("stall-unknown", None, None, {"reason": str(exc)})
    facts = {"blamed": a["seat"], "why": a["why"], "step": a["step"]}
    if a["why"] not in STALLS:
        return Finding("abort-ok", a["seat"], a["deal"], facts)
    try:
        reason = _framed(t, a, audit, game_seed)
    except BadAbort as exc:  # a time of the transcript that is no time
        return Finding("stall-unknown", None, a["deal"], {"reason": str(exc)})
    if reason is not None:
        return Finding("stall-framed", None, a["deal"], {**facts, "reason": reason, "because": FRAMED[reason]})
    return Finding("stall-ok", a["seat"], a["deal"], facts)


def _framed(t: Mapping[str, Any], a: Mapping[str, Any], audit: Audit, game_seed: bytes) -> str | None:
    """Why the stall blame does not hold (a key of FRAMED), or None when it does."""
    messages, seats = t["blind"]["messages"], t["commit"]["rules"]["players"]
    seat, k, step, after = a["seat"], a["deal"], a["step"], a["after"]
    kind = "open" if step == "move" else step
    if step != "move" and (step, seat, k) in audit.where:
        return "present"
    if (kind, seat, k) in audit.forged:
        return "forged"
    types = [m.get("type") for m in messages]
    if "reveal" in types[:after] or any(x != "reveal" for x in types[after:]):
        return "after"
    try:
        game, plays = _replayed(t, game_seed)
    except Exception:  # noqa: BLE001 - records the engine cannot apply: the records' own checks name them
        return "records"
    state = game.state
    if state.is_over:
        return "game-over"
    if state.hand_number != k:
        return "not-this-deal"
    done = {(key[0], key[1]) for key, i in audit.where.items() if key[0] in DEAL_STEPS and key[2] == k and i < after}
    waiting = waiting_after(done, seats)
    if step == "move":
        if waiting is not None:
            return "deal-not-ready"
        if a["seq"] != len(t["records"]) + 1:
            return "not-next-move"
        if state.to_move != seat:
            return "not-their-turn"
        opened = sum(1 for key in audit.where if key[0] == "open" and key[1] == seat and key[2] == k)
        if opened > plays.get((seat, k), 0):
            return "open-present"
    elif waiting is None or waiting[0] != step or seat not in waiting[1]:
        return "not-due"
    return _late(t, a, game)


def _replayed(t: Mapping[str, Any], game_seed: bytes) -> tuple[Any, dict[tuple[int, int], int]]:
    """The records replayed without the hands (whose turn, which deal) and the plays of each (seat, deal)."""
    game = blind_live_game(t["start"], game_seed)
    plays: dict[tuple[int, int], int] = {}
    for record in t["records"]:
        if record["move"].get("kind") == "play":
            key = (record["seat"], game.state.hand_number)
            plays[key] = plays.get(key, 0) + 1
        game.apply_record(record, chain=False, policies=False)
    return game, plays


def _late(t: Mapping[str, Any], a: Mapping[str, Any], game: Any) -> str | None:
    """The times: deadline <= at <= the end; the deadline no earlier than the last time the transcript shows before
    the message was due plus the table's clock for it (the grace period the service adds is not in the transcript:
    a lower bound)."""
    at, deadline = time_of(a["at"], "at"), time_of(a["deadline"], "deadline")
    if deadline > at:
        return "before-deadline"
    if at > time_of(t["end"]["ended"], "end.ended"):
        return "after-end"
    clocks, records = t["start"].get("clocks") or {}, t["records"]
    if a["step"] == "move":
        kind = game.decision_kind(a["seat"])
        secs = clocks.get(kind) if kind in game.clocked else None
        if secs is None:  # no clock: the service's silence limit runs from the last human move
            since, secs = _last_time(t, [r for r in records if r.get("by") == "player"]), 0
        else:
            since = _last_time(t, records)
    else:
        other = clocks.get("other")
        since, secs = _last_time(t, records), other if type(other) is int else 0
    return "deadline-too-early" if deadline + SLACK < since + secs else None


def _last_time(t: Mapping[str, Any], records: Sequence[Mapping[str, Any]]) -> float:
    """The time of the last of these records that gives one, else the start's."""
    for record in reversed(records):
        if isinstance(record.get("at"), str):
            return time_of(record["at"], "at")
    return time_of(t["start"]["started"], "start.started")
