"""The checks a transcript passes without a rules engine: signatures, header, commitment, client seeds, chain.

Each function takes a transcript the reader returned (fairdeal.core.reader.parse_transcript) and returns
structured results (fairdeal.core.results.Check); none raises for a parsed transcript. They use the very
functions the documented test vectors check (fairness, transcript, keys), and they are what an independent
verifier without the rule sets can do from docs/fairness.md and docs/transcript.md alone.
`check_transcript` runs all of them and returns the failures (empty: all good).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fairdeal.core import keys
from fairdeal.core.canonical import canonical_json_of_parsed
from fairdeal.core.fairness import (
    client_seed_commitment,
    game_seed,
    record_salts,
    server_seed_from_hex,
    validate_client_seed,
    validate_nonce,
)
from fairdeal.core.fairness import commitment as compute_commitment
from fairdeal.core.results import Check, failed, key_id_or_none, passed
from fairdeal.core.transcript import HEADERS, anchor_name, parsed_record_hash, record_hash, transcript_body

__all__ = [
    "check_signatures",
    "check_header",
    "check_commitment",
    "check_noted_commitment",
    "check_client_seeds",
    "check_chain",
    "check_salts",
    "check_transcript",
    "game_seed_of",
    "revealed_seeds",
]

_REPEATED = ("game_id", "rules", "commitment", "key")


# ------------------------------------------------------------------------------------------ signatures


def check_signatures(
    t: Mapping[str, Any],
    key: str | None = None,
    key_problem: Mapping[str, Any] | None = None,
    body: bytes | None = None,
) -> tuple[Check, Check]:
    """The "signature-start" result (every header record) and the "signature-transcript" result (the final
    signature), under `key` — the one the user trusts (given or pinned) — or, when None, the transcript's own.
    `key_problem` holds the facts of why no trusted key could be chosen (checks.choose_key); it fails both.
    `body`: the signed bytes when the caller has them already (transcript.parsed_body_and_hashes)."""
    if key_problem is not None:
        code = "key-not-pinned" if "pinned" in key_problem else "key-not-given"
        return (failed("signature-start", code, **key_problem), failed("signature-transcript", code, **key_problem))
    commit = t["commit"]
    key = key if key is not None else commit.get("key")
    if not isinstance(key, str):
        return failed("signature-start", "no-key"), failed("signature-transcript", "no-key")
    try:
        keys.load_public_key(key)
    except ValueError as exc:
        return (
            failed("signature-start", "key-unreadable", reason=str(exc)),
            failed("signature-transcript", "key-unreadable", reason=str(exc)),
        )
    kid = keys.key_id(key)
    headers = [name for name in HEADERS[t["protocol"]] if name in t]
    start_result = passed("signature-start", "headers-signed", key_id=kid, records=headers)
    if commit.get("key") != key:
        start_result = failed("signature-start", "key-differs", named=key_id_or_none(commit.get("key")), key_id=kid)
    else:
        for name in headers:
            # t is the reader's output: its canonical form needs no second validation
            if not keys.verify(key, canonical_json_of_parsed(t[name]), t[f"{name}_signature"]):
                start_result = failed("signature-start", "header-signature-bad", record=name, key_id=kid)
                break
    if "signature" not in t:
        final = (
            failed("signature-transcript", "final-signature-missing")
            if t.get("end") is not None
            else passed("signature-transcript", "final-not-yet")
        )
    elif not keys.verify(key, transcript_body(t, parsed=True) if body is None else body, t["signature"]):
        final = failed("signature-transcript", "final-signature-bad", key_id=kid)
    else:
        final = passed("signature-transcript", "final-signed", key_id=kid)
    return start_result, final


# ------------------------------------------------------------------------------------------- header


def check_header(t: Mapping[str, Any]) -> list[Check]:
    """ "header": every header record names the transcript's protocol; the seating and start records repeat the
    commit's game id, rules, commitment and key; seats are numbered 0..n-1 for the rules' n players; the start
    seats the seating's seats; a seating has a reveal deadline exactly when a seat committed."""
    problems: list[Check] = []
    commit = t["commit"]
    names = [n for n in HEADERS[t["protocol"]] if n in t]
    for name in names:
        if t[name]["protocol"] != t["protocol"]:
            problems.append(
                failed("header", "protocol-differs", record=name, named=t[name]["protocol"], protocol=t["protocol"])
            )
    for name in names[1:]:
        record = t[name]
        for member in _REPEATED:
            if record[member] != commit[member]:
                problems.append(failed("header", "repeat-differs", record=name, member=member))
        seats = record["seats"]
        if [s["seat"] for s in seats] != list(range(len(seats))):
            problems.append(failed("header", "seats-order", record=name))
        if len(seats) != commit["rules"]["players"]:
            problems.append(
                failed("header", "seats-count", record=name, players=commit["rules"]["players"], seats=len(seats))
            )
    seating, start = t.get("seating"), t.get("start")
    if seating is not None:
        committed = any(s["client_seed_commitment"] is not None for s in seating["seats"])
        if committed != (seating["reveal_deadline"] is not None):
            problems.append(failed("header", "reveal-deadline"))
        if start is not None:
            for i, (a, b) in enumerate(zip(seating["seats"], start["seats"], strict=False)):
                for member in ("seat", "name", "bot", "client_seed_commitment"):
                    if a[member] != b[member]:
                        problems.append(failed("header", "seating-differs", seat=i, member=member))
                        break
    return problems


