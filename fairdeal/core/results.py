"""What `fairdeal-verify` finds, as data: the checks it runs (stable ids), each one's result, the report.

A `Check` is a check id, a status (pass, fail, skip), a `code` naming what was found, the record it is about
(`seq`) and the facts (`fields`); its sentence (`detail`) is rendered from them by fairdeal.core.messages.
The text report, the JSON report and the --explain story all render these; none of them reads a sentence back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from fairdeal.core import keys
from fairdeal.core.messages import render

# (id, what it checks), in the order they are reported. docs/verify.md lists them; a program may rely on them.
CHECKS: tuple[tuple[str, str], ...] = (
    ("protocol", "the transcript names a protocol version this verifier knows"),
    ("signature-start", "the commitment, the seating and the start record are signed by the server's key"),
    ("signature-transcript", "the whole transcript is signed by the server's key"),
    ("header", "the seating and start records repeat the committed game, rules and key, and seat the rules' players"),
    ("commitment", "the revealed server seed matches the commitment published before the game"),
    (
        "client-seeds",
        "every revealed client seed is the one its seat committed to, and all are bound into the game seed",
    ),
    (
        "hash-chain",
        "every record carries the hash of the record before it, numbered without gaps, with the salt the seed derives",
    ),
    ("blind-messages", "blind table: every seat's messages are in form and signed, and every secret opens its commit"),
    ("blind-deal", "blind table: every shuffle, lock and key release is the one its seat's revealed secret gives"),
    ("blind-opens", "blind table: every card played was opened by its holder with the keys of the final deck"),
    ("blind-blame", "blind table: every seat the end names at fault is at fault in the messages (no seat is framed)"),
    ("deals", "the first dealer and every deal, re-derived from the seed, hold the cards the moves use"),
    ("moves-legal", "every move was legal in its turn, written in its one form"),
    ("bot-moves", "every bot move is what the bot policy chooses from that bot's own view"),
    ("timeout-moves", "every timeout move is what the timeout policy chooses, at a table with a clock"),
    ("result", "the final scores and winner are the replay's"),
    ("receipts", "the receipts given are in the hash chain"),
    (
        "log-inclusion",
        "the game's commitment and ending are in the transparency log, under the signed tree head "
        "the transcript carries",
    ),
    ("commitment-noted", "the commitment you noted before the game (--commitment) is this transcript's"),
)
CHECK_IDS = tuple(cid for cid, _ in CHECKS)
TITLES = dict(CHECKS)
REPLAY_CHECKS = ("deals", "moves-legal", "bot-moves", "timeout-moves", "result")

PASS, FAIL, SKIP = "pass", "fail", "skip"


@dataclass(frozen=True)
class Check:
    id: str  # the check
    status: str  # "pass" | "fail" | "skip"
    code: str  # what was found (a key of fairdeal.core.messages.MESSAGES)
    seq: int | None = None  # the record it is about, when there is one (the sentences' {seq})
    fields: Mapping[str, Any] = field(default_factory=dict)  # the other facts the sentence is made from

    @property
    def detail(self) -> str:
        return render(self.code, {"seq": self.seq, **self.fields})

    @property
    def failed(self) -> bool:
        return self.status == FAIL

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": TITLES.get(self.id, self.id),
            "status": self.status,
            "code": self.code,
            "seq": self.seq,
            "fields": dict(self.fields),
            "detail": self.detail,
        }


def passed(cid: str, code: str, seq: int | None = None, **fields: Any) -> Check:
    return Check(cid, PASS, code, seq, fields)


def failed(cid: str, code: str, seq: int | None = None, **fields: Any) -> Check:
    return Check(cid, FAIL, code, seq, fields)


def skipped(cid: str, code: str, **fields: Any) -> Check:
    return Check(cid, SKIP, code, None, fields)


def key_id_or_none(key: str | None) -> str | None:
    try:
        return keys.key_id(key) if key else None
    except ValueError:
        return None


@dataclass
class Report:
    checks: list[Check] = field(default_factory=list)
    game: dict[str, Any] = field(default_factory=dict)
    protocol: str | None = None
    key: str | None = None
    key_source: str | None = None  # "given" (--key) | "pinned" | "transcript" (only its own key)
    signer: dict[str, Any] | None = None  # the trusted key that signed: key_id, origin, created, retired, status
    warnings: list[str] = field(default_factory=list)
    unusable: str | None = None  # why the input could not be used (exit status 2)

    def check(self, cid: str) -> Check | None:
        return next((c for c in self.checks if c.id == cid), None)

    @property
    def failed(self) -> list[Check]:
        return [c for c in self.checks if c.status == FAIL]

    @property
    def exit_code(self) -> int:
        if self.unusable:
            return 2
        return 1 if self.failed else 0

    @property
    def ok(self) -> bool:
        return self.exit_code == 0

    def to_json(self) -> dict[str, Any]:
        return {
            "report": "fairdeal-verify/2",
            "protocol": self.protocol,
            "ok": self.ok,
            "exit_code": self.exit_code,
            "error": self.unusable,
            "game": self.game,
            "key": {
                "key": self.key,
                "key_id": key_id_or_none(self.key),
                "source": self.key_source,
                **_signer_facts(self.signer),
            },
            "warnings": list(self.warnings),
            "checks": [c.to_json() for c in self.checks],
            "failed": [c.id for c in self.failed],
        }


def _signer_facts(signer: Mapping[str, Any] | None) -> dict[str, Any]:
    """The key set's facts about the signing key: where it was given, its times, and whether it was current at
    the game's time (keysets.TrustedKey.status_at)."""
    if signer is None:
        return {}
    return {k: signer[k] for k in ("origin", "created", "retired", "status", "game_time")}
