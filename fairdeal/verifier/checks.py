"""The checks of `fairdeal-verify`, one transcript at a time, as data: `verify_transcript` returns a `Report`.

Nothing the server says about itself is trusted: every check recomputes from the transcript's own records with
the protocol's functions (fairdeal.verifier.fairness, fairdeal.verifier.transcript, fairdeal.verifier.keys — the same code the documented
test vectors check) and the rules engine (fairdeal.verifier.replay). This module does no I/O; the command line reads
files, URLs and the pinned keys and hands them in.

The check ids are stable (docs/verify.md lists them); a program may rely on them.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

from fairdeal.verifier import keys
from fairdeal.verifier.canonical import canonical_json, canonical_json_of_parsed
from fairdeal.verifier.fairness import PROTOCOL, game_seed, record_salt, server_seed_from_hex
from fairdeal.verifier.games.base import GameError, Move
from fairdeal.verifier.replay import LiveGame, ReplayError
from fairdeal.verifier.transcript import (TranscriptError, check_chain, check_commitment, check_header, parse_transcript,
                                 record_hash, transcript_body)

# (id, what it checks), in the order they are reported.
CHECKS: tuple[tuple[str, str], ...] = (
    ("protocol", "the transcript names a protocol version this verifier knows"),
    ("signature-start", "the commitment and the start record are signed by the server's key"),
    ("signature-transcript", "the whole transcript is signed by the server's key"),
    ("header", "the start record repeats the committed game, rules and key, and seats the rules' players"),
    ("commitment", "the revealed server seed matches the commitment published before the game"),
    ("client-seeds", "the players' client seeds are valid and bound into the game seed"),
    ("hash-chain", "every record carries the hash of the record before it, numbered without gaps, with the "
                   "salt the seed derives"),
    ("deals", "the first dealer and every deal, re-derived from the seed, hold the cards the moves use"),
    ("moves-legal", "every move was legal in its turn"),
    ("bot-moves", "every bot move is what the bot policy chooses from that bot's own view"),
    ("timeout-moves", "every timeout move is what the timeout policy chooses"),
    ("result", "the final scores and winner are the replay's"),
    ("receipts", "the receipts given are in the hash chain"),
)
CHECK_IDS = tuple(cid for cid, _ in CHECKS)
TITLES = dict(CHECKS)
REPLAY_CHECKS = ("deals", "moves-legal", "bot-moves", "timeout-moves", "result")

PASS, FAIL, SKIP = "pass", "fail", "skip"


@dataclass
class Check:
    id: str
    status: str                  # "pass" | "fail" | "skip"
    detail: str                  # the reason, in a sentence
    seq: int | None = None       # the record where it failed, when there is one

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "title": TITLES.get(self.id, self.id), "status": self.status,
                "detail": self.detail, "seq": self.seq}


@dataclass
class Report:
    checks: list[Check] = field(default_factory=list)
    game: dict[str, Any] = field(default_factory=dict)
    key: str | None = None
    key_source: str | None = None        # "given" (--key) | "pinned" | "transcript" (only its own key)
    warnings: list[str] = field(default_factory=list)
    unusable: str | None = None          # why the input could not be used (exit status 2)

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
            "report": "fairdeal-verify/1",
            "protocol": PROTOCOL,
            "ok": self.ok,
            "exit_code": self.exit_code,
            "error": self.unusable,
            "game": self.game,
            "key": {"key": self.key, "key_id": _key_id(self.key), "source": self.key_source},
            "warnings": list(self.warnings),
            "checks": [c.to_json() for c in self.checks],
            "failed": [c.id for c in self.failed],
        }


def _key_id(key: str | None) -> str | None:
    try:
        return keys.key_id(key) if key else None
    except ValueError:
        return None


# ------------------------------------------------------------------------------------------ the key

def choose_key(transcript_key: Any, given: str | None, pins: Mapping[str, str]) -> tuple[str | None, str, str | None]:
    """Which key the signatures must verify under: (key, source, problem).

    --key wins; else a pinned key (the transcript's key must be one of the pinned keys: a transcript signed by any
    other key fails, which is what catches a transcript re-signed by someone else); else only the transcript's own
    key, which proves nothing about who signed it (the report warns)."""
    if given is not None:
        return given, "given", None
    if pins:
        if transcript_key in pins.values():
            return transcript_key, "pinned", None
        names = ", ".join(f"{name} ({_key_id(k)})" for name, k in sorted(pins.items()))
        return None, "pinned", (f"the transcript is signed by key {_key_id(transcript_key) or transcript_key!r}, "
                                f"which is not a pinned key (pinned: {names})")
    return transcript_key if isinstance(transcript_key, str) else None, "transcript", None


# -------------------------------------------------------------------------------------- the checks

class _Run:
    """One verification: fills a Report check by check."""

    def __init__(self, report: Report):
        self.report = report
        self.done: dict[str, Check] = {}

    def set(self, cid: str, status: str, detail: str, seq: int | None = None) -> None:
        if cid in self.done and self.done[cid].status == FAIL:
            return          # the first failure of a check is the one reported
        self.done[cid] = Check(cid, status, detail, seq)

    def fail(self, cid: str, detail: str, seq: int | None = None) -> None:
        self.set(cid, FAIL, detail, seq)

    def finish(self, receipts_asked: bool) -> None:
        for cid in CHECK_IDS:
            if cid == "receipts" and not receipts_asked and cid not in self.done:
                self.done[cid] = Check(cid, SKIP, "no receipt was given (--receipt SEQ:HASH)")
            if cid not in self.done:
                self.done[cid] = Check(cid, SKIP, "not checked")
        self.report.checks = [self.done[cid] for cid in CHECK_IDS]


def parse_receipt(text: str) -> tuple[int, str]:
    """'SEQ:HASH' -> (seq, hash); ValueError with the sentence otherwise."""
    seq, sep, digest = str(text).partition(":")
    digest = digest.strip().lower()
    if not sep or not seq.strip().isdigit() or len(digest) != 64 or any(ch not in "0123456789abcdef" for ch in digest):
        raise ValueError(f"A receipt is SEQ:HASH, the move's sequence number and the 64 hex digits the server "
                         f"gave back, not {text!r}.")
    return int(seq), digest


def parse_client_seed(text: str) -> tuple[int, str]:
    """'SEAT:SEED' -> (seat, seed)."""
    seat, sep, seed = str(text).partition(":")
    if not sep or not seat.strip().isdigit():
        raise ValueError(f"A client seed to check is SEAT:SEED, e.g. 2:my-lucky-words, not {text!r}.")
    return int(seat), seed


def verify_transcript(data: Any, *, key: str | None = None, pins: Mapping[str, str] | None = None,
                      receipts: Sequence[tuple[int, str]] = (), client_seeds: Sequence[tuple[int, str]] = (),
                      ) -> Report:
    """Every check on one transcript (bytes, text or the decoded JSON object). Never raises for bad input: the
    report says what failed, or (report.unusable) why the input could not be used at all."""
    report = Report()
    run = _Run(report)
    try:
        _verify(run, data, key, pins or {}, receipts, client_seeds)
    except _Unusable as exc:
        report.unusable = exc.message
    except Exception as exc:  # noqa: BLE001 - hostile input must give a report, never a traceback
        report.unusable = f"The transcript could not be checked: {type(exc).__name__}: {exc}"
    run.finish(bool(receipts))
    return report


class _Unusable(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def _verify(run: _Run, data: Any, given_key: str | None, pins: Mapping[str, str],
            receipts: Sequence[tuple[int, str]], client_seeds: Sequence[tuple[int, str]]) -> None:
    report = run.report
    try:
        t = parse_transcript(data)
    except TranscriptError as exc:
        named = _named_protocol(data)
        if named is not None and named != PROTOCOL:
            run.fail("protocol", f"the transcript uses protocol {named!r}; this verifier knows {PROTOCOL!r}")
        raise _Unusable(str(exc)) from None
    run.set("protocol", PASS, f"protocol {PROTOCOL}")
    commit, start, end, records = t["commit"], t.get("start"), t.get("end"), t["records"]
    report.game = _game_summary(t)

    # --- signatures --------------------------------------------------------------------------------------
    key, source, key_problem = choose_key(commit.get("key"), given_key, pins)
    report.key, report.key_source = key, source
    if source == "transcript":
        report.warnings.append(
            "The signatures were checked only against the key the transcript carries, which anyone could have "
            "made: this shows the transcript is intact, not that the service signed it. Give the service's "
            "public key with --key (and --pin to remember it).")
    _check_signatures(run, t, key, key_problem)

    # --- the header and the commitment --------------------------------------------------------------------
    header_problems, seed_problems = [], []
    for problem in check_header(t):
        (seed_problems if "client seed" in problem else header_problems).append(problem)
    if header_problems:
        run.fail("header", " ".join(header_problems))
    else:
        run.set("header", PASS, "the start record repeats the committed game, rules and key" if start else
                "the game was cancelled before it started (no start record)")
    if end is None:
        run.set("hash-chain", *_chain_status(t))
        raise _Unusable("The game has not ended: the server seed is not revealed yet, so it cannot be verified. "
                        "Verify it once it has ended.")
    problems = check_commitment(t)
    if problems:
        run.fail("commitment", " ".join(problems))
    else:
        run.set("commitment", PASS, f"SHA-256 of the revealed seed, game id, rules and protocol is "
                                    f"{commit['commitment'][:16]}..., as committed")

    # --- the chain and the receipts ----------------------------------------------------------------------
    run.set("hash-chain", *_chain_status(t))
    if receipts:
        _check_receipts(run, records, receipts)

    # --- client seeds and the game seed -------------------------------------------------------------------
    server_seed = server_seed_from_hex(end["server_seed"])
    if start is None:
        run.set("client-seeds", PASS, "the game never started: no client seeds")
        for cid in REPLAY_CHECKS:
            run.set(cid, PASS if cid == "result" and end.get("result") is None else SKIP,
                    "the game was cancelled before it started: nothing was dealt or played")
        if end.get("result") is not None:
            run.fail("result", "the game never started but the end record carries a result")
        return
    seeds = [s["client_seed"] for s in start["seats"]]
    seed_of_game = None
    try:
        seed_of_game = game_seed(server_seed, seeds)
    except ValueError as exc:
        seed_problems.append(str(exc))
    for seat, seed in client_seeds:
        if not 0 <= seat < len(seeds):
            seed_problems.append(f"there is no seat {seat}")
        elif seeds[seat] != seed:
            seed_problems.append(f"seat {seat}'s client seed in the transcript is {seeds[seat]!r}, not the "
                                 f"{seed!r} you gave")
    if seed_problems:
        run.fail("client-seeds", "; ".join(seed_problems))
    else:
        given = sum(1 for s in seeds if s is not None)
        mine = f"; yours ({', '.join(f'seat {s}' for s, _ in client_seeds)}) among them" if client_seeds else ""
        run.set("client-seeds", PASS, f"{given} client seed(s) bound with the server seed into game seed "
                                      f"{seed_of_game.hex()[:16]}...{mine}")
    if seed_of_game is None:
        for cid in REPLAY_CHECKS:
            run.set(cid, SKIP, "no game seed: the client seeds are not valid")
        return
    _check_salts(run, seed_of_game, records)

    # --- the replay ------------------------------------------------------------------------------------------
    _replay(run, start, seed_of_game, records, end)


def _named_protocol(data: Any) -> Any:
    """The protocol a transcript names, if it is an object that names one (only to word the failure)."""
    if isinstance(data, (bytes, bytearray, str)):
        try:
            data = json.loads(data)
        except (ValueError, RecursionError):
            return None
    return data.get("protocol") if isinstance(data, Mapping) else None


def _game_summary(t: Mapping[str, Any]) -> dict[str, Any]:
    commit, start, end = t["commit"], t.get("start"), t.get("end") or {}
    rules = commit["rules"]
    seats = [{"seat": s["seat"], "name": s["name"], "bot": s["bot"]} for s in (start or {}).get("seats", [])]
    return {"game_id": commit["game_id"], "rule_set": rules.get("id"), "players": rules.get("players"),
            "settings": rules.get("settings"), "seats": seats, "moves": len(t["records"]),
            "reason": end.get("reason"), "result": end.get("result")}


def _check_signatures(run: _Run, t: Mapping[str, Any], key: str | None, key_problem: str | None) -> None:
    if key_problem or key is None:
        problem = key_problem or "the transcript names no usable key"
        run.fail("signature-start", problem)
        run.fail("signature-transcript", problem)
        return
    try:
        keys.load_public_key(key)
    except ValueError as exc:
        run.fail("signature-start", f"the key cannot be read: {exc}")
        run.fail("signature-transcript", f"the key cannot be read: {exc}")
        return
    commit, start = t["commit"], t.get("start")
    kid = keys.key_id(key)
    wrong_key = commit.get("key") != key
    if wrong_key:
        problem = f"the transcript names key {_key_id(commit.get('key'))}, not {kid}"
        run.fail("signature-start", problem)
    # t is parse_transcript's output: its canonical form needs no second validation
    if not keys.verify(key, canonical_json_of_parsed(commit), t["commit_signature"]):
        run.fail("signature-start", f"the commit record's signature is not valid under key {kid}")
    if start is not None and not keys.verify(key, canonical_json_of_parsed(start), t["start_signature"]):
        run.fail("signature-start", f"the start record's signature is not valid under key {kid}")
    run.set("signature-start", PASS, f"the commit{' and start records are' if start else ' record is'} "
                                     f"signed by key {kid}")
    if "signature" not in t:
        run.fail("signature-transcript", "the game has ended but the transcript has no final signature")
    elif not keys.verify(key, transcript_body(t, parsed=True), t["signature"]):
        run.fail("signature-transcript", f"the final signature is not valid under key {kid}: something in the "
                                         f"transcript was changed after it was signed, or another key signed it")
    else:
        run.set("signature-transcript", PASS, f"the whole transcript is signed by key {kid}")


def _chain_status(t: Mapping[str, Any]) -> tuple[str, str, int | None]:
    problems = check_chain(t, parsed=True)
    if problems:
        seq = _first_seq(problems[0])
        more = f" ({len(problems) - 1} more break(s) after it)" if len(problems) > 1 else ""
        return FAIL, problems[0] + more, seq
    n = len(t["records"]) + (1 if t.get("end") is not None else 0)
    return PASS, f"{n} record(s) chained from the {'start' if t.get('start') else 'commit'} record", None


def _check_salts(run: _Run, seed: bytes, records: Sequence[Mapping[str, Any]]) -> None:
    """Every move record's salt is the one the game seed derives for its place (transcript.md): checked here for
    all of them, so the replay (which skips it) goes on past a bad salt."""
    for place, record in enumerate(records, start=1):
        if record.get("salt") != record_salt(seed, place):
            run.fail("hash-chain", f"move record {record.get('seq')}'s salt is not the one the revealed seed derives "
                                   f"for record {place}", record.get("seq"))
            return
    check = run.done.get("hash-chain")
    if check is not None and check.status == PASS and records:
        check.detail += "; every move record's salt is the one the seed derives"


def _first_seq(problem: str) -> int | None:
    """The record a check_chain sentence is about ("Move record 5 ..."); None for the end record."""
    words = problem.split()
    if len(words) > 2 and words[0] == "Move" and words[1] == "record" and words[2].isdigit():
        return int(words[2])
    return None


def _check_receipts(run: _Run, records: Sequence[Mapping[str, Any]], receipts: Sequence[tuple[int, str]]) -> None:
    by_seq: dict[Any, Mapping[str, Any]] = {}
    for record in records:
        by_seq.setdefault(record.get("seq"), record)
    for seq, digest in receipts:
        if seq not in by_seq:
            run.fail("receipts", f"there is no move record {seq}: the transcript has {len(records)}", seq)
            continue
        actual = record_hash(by_seq[seq])
        if actual != digest:
            run.fail("receipts", f"the receipt for record {seq} was {digest[:16]}..., the record in the transcript "
                                 f"hashes to {actual[:16]}...: the record was changed after you got the receipt", seq)
    run.set("receipts", PASS, f"{len(receipts)} receipt(s) match the records in the chain")


# ------------------------------------------------------------------------------------------- the replay

def _cards_of(move: Move) -> list:
    if move.card is not None:
        return [move.card]
    return list(move.cards or ())


def _held(game: LiveGame, seat: Any, move: Move) -> tuple[bool, str]:
    """Whether the re-derived deal gave the seat every card the move names (False + the card if not). A card the
    seat already played this hand was dealt to it: playing it again is an illegal move, not a different deal."""
    cards = _cards_of(move)
    if not cards or not isinstance(seat, int) or isinstance(seat, bool):
        return True, ""
    try:
        view = game.state.view(seat)
    except Exception:  # noqa: BLE001 - no such seat: legality says so
        return True, ""
    hand = view.get("hand")
    if hand is None:
        return True, ""
    played = set()
    tricks = list(view.get("tricks") or [])
    if isinstance(view.get("trick"), Mapping):
        tricks.append(view["trick"])
    for trick in tricks:
        for play in trick.get("plays") or []:
            if play and play[0] == seat:
                played.add(play[1])
    for card in cards:
        if str(card) not in hand and str(card) not in played:
            return False, str(card)
    return True, ""


def _classify(game: LiveGame, record: Mapping[str, Any], err: ReplayError) -> tuple[str, str]:
    """Which check a replay failure belongs to. A move out of turn is an illegal move (a dropped, duplicated or
    swapped record), except the very first one: then the first dealer re-derived from the seed is not the one
    the game was played with. A card the seat was never dealt means the deal is not the one played."""
    if err.check not in ("moves-legal", "bot-moves", "timeout-moves"):
        return err.check, err.message
    seat, to_move = record.get("seat"), game.state.to_move
    if seat != to_move:
        if game.seq == 0 and to_move is not None:
            return "deals", (f"record {err.seq}: the first move is by seat {seat}, but with the dealer re-derived "
                             f"from the seed seat {to_move} moves first")
        return "moves-legal", f"record {err.seq}: seat {seat} moved out of turn; it was seat {to_move}'s turn"
    try:
        move = Move.from_json(record.get("move"))
    except GameError:
        return err.check, err.message
    held, card = _held(game, seat, move)
    if not held:
        return "deals", (f"record {err.seq}: seat {seat} used {card}, which the deal re-derived from the "
                         f"revealed seed did not give that seat")
    return err.check, err.message


def _hands_dealt(game: LiveGame) -> int | None:
    deals = getattr(game.state, "deals", None)
    return len(deals) if isinstance(deals, list) else None


def _walk(start: Mapping[str, Any], seed: bytes, records: Sequence[Mapping[str, Any]], policies: bool
          ) -> tuple[LiveGame, tuple[str, int | None, str] | None]:
    """Replay every record; returns the game and the first failure (check id, seq, sentence) or None.
    policies=False replays the moves without recomputing the bot and timeout policies: it tells whether a game
    whose bot or timeout move differs was at least dealt and played legally."""
    game = LiveGame(start, seed)
    for record in records:
        seq = record.get("seq")
        try:
            if policies:
                game.apply_record(record, chain=False)
            else:
                move = Move.from_json(record.get("move"))
                game.state.apply(record.get("seat"), move)
                game.seq += 1
        except ReplayError as err:
            cid, message = _classify(game, record, err)
            return game, (cid, err.seq, message)
        except GameError as exc:
            err = ReplayError("moves-legal", seq, f"record {seq}: seat {record.get('seat')} "
                                                  f"{record.get('move')} is illegal: {exc.message}")
            cid, message = _classify(game, record, err)
            return game, (cid, seq, message)
        except Exception as exc:  # noqa: BLE001 - an engine that cannot apply a record is a failed move
            return game, ("moves-legal", seq, f"record {seq}: the move could not be applied "
                                              f"({type(exc).__name__}: {exc})")
    return game, None


def _replay(run: _Run, start: Mapping[str, Any], seed: bytes, records: Sequence[Mapping[str, Any]],
            end: Mapping[str, Any]) -> None:
    try:
        LiveGame(start, seed)
    except GameError as exc:
        raise _Unusable(f"The game cannot be replayed: {exc.message}") from None
    except (ImportError, AttributeError, KeyError, TypeError) as exc:
        raise _Unusable(f"The game cannot be replayed by this verifier: {exc}") from None
    game, failure = _walk(start, seed, records, policies=True)
    if failure is not None:
        cid, seq, message = failure
        run.fail(cid, message, seq)
        if cid not in ("bot-moves", "timeout-moves"):
            for other in REPLAY_CHECKS:
                run.set(other, SKIP, f"not checked: the replay stopped at record {seq}")
            return
        # A policy's move differs. Were the cards and the moves at least the seed's and legal?
        game, second = _walk(start, seed, records, policies=False)
        if second is not None:
            cid2, seq2, message2 = second
            run.fail(cid2, message2, seq2)
            for other in REPLAY_CHECKS:
                run.set(other, SKIP, f"not checked: the replay stopped at record {seq2}")
            return
    counts = {"bot": 0, "timeout": 0, "player": 0}
    for record in records:
        counts[record["by"]] = counts.get(record["by"], 0) + 1
    hands = _hands_dealt(game)
    hands_text = f"{hands} hand(s)" if hands is not None else "every hand"
    first = "" if not records else f"; seat {records[0].get('seat')} moved first as the seed's dealer requires"
    run.set("deals", PASS, f"{hands_text} dealt from the revealed seed; every card played or thrown was in "
                           f"the mover's hand{first}")
    run.set("moves-legal", PASS, f"{len(records)} move(s), each legal in its turn")
    run.set("bot-moves", PASS, f"{counts['bot']} bot move(s), each the bot policy's choice from its own view"
            if counts["bot"] else "no bot moves")
    run.set("timeout-moves", PASS, f"{counts['timeout']} timeout move(s), each the timeout policy's choice"
            if counts["timeout"] else "no timeout moves")
    _check_result(run, game, end)


def _check_result(run: _Run, game: LiveGame, end: Mapping[str, Any]) -> None:
    reason, claimed = end["reason"], end.get("result")
    over = game.state.is_over
    actual = game.state.result
    if reason == "finished" and not over:
        run.fail("result", "the transcript says the game finished, but after its last move the replay is not "
                           "over")
        return
    if reason != "finished" and over:
        run.fail("result", f"the transcript says the game was {reason}, but the replay shows it finished")
        return
    if claimed != actual:
        run.fail("result", f"the end record claims {_result_text(claimed)}, the replay gives {_result_text(actual)}")
        return
    if over:
        run.set("result", PASS, f"the replay gives {_result_text(actual)}, as recorded")
    else:
        run.set("result", PASS, f"the game was {reason} before its end; no result, as recorded")


def _result_text(result: Any) -> str:
    if not isinstance(result, Mapping):
        return "no result" if result is None else repr(result)
    scores = result.get("scores")
    winners = result.get("winners")
    parts = []
    if scores is not None:
        parts.append(f"scores {scores}")
    if winners is not None:
        parts.append(f"winner(s) seat {', '.join(str(w) for w in winners)}" if isinstance(winners, Iterable)
                     and not isinstance(winners, str) else f"winners {winners!r}")
    extra = sorted(k for k in result if k not in ("scores", "winners", "sides"))
    if extra:
        parts.append("and " + ", ".join(extra))
    return " ".join(parts) or canonical_json(dict(result)).decode()