def header_passed(t: Mapping[str, Any]) -> Check:
    return passed("header", "header-ok", started=t.get("start") is not None, seated=t.get("seating") is not None)


# ------------------------------------------------------------------------------------------ commitment


def check_commitment(t: Mapping[str, Any]) -> list[Check]:
    """ "commitment": the revealed server seed matches the commitment published before the game."""
    end = t.get("end")
    if end is None:
        return [failed("commitment", "not-ended")]
    commit = t["commit"]
    try:
        seed = server_seed_from_hex(end["server_seed"])
        expected = compute_commitment(seed, commit["game_id"], commit["rules"], t["protocol"])
    except (ValueError, KeyError, TypeError) as exc:
        return [failed("commitment", "commitment-unreadable", reason=str(exc))]
    if expected != commit["commitment"]:
        return [failed("commitment", "commitment-mismatch")]
    return []


def commitment_passed(t: Mapping[str, Any]) -> Check:
    return passed("commitment", "commitment-ok", commitment=t["commit"]["commitment"])


def check_noted_commitment(t: Mapping[str, Any], noted: str) -> Check:
    """ "commitment-noted": the commitment a player noted before the game (all 64 hex digits or a prefix of at
    least 16, lower case: checks.parse_commitment) is the one this transcript commits to. It ties the transcript
    to the game the player was shown: a server cannot hand over another game's transcript."""
    actual, noted = t["commit"]["commitment"], noted.lower()
    if not actual.startswith(noted):
        return failed("commitment-noted", "commitment-noted-differs", noted=noted, commitment=actual)
    return passed("commitment-noted", "commitment-noted-ok", noted=noted, digits=len(noted), commitment=actual)


# ---------------------------------------------------------------------------------------- client seeds


def _seed_problems(seat: int, seed: Any, nonce: Any = None, with_nonce: bool = False) -> list[Check]:
    out = []
    try:
        validate_client_seed(seed)
    except ValueError as exc:
        out.append(failed("client-seeds", "seed-invalid", seat=seat, reason=str(exc)))
    if with_nonce:
        try:
            validate_nonce(nonce)
        except ValueError as exc:
            out.append(failed("client-seeds", "nonce-invalid", seat=seat, reason=str(exc)))
    return out


def _opens(game_id: str, commitment: str, seed: str, nonce: str) -> bool:
    try:
        return client_seed_commitment(game_id, seed, nonce) == commitment
    except ValueError:
        return False


