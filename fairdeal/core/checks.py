"""The checks of `fairdeal-verify`, one transcript at a time, as data: `verify_transcript` returns a `Report`.

Nothing the server says about itself is trusted: every check recomputes from the transcript's own records with
the protocol's functions (fairdeal.core.integrity, over fairness, transcript and keys — the same code the
documented test vectors check) and the rules engine (fairdeal.core.replay). This module does no I/O; the
command line reads files, URLs and the pinned keys and hands them in. Every result is structured
(fairdeal.core.results.Check); the sentences are rendered from it (fairdeal.core.messages).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from fairdeal.core import integrity, logtrust, tlog
from fairdeal.core.blind.verify import BLIND_CHECKS, BlindVerification
from fairdeal.core.fairness import PROTOCOLS, SeedChance
from fairdeal.core.games import rules_from_json
from fairdeal.core.games.base import GameError
from fairdeal.core.given import choose_key, parse_client_seed, parse_commitment, parse_receipt
from fairdeal.core.keysets import RETIRED, KeySet
from fairdeal.core.reader import TranscriptError, read_encoded
from fairdeal.core.replay import LiveGame, ReplayError, read_move
from fairdeal.core.results import (
    CHECK_IDS,
    CHECKS,
    FAIL,
    PASS,
    REPLAY_CHECKS,
    SKIP,
    TITLES,
    Check,
    Report,
    failed,
    key_id_or_none,
    passed,
    skipped,
)
from fairdeal.core.tournament.seeds import board_commitment_of_record
from fairdeal.core.transcript import record_hash

__all__ = [
    "CHECKS",
    "CHECK_IDS",
    "TITLES",
    "REPLAY_CHECKS",
    "PASS",
    "FAIL",
    "SKIP",
    "Check",
    "Report",
    "choose_key",
    "parse_receipt",
    "parse_commitment",
    "parse_client_seed",
    "verify_transcript",
    "replay_failures",
]


# -------------------------------------------------------------------------------------- the report


class _Run:
    """One verification: keeps each check's result (the first failure of a check is the one reported)."""

    def __init__(self, report: Report):
        self.report = report
        self.done: dict[str, Check] = {}

    def put(self, result: Check) -> None:
        current = self.done.get(result.id)
        if current is not None and current.status == FAIL:
            return
        self.done[result.id] = result

    def put_all(self, results: Iterable[Check]) -> None:
        for result in results:
            self.put(result)

    def has_failed(self, cid: str) -> bool:
        return cid in self.done and self.done[cid].status == FAIL

    def finish(self, asked: Sequence[str]) -> None:
        """Every check not done is skipped: an optional one not asked for says how to ask for it."""
        for cid in CHECK_IDS:
            if cid not in self.done:
                code = OPTIONAL.get(cid) if cid not in asked else None
                self.done[cid] = skipped(cid, code or "not-checked")
        self.report.checks = [self.done[cid] for cid in CHECK_IDS]


OPTIONAL = {"receipts": "no-receipt", "commitment-noted": "no-commitment-noted"}  # check -> skipped unless asked