def check_client_seeds(t: Mapping[str, Any], mine: Sequence[tuple[int, str]] = ()) -> list[Check]:
    """ "client-seeds": bots give no seed; fairdeal/1: every seed is valid; fairdeal/2: every revealed seed and
    nonce open the seat's commitment, every committed seat revealed (or, for a table that ended before its start,
    the end names exactly the committed seats that did not). `mine`: (seat, seed) pairs the user gave."""
    problems: list[Check] = []
    start, seating, end = t.get("start"), t.get("seating"), t.get("end")
    game_id = t["commit"]["game_id"]
    if t["protocol"] == "fairdeal/1":
        for s in (start or {}).get("seats", ()):
            if s["client_seed"] is None:
                continue
            if s["bot"]:
                problems.append(failed("client-seeds", "bot-has-seed", seat=s["seat"]))
            problems.extend(_seed_problems(s["seat"], s["client_seed"]))
    else:
        for s in (seating or {}).get("seats", ()):
            if s["bot"] and s["client_seed_commitment"] is not None:
                problems.append(failed("client-seeds", "bot-has-commitment", seat=s["seat"]))
        if start is not None:
            for s in start["seats"]:
                problems.extend(_start_seat_problems(game_id, s))
        elif seating is not None and end is not None:
            problems.extend(_aborted_problems(game_id, seating, end))
    seeds = revealed_seeds(t)
    for seat, given in mine:
        players = t["commit"]["rules"]["players"]
        if not 0 <= seat < players:
            problems.append(failed("client-seeds", "no-such-seat", seat=seat))
        elif seeds.get(seat) is None:
            problems.append(failed("client-seeds", "seed-not-in-transcript", seat=seat, given=given))
        elif seeds[seat] != given:
            problems.append(failed("client-seeds", "not-your-seed", seat=seat, actual=seeds[seat], given=given))
    return problems


def _start_seat_problems(game_id: str, s: Mapping[str, Any]) -> list[Check]:
    seat, commitment, seed, nonce = s["seat"], s["client_seed_commitment"], s["client_seed"], s["nonce"]
    if s["bot"] and seed is not None:
        return [failed("client-seeds", "bot-has-seed", seat=seat)]
    if commitment is None:
        if seed is not None or nonce is not None:
            return [failed("client-seeds", "seed-not-committed", seat=seat)]
        return []
    if seed is None or nonce is None:
        return [failed("client-seeds", "seed-not-revealed", seat=seat)]
    problems = _seed_problems(seat, seed, nonce, with_nonce=True)
    if not problems and not _opens(game_id, commitment, seed, nonce):
        problems.append(failed("client-seeds", "reveal-mismatch", seat=seat, commitment=commitment))
    return problems


def _aborted_problems(game_id: str, seating: Mapping[str, Any], end: Mapping[str, Any]) -> list[Check]:
    problems: list[Check] = []
    commitments = {s["seat"]: s["client_seed_commitment"] for s in seating["seats"]}
    revealed: set[int] = set()
    for r in end["reveals"]:
        seat = r["seat"]
        if seat in revealed:
            problems.append(failed("client-seeds", "reveal-twice", seat=seat))
            continue
        revealed.add(seat)
        if commitments.get(seat) is None:
            problems.append(failed("client-seeds", "seed-not-committed", seat=seat))
            continue
        found = _seed_problems(seat, r["client_seed"], r["nonce"], with_nonce=True)
        if not found and not _opens(game_id, commitments[seat], r["client_seed"], r["nonce"]):
            found.append(failed("client-seeds", "reveal-mismatch", seat=seat, commitment=commitments[seat]))
        problems.extend(found)
    actual = sorted(s for s, c in commitments.items() if c is not None and s not in revealed)
    if sorted(end["unrevealed"]) != actual or len(set(end["unrevealed"])) != len(end["unrevealed"]):
        problems.append(failed("client-seeds", "unrevealed-wrong", claimed=list(end["unrevealed"]), actual=actual))
    return problems


def revealed_seeds(t: Mapping[str, Any]) -> dict[int, str | None]:
    """Seat -> the client seed it gave (None: none), from the start record, or for a table that ended before
    its start, from the end's reveals."""
    if t.get("start") is not None:
        return {s["seat"]: s["client_seed"] for s in t["start"]["seats"]}
    end = t.get("end") or {}
    return {r["seat"]: r["client_seed"] for r in end.get("reveals") or ()}


def game_seed_of(t: Mapping[str, Any]) -> bytes:
    """The game seed of an ended, started transcript (ValueError when its seeds cannot make one)."""
    seeds = [s["client_seed"] for s in t["start"]["seats"]]
    return game_seed(server_seed_from_hex(t["end"]["server_seed"]), seeds, t["protocol"])