class _Unusable(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def verify_transcript(
    data: Any,
    *,
    key: str | KeySet | None = None,
    pins: Mapping[str, str] | KeySet | None = None,
    receipts: Sequence[tuple[int, str]] = (),
    client_seeds: Sequence[tuple[int, str]] = (),
    commitment: str | None = None,
    board_seed: bytes | None = None,
    cosigners: Any = None,
) -> Report:
    """Every check on one transcript (bytes, text or the decoded JSON object). Never raises for bad input: the
    report says what failed, or (report.unusable) why the input could not be used at all."""
    report = Report()
    run = _Run(report)
    try:
        _verify(run, data, key, pins or {}, receipts, client_seeds, commitment, board_seed, cosigners)
    except _Unusable as exc:
        report.unusable = exc.message
    except Exception as exc:  # noqa: BLE001 - hostile input must give a report, never a traceback
        report.unusable = f"The transcript could not be checked: {type(exc).__name__}: {exc}"
    run.finish([cid for cid, asked in (("receipts", receipts), ("commitment-noted", commitment)) if asked])
    return report


def _verify(
    run: _Run,
    data: Any,
    given_key: str | KeySet | None,
    pins: Mapping[str, str] | KeySet,
    receipts: Sequence[tuple[int, str]],
    client_seeds: Sequence[tuple[int, str]],
    noted: str | None,
    board_seed: bytes | None = None,
    cosigners: Any = None,
) -> None:
    report = run.report
    try:
        t, body, hashes = read_encoded(data)  # each record encoded once, for the signature and the chain
    except TranscriptError as exc:
        named = _named_protocol(data)
        if named is not None and named not in PROTOCOLS:
            run.put(failed("protocol", "protocol-unknown", named=named, known=" and ".join(PROTOCOLS)))
        raise _Unusable(str(exc)) from None
    report.protocol = t["protocol"]
    run.put(passed("protocol", "protocol-known", protocol=t["protocol"]))
    commit, start, end, records = t["commit"], t.get("start"), t.get("end"), t["records"]
    report.game = _game_summary(t)
    if noted:
        run.put(integrity.check_noted_commitment(t, noted))

    # --- signatures ------------------------------------------------------------------------------------
    key, source, key_problem = choose_key(commit.get("key"), given_key, pins)
    report.key, report.key_source = key, source
    _note_signer(report, KeySet.of(given_key) or KeySet.of_pins(pins), key, commit.get("key"), commit.get("created"))
    if source == "transcript":
        report.warnings.append(
            "The signatures were checked only against the key the transcript carries, which anyone could have "
            "made: this shows the transcript is intact, not that the service signed it. Give the service's "
            "public key with --key (and --pin to remember it)."
        )
    run.put_all(integrity.check_signatures(t, key, key_problem, body))
    run.put(
        _log_inclusion(t, logtrust.head_keys(KeySet.of(given_key), KeySet.of_pins(pins), commit.get("key")), cosigners)
    )

    # --- the header, the commitment, the chain --------------------------------------------------------
    run.put_all(integrity.check_header(t) + _layout_problems(t))
    run.put(integrity.header_passed(t))
    if end is None:
        run.put_all(integrity.check_chain(t, parsed=True, hashes=hashes))
        run.put(integrity.chain_passed(t))
        raise _Unusable(
            "The game has not ended: the server seed is not revealed yet, so it cannot be verified. "
            "Verify it once it has ended."
        )
    run.put_all(integrity.check_commitment(t))
    run.put(integrity.commitment_passed(t))
    chain = integrity.check_chain(t, parsed=True, hashes=hashes)
    if chain:
        first = chain[0]
        run.put(failed(first.id, first.code, first.seq, **{**first.fields, "more": len(chain) - 1}))
    if receipts:
        run.put_all(_receipt_results(records, receipts))

    # --- client seeds and the game seed ---------------------------------------------------------------
    run.put_all(integrity.check_client_seeds(t, client_seeds))
    if start is None:
        run.put(integrity.client_seeds_passed(t, None, client_seeds))
        run.put(integrity.chain_passed(t))
        _never_started(run, t)
        return
    try:
        seed = integrity.game_seed_of(t)
    except ValueError as exc:
        run.put(failed("client-seeds", "game-seed-invalid", reason=str(exc)))
        run.put(integrity.chain_passed(t))
        for cid in REPLAY_CHECKS:
            run.put(skipped(cid, "no-game-seed"))
        return
    run.put(integrity.client_seeds_passed(t, seed, client_seeds))
    run.put_all(integrity.check_salts(seed, records))
    run.put(integrity.chain_passed(t, salts=True))

    # --- the replay ------------------------------------------------------------------------------------
    _replay(run, t, seed, _board_seed_of(t, board_seed))


def _board_seed_of(t: Mapping[str, Any], board_seed: bytes | None) -> bytes | None:
    """A tournament table's cards come from its round's board seed (docs/tournaments.md): given, it must open the
    commit record's board commitment; a table replays only with it, and a game that is no table never with one."""
    board = t["commit"].get("board")
    if board is None:
        if board_seed is not None:
            raise _Unusable("A board seed was given, but this game is no tournament table (its commit names no board).")
        return None
    if board_seed is None:
        raise _Unusable(
            f"This game is table {board.get('table')!r} of round {board.get('round')!r} of tournament "
            f"{board.get('tournament_id')!r}: its cards come from the round's board seed. Verify it "
            f"with --board-seed (the round record reveals it) or verify the whole tournament."
        )
    if board_commitment_of_record(board, board_seed) != board.get("board_commitment"):
        raise _Unusable("The board seed given does not open the board commitment of the game's commit record.")
    return board_seed


def _note_signer(report: Report, trusted: KeySet | None, key: str | None, named: Any, when: Any) -> None:
    """Which trusted key signed the game, and whether it was the service's current key at the game's time."""
    signer = trusted.find(key) if trusted is not None else None
    if signer is None or key != named:  # a key the transcript does not name signed nothing of it
        return
    report.signer = signer.to_json(when)
    report.signer["game_time"] = when
    if report.signer["status"] == RETIRED:
        report.warnings.append(
            f"The game was committed at {when}, after its key {signer.key_id} was retired "
            f"({signer.retired}): a retired key should sign no new game."
        )


def _log_inclusion(t: Mapping[str, Any], trust: tuple[KeySet, str], cosigners: Any = None) -> Check:
    """The transcript's `log` member (docs/log.md), checked offline: the signed head (and/or checkpoint), by a key
    trusted for the game's service (head_keys), and the commitment and ending leaves recomputed from the
    transcript itself under its root. With a CosignerPolicy (fairdeal.core.checkpoint), the checkpoint
    carries enough witnesses' cosignatures."""
    if "log" not in t:
        if cosigners is not None:
            return failed(
                "log-inclusion",
                "log-not-cosigned",
                count=0,
                quorum=cosigners.quorum,
                cosigners="the transcript carries no log member",
            )
        return skipped("log-inclusion", "no-log")
    try:
        found = tlog.check_log_member(t)
        head = tlog.check_log_tree(t, witnesses=cosigners.witnesses if cosigners is not None else ())
    except (tlog.LogError, KeyError, TypeError) as exc:
        return failed("log-inclusion", "log-not-included", reason=str(exc))
    if cosigners is not None:
        names = ", ".join(w.name for w, _ in head["cosigners"]) or "none"
        if len(head["cosigners"]) < cosigners.quorum:
            return failed(
                "log-inclusion",
                "log-not-cosigned",
                count=len(head["cosigners"]),
                quorum=cosigners.quorum,
                cosigners=names,
            )
    signed = t["log"].get("head") if isinstance(t["log"].get("head"), dict) else {}
    problem = logtrust.head_key_problem(dict(head, time=signed.get("time")), *trust)  # a checkpoint has no time
    if problem is not None:
        return failed("log-inclusion", problem.pop("code"), **problem)
    extra: dict[str, Any] = {"cosigners": names} if cosigners is not None else {}
    return passed(
        "log-inclusion",
        "log-included-cosigned" if extra else "log-included",
        kinds=" and ".join(found),
        size=head["size"],
        root=head["root"],
        indexes=" and ".join(str(i) for i in found.values()),
        key_id=key_id_or_none(head["key"]),
        **extra,
    )


def _named_protocol(data: Any) -> Any:
    """The protocol a transcript names, if it is an object that names one (only to word the failure)."""
    if isinstance(data, (bytes, bytearray, str)):
        try:
            data = json.loads(data)
        except (ValueError, RecursionError):
            return None
    return data.get("protocol") if isinstance(data, Mapping) else None


def _game_summary(t: Mapping[str, Any]) -> dict[str, Any]:
    commit, end = t["commit"], t.get("end") or {}
    seated = t.get("start") or t.get("seating") or {}
    rules = commit["rules"]
    seats = [{"seat": s["seat"], "name": s["name"], "bot": s["bot"]} for s in seated.get("seats", [])]
    out = {
        "game_id": commit["game_id"],
        "rule_set": rules.get("id"),
        "players": rules.get("players"),
        "settings": rules.get("settings"),
        "seats": seats,
        "moves": len(t["records"]),
        "reason": end.get("reason"),
        "result": end.get("result"),
    }
    if "unrevealed" in end:
        out["unrevealed"] = list(end["unrevealed"])
    return out


def _layout_problems(t: Mapping[str, Any]) -> list[Check]:
    """fairdeal/2 names the rule set's deal layout in the commit: it must be the one the rule set deals by."""
    layout = t["commit"].get("deal_layout")
    if layout is None:
        return []
    try:
        expected = rules_from_json(t["commit"]["rules"]).deal_layout
    except GameError:
        return []  # a rule set or version this verifier does not have: the replay says so
    if layout != expected:
        return [failed("header", "deal-layout", named=layout, rule_set=t["commit"]["rules"]["id"], layout=expected)]
    return []


def _receipt_results(records: Sequence[Mapping[str, Any]], receipts: Sequence[tuple[int, str]]) -> list[Check]:
    by_seq: dict[Any, Mapping[str, Any]] = {}
    for record in records:
        by_seq.setdefault(record.get("seq"), record)
    out = []
    for seq, digest in receipts:
        if seq not in by_seq:
            out.append(failed("receipts", "receipt-unknown", seq, records=len(records)))
            continue
        actual = record_hash(by_seq[seq])
        if actual != digest:
            out.append(failed("receipts", "receipt-differs", seq, given=digest, actual=actual))
    out.append(passed("receipts", "receipts-ok", count=len(receipts)))
    return out


def _never_started(run: _Run, t: Mapping[str, Any]) -> None:
    """A table that ended before its start record: nothing was dealt; the end must say why, truthfully."""
    end = t["end"]
    for cid in ("deals", "moves-legal", "bot-moves", "timeout-moves"):
        run.put(skipped(cid, "never-dealt"))
    if end.get("result") is not None:
        run.put(failed("result", "result-never-started"))
    if end["reason"] in ("finished", "abandoned", "no-humans", "move-cap"):
        run.put(failed("result", "reason-not-started", reason=end["reason"]))
    if end["reason"] == "not-revealed" and t.get("seating") is None:
        run.put(failed("result", "reason-not-revealed", why="no seat was ever seated"))
    elif end["reason"] == "not-revealed" and not end.get("unrevealed"):
        run.put(failed("result", "reason-not-revealed", why="every committed seat revealed"))
    if end.get("deals"):
        run.put(failed("deals", "deals-differ", claimed=len(end["deals"]), actual=0))
    run.put(passed("result", "result-aborted", unrevealed=list(end.get("unrevealed") or ())))


# ------------------------------------------------------------------------------------------- the replay


def _cards_of(move: Any) -> list[Any]:
    if move.card is not None:
        return [move.card]
    return list(move.cards or ())


def _held(game: LiveGame, seat: Any, move: Any) -> tuple[str, str]:
    """Whether the re-derived deal gave the seat every card the move names: ("held", ""), ("not-dealt", card),
    or ("again", card) for a card the seat already played this hand (it was dealt one: one of its two records
    was changed)."""
    cards = _cards_of(move)
    if not cards or not isinstance(seat, int) or isinstance(seat, bool):
        return "held", ""
    try:
        view = game.state.view(seat)
    except Exception:  # noqa: BLE001 - no such seat: legality says so
        return "held", ""
    hand = view.get("hand")
    if hand is None:
        return "held", ""
    played = set()
    tricks = list(view.get("tricks") or [])
    if isinstance(view.get("trick"), Mapping):
        tricks.append(view["trick"])
    for trick in tricks:
        for play in trick.get("plays") or []:
            if play and play[0] == seat:
                played.add(play[1])
    for card in cards:
        if str(card) not in hand:
            return ("again" if str(card) in played else "not-dealt"), str(card)
    return "held", ""


def _classify(game: LiveGame, record: Mapping[str, Any], err: ReplayError, used: Mapping[Any, Any]) -> Check:
    """Which check a replay failure belongs to. A move out of turn is an illegal move (a dropped, duplicated or
    swapped record), except the very first one: then the first dealer re-derived from the seed is not the one
    the game was played with. A card the seat was never dealt means the deal is not the one played. A card the
    seat already played this hand is blamed on the first of its two records (`used`: (seat, card) -> the seq
    that last used it): a card changed into one the seat plays later shows up only at the later, honest one."""
    as_is = failed(err.check, err.code, err.seq, **err.fields)
    if err.check != "moves-legal" or err.code in ("move-not-canonical", "move-unreadable", "unknown-mover"):
        return as_is
    seat, to_move = record.get("seat"), game.state.to_move
    if game.state.is_over:
        return failed("moves-legal", "after-the-end", err.seq, seat=seat)
    if seat != to_move:
        if game.seq == 0 and to_move is not None:
            return failed("deals", "first-mover", err.seq, seat=seat, expected=to_move)
        return failed("moves-legal", "out-of-turn", err.seq, seat=seat, to_move=to_move)
    try:
        move = read_move(record, game.protocol)
    except ReplayError:
        return as_is
    held, card = _held(game, seat, move)
    if held == "not-dealt":
        return failed("deals", "card-not-dealt", err.seq, seat=seat, card=card)
    first = used.get((seat, card))
    if held == "again" and first is not None:
        # the seat was dealt the card (the deal is the seed's): an illegal move, blamed on the changed record
        return failed("moves-legal", "card-used-twice", first, seat=seat, card=card, again=err.seq)
    return as_is


def _used_cards(record: Mapping[str, Any]) -> list[Any]:
    """The cards a record's move names, as written (a play's card, a throw's cards)."""
    move = record.get("move")
    if not isinstance(move, Mapping):
        return []
    cards = move.get("cards")
    return [move["card"]] if "card" in move else list(cards) if isinstance(cards, list) else []


def _walk(
    start: Mapping[str, Any],
    seed: bytes,
    records: Sequence[Mapping[str, Any]],
    policies: bool,
    game: LiveGame | None = None,
    board_seed: bytes | None = None,
    chance: SeedChance | None = None,
) -> tuple[LiveGame, Check | None]:
    """Replay every record; returns the game and the first failure, or None.
    policies=False: the moves without the mover and policy checks, to tell whether a game whose bot or timeout
    moves are wrong was at least dealt and played legally. `game`: a new LiveGame(start, seed) already made."""
    game = LiveGame(start, seed, board_seed, chance) if game is None else game
    stopped = game.apply_records(records, policies)  # the records replayed up to the first that raises
    if stopped is None:
        return game, None
    i, err = stopped
    record = records[i]
    if isinstance(err, ReplayError):
        return game, _classify(game, record, err, _cards_used(records[:i]))
    # an engine that cannot apply a record is a failed move
    return game, failed("moves-legal", "unapplicable", record.get("seq"), reason=f"{type(err).__name__}: {err}")


def _cards_used(records: Sequence[Mapping[str, Any]]) -> dict[Any, Any]:
    """(seat, card as written) -> the seq of the last of these records that used it: made only when a record
    fails, from the records before it (the replay of a game that passes never needs it)."""
    used: dict[Any, Any] = {}
    for record in records:
        for card in _used_cards(record):
            used[(record.get("seat"), str(card))] = record.get("seq")
    return used


def replay_failures(t: Mapping[str, Any], seed: bytes) -> list[Check]:
    """The replay's failures of a parsed, ended, started transcript (for --explain: where the story breaks)."""
    _, failure = _walk(t["start"], seed, t["records"], policies=True)
    return [failure] if failure is not None else []


def _put_some(run: _Run, result: Check | None) -> None:
    if result is not None:
        run.put(result)


def _replay(run: _Run, t: Mapping[str, Any], seed: bytes, board_seed: bytes | None = None) -> None:
    start, records, end = t["start"], t["records"], t["end"]
    blind = BlindVerification(t, seed) if "blind" in t else None  # docs/blind.md: the decks are the seats'
    chance = None
    if blind is None:
        for cid in BLIND_CHECKS:
            run.put(skipped(cid, "not-blind"))
    else:
        run.put_all(blind.checks)
        if blind.chance is None:
            raise _Unusable("This blind table's deal layout is not one this verifier can deal blind.")
        if blind.underived:  # a seat did not reveal, or cheated: nobody can say which cards its hands held
            _put_some(run, blind.blame_unreplayed())
            for cid in ("blind-opens", *REPLAY_CHECKS):
                run.put(skipped(cid, "blind-deal-unknown", hand=blind.underived[0]))
            return
        chance = blind.chance
    try:
        fresh = LiveGame(start, seed, board_seed, chance)
    except GameError as exc:
        raise _Unusable(f"The game cannot be replayed: {exc.message}") from None
    except (ImportError, AttributeError, KeyError, TypeError) as exc:
        raise _Unusable(f"The game cannot be replayed by this verifier: {exc}") from None
    game, failure = _walk(start, seed, records, policies=True, game=fresh)
    if blind is not None:  # a revoke or a wrong timeout move the end blames: the replay's first failure shows it
        _put_some(run, blind.blame_after_replay(failure, records))
    if failure is not None:
        run.put(failure)
        if failure.id in ("bot-moves", "timeout-moves"):
            # A policy's move differs. Were the cards and the moves at least the seed's and legal?
            game, failure = _walk(start, seed, records, policies=False, board_seed=board_seed, chance=chance)
            if failure is not None:
                run.put(failure)
        if failure is not None:
            for other in REPLAY_CHECKS:
                run.put(skipped(other, "replay-stopped", stopped=failure.seq))
            return
    counts = {"bot": 0, "timeout": 0, "player": 0, "stand-in": 0}
    for record in records:
        counts[record["by"]] = counts.get(record["by"], 0) + 1
    if t["protocol"] != "fairdeal/1":
        run.put_all(_deal_problems(game, end))
    if blind is not None:
        run.put(blind.plays_opened(records, blind.hands_of_plays(start, seed, records)))
    run.put(
        passed(
            "deals",
            "deals-ok",
            hands=len(game.state.deals),
            moves=len(records),
            first_seat=records[0].get("seat") if records else None,
            dealers=t["protocol"] != "fairdeal/1",
            **({"blind": True} if blind is not None else {}),
        )
    )
    run.put(passed("moves-legal", "moves-ok", moves=len(records)))
    run.put(
        passed(
            "bot-moves",
            "bots-ok",
            count=counts["bot"] + counts["stand-in"],
            **({"stand_ins": counts["stand-in"]} if counts["stand-in"] else {}),
        )
    )
    run.put(passed("timeout-moves", "timeouts-ok", count=counts["timeout"]))
    run.put(_result_check(game, end))


def _deal_problems(game: LiveGame, end: Mapping[str, Any]) -> list[Check]:
    """fairdeal/2: the end record's deals (number and dealer) are the replay's, so a verifier without the rules
    engine re-derives every hand from the seed, the deal layout and these dealers."""
    actual = [(d[0], d[1]) for d in game.state.deals]
    claimed = [(d["hand"], d["dealer"]) for d in end["deals"]]
    for (hand, dealer), (_, real) in zip(claimed, actual, strict=False):  # a count that differs is its own check
        if dealer != real:
            return [failed("deals", "deals-differ", hand=hand, claimed=dealer, actual=real)]
    if len(claimed) != len(actual):
        return [failed("deals", "deals-differ", claimed=len(claimed), actual=len(actual))]
    return []


def _result_check(game: LiveGame, end: Mapping[str, Any]) -> Check:
    reason, claimed = end["reason"], end.get("result")
    over, actual = game.state.is_over, game.state.result
    if reason == "finished" and not over:
        return failed("result", "result-not-over")
    if reason != "finished" and over:
        return failed("result", "result-over", reason=reason)
    if reason == "not-revealed":
        return failed("result", "reason-not-revealed", why="the game started: every committed seat revealed")
    if reason == "no-humans" and not all(s.get("bot") for s in game.start["seats"]):
        return failed("result", "reason-no-humans", seats=[s["seat"] for s in game.start["seats"] if not s.get("bot")])
    if claimed != actual:
        return failed("result", "result-differs", claimed=claimed, actual=actual)
    if over:
        return passed("result", "result-ok", result=actual)
    return passed("result", "result-not-finished", reason=reason)