def client_seeds_passed(t: Mapping[str, Any], seed: bytes | None, mine: Sequence[tuple[int, str]] = ()) -> Check:
    mine_seats = [s for s, _ in mine]
    if t.get("start") is None:
        seating = t.get("seating")
        if seating is None:
            return passed("client-seeds", "seeds-never-started")
        end = t.get("end") or {}
        committed = sum(1 for s in seating["seats"] if s["client_seed_commitment"] is not None)
        return passed(
            "client-seeds",
            "seeds-aborted",
            committed=committed,
            revealed=[r["seat"] for r in end.get("reveals") or ()],
            unrevealed=list(end.get("unrevealed") or ()),
            mine=mine_seats,
        )
    given = sum(1 for s in t["start"]["seats"] if s["client_seed"] is not None)
    return passed(
        "client-seeds",
        "seeds-ok",
        given=given,
        game_seed=seed.hex() if seed else None,
        committed=t["protocol"] != "fairdeal/1",
        mine=mine_seats,
    )


# ------------------------------------------------------------------------------------------- the chain


def check_chain(t: Mapping[str, Any], *, parsed: bool = False, hashes: Sequence[str] | None = None) -> list[Check]:
    """ "hash-chain": sequence numbers run 1, 2, ... without gap (the end's too) and each record's "prev" is the
    hash of the record before it (the first one's: the chain's anchor, the last header record). parsed=True: the
    transcript is the reader's output, already validated (the same hashes, faster). `hashes`: the hashes of the
    records and the end, when the caller has them already (transcript.parsed_body_and_hashes)."""
    hash_of = parsed_record_hash if parsed else record_hash
    problems: list[Check] = []
    anchor = anchor_name(t)
    prev_hash = hash_of(t[anchor])
    chained = list(t.get("records") or [])
    if t.get("end") is not None:
        chained.append(t["end"])
    if hashes is None:
        hashes = [hash_of(rec) for rec in chained]
    # every link at once, as two list comparisons; the walk below only runs to find and word what is broken
    if [rec.get("seq") for rec in chained] == list(range(1, len(chained) + 1)) and [
        rec.get("prev") for rec in chained
    ] == [prev_hash, *hashes[: len(chained) - 1]]:
        return problems
    for i, (rec, rec_hash) in enumerate(zip(chained, hashes, strict=True), start=1):
        kind = "end" if rec.get("type") == "end" else "move"
        if rec.get("seq") != i:
            problems.append(failed("hash-chain", "seq-wrong", i, record=kind, place=i, got=rec.get("seq")))
        if rec.get("prev") != prev_hash:
            before = f"the {anchor} record" if i == 1 else f"record {i - 1}"
            problems.append(failed("hash-chain", "prev-broken", i, record=kind, place=i, before=before))
        prev_hash = rec_hash
    return problems


def chain_passed(t: Mapping[str, Any], salts: bool = False) -> Check:
    n = len(t["records"]) + (1 if t.get("end") is not None else 0)
    return passed("hash-chain", "chain-ok", records=n, anchor=anchor_name(t), salts=salts and bool(t["records"]))


def check_salts(seed: bytes, records: Sequence[Mapping[str, Any]]) -> list[Check]:
    """Every move record's salt is the one the game seed derives for its place (transcript.md)."""
    salts = record_salts(seed, len(records))
    if [record.get("salt") for record in records] == salts:  # all at once; the walk words the first wrong
        return []
    for place, (record, salt) in enumerate(zip(records, salts, strict=True), start=1):
        if record.get("salt") != salt:
            return [failed("hash-chain", "salt-wrong", record.get("seq"), place=place)]
    return []


# ------------------------------------------------------------------------------------------- together


def check_transcript(t: Mapping[str, Any], key: str | None = None) -> list[Check]:
    """Every check above that fails (empty: all good): signatures (under `key`, else the transcript's own),
    header, commitment, client seeds, chain and salts. The replay is fairdeal.core.checks'."""
    problems = [c for c in check_signatures(t, key) if c.failed]
    problems += check_header(t) + check_client_seeds(t) + check_chain(t)
    if t.get("end") is None:
        return problems
    problems += check_commitment(t)
    if t.get("start") is not None and not any(c.id == "client-seeds" for c in problems):
        try:
            problems += check_salts(game_seed_of(t), t["records"])
        except ValueError as exc:
            problems.append(failed("client-seeds", "game-seed-invalid", reason=str(exc)))
    return problems
