"""The tamper catalogue: every kind of change to a valid transcript, and the check that must catch it.

Every change is tried on a fairdeal/2 transcript and, where fairdeal/1 has the thing changed, on a fairdeal/1
transcript (the verifier keeps checking both). Three kinds of attacker:
- "server": the server itself, holding the real key, rewrites the game and re-chains and re-signs everything
  consistently; only the replay and the commitment can catch it;
- "raw": someone edits a transcript without the key (nothing is re-signed);
- "attacker": someone re-signs the transcript with their own key; only the key given with --key or pinned
  catches it.

Run `python -m tests.verifier.tamper_kit` for the summary line (changes tried, changes detected).
This module holds the catalogue; tests/verifier/test_tamper.py runs it.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from fairdeal.core.checks import verify_transcript
from fairdeal.core.fairness import PROTOCOL, client_seed_commitment, commitment, record_salt
from fairdeal.core.games import available, rules_class
from fairdeal.core.games.base import Move
from fairdeal.core.integrity import game_seed_of
from fairdeal.core.keys import private_key_from_hex, public_key_text
from fairdeal.core.replay import LiveGame
from fairdeal.core.selfplay import selfplay
from fairdeal.core.transcript import HEADERS, anchor_name, record_hash
from fairdeal.core.writer import sign_record, sign_transcript
from tests.verifier.unrevealed import unrevealed_table

SERVER_KEY = private_key_from_hex("a1" * 32)
ATTACKER_KEY = private_key_from_hex("b2" * 32)
SERVER_PUBLIC = public_key_text(SERVER_KEY)
SERVER_SEED = bytes(range(32))
CLIENT_SEEDS = ["north's seed", None, None, None]  # seat 2 is a human who gave no client seed
PROTOCOLS = ("fairdeal/2", "fairdeal/1")


@cache
def _valid_json(rule_set: str, protocol: str = PROTOCOL) -> dict:
    # Seats 1 and 3 are bots; human moves are mostly the timeout policy's, some recorded as timeouts, some
    # other legal moves: every kind of record is in the game.
    return selfplay(
        rule_set,
        SERVER_KEY,
        SERVER_SEED,
        bots=(1, 3),
        client_seeds=CLIENT_SEEDS,
        timeout_every=4,
        variety_every=3,
        protocol=protocol,
    )


def valid_transcript(rule_set: str, protocol: str = PROTOCOL) -> dict:
    return copy.deepcopy(_valid_json(rule_set, protocol))


@cache
def _aborted_json(rule_set: str) -> dict:
    # fairdeal/2: seats 0 and 2 committed; seat 0 revealed, seat 2 did not: the table is cancelled
    return unrevealed_table(
        rule_set,
        SERVER_KEY,
        SERVER_SEED,
        bots=(1, 3),
        revealed=(0,),
        client_seeds=["north's seed", None, "south's seed", None],
    )


def aborted_transcript(rule_set: str) -> dict:
    return copy.deepcopy(_aborted_json(rule_set))


# ---------------------------------------------------------------------------------------------- re-signing


def _salt_of(t: dict):
    """The record salt function of the transcript's own seeds, or None when there is nothing to salt."""
    if not t["records"]:
        return None
    try:
        seed = game_seed_of(t)
    except (ValueError, KeyError, TypeError):
        return None
    return lambda seq: record_salt(seed, seq)


def rechain(t: dict, keep_salts: bool = False) -> dict:
    """Renumber the records 1, 2, ..., give each the salt its place and the seed derive, and make every "prev"
    the hash of the record before (what a server that rewrites its own log does: it knows the seed)."""
    salt = None if keep_salts else _salt_of(t)
    prev = record_hash(t[anchor_name(t)])
    for i, rec in enumerate(t["records"], start=1):
        rec["seq"], rec["prev"] = i, prev
        if salt is not None:
            rec["salt"] = salt(i)
        prev = record_hash(rec)
    t["end"]["seq"], t["end"]["prev"] = len(t["records"]) + 1, prev
    return t


def resign(t: dict, private_key: Any = SERVER_KEY, keep_salts: bool = False) -> dict:
    """Re-chain and re-sign everything with `private_key` (naming its public key in the records)."""
    key = public_key_text(private_key)
    headers = [name for name in HEADERS.get(t["protocol"], ("commit", "seating", "start")) if name in t]
    for name in headers:
        t[name]["key"] = key
    rechain(t, keep_salts)
    for name in headers:
        t[f"{name}_signature"] = sign_record(private_key, t[name])
    t.pop("signature", None)
    t["signature"] = sign_transcript(private_key, t)
    return t


def recommit(t: dict, server_seed: bytes) -> dict:
    """A different server seed, with the commitment recomputed for it (as if it had been committed to)."""
    c = commitment(server_seed, t["commit"]["game_id"], t["commit"]["rules"], t["protocol"])
    for name in HEADERS[t["protocol"]]:
        if name in t:
            t[name]["commitment"] = c
    t["end"]["server_seed"] = server_seed.hex()
    return t


def seat_records(t: dict) -> list[dict]:
    """Every seat list of the header (the seating's and the start's): a consistent rewrite changes them all."""
    return [t[name]["seats"] for name in ("seating", "start") if t.get(name) is not None]


# ------------------------------------------------------------------------------------------ finding records


def states(t: dict) -> Iterator[tuple[int, dict, LiveGame]]:
    """(index, record, the game just before it) for every move record of a valid transcript."""
    game = LiveGame(t["start"], game_seed_of(t))
    for i, rec in enumerate(t["records"]):
        yield i, rec, game
        game.apply_record(rec)


def _first(t: dict, want: Callable[[int, dict, LiveGame], Any]) -> tuple[int, Any] | None:
    for i, rec, game in states(t):
        got = want(i, rec, game)
        if got is not None:
            return i, got
    return None


def _other_legal(by: str):
    def want(i, rec, game):
        if rec["by"] != by or rec["move"]["kind"] != "play":
            return None
        others = [m for m in game.state.legal_moves(rec["seat"]) if m.to_json() != rec["move"]]
        return others[0].to_json() if others else None

    return want


def _bot_as_timeout(t):
    """A bot's move replaced by the timeout policy's (different) choice, recorded as a timeout."""

    def want(i, rec, game):
        if rec["by"] != "bot":
            return None
        other = game.timeout_move(rec["seat"]).to_json()
        return other if other != rec["move"] else None

    found = _first(t, want)
    if found is None:
        return None
    i, move = found
    t["records"][i]["move"], t["records"][i]["by"] = move, "timeout"
    return t


def _not_held(i, rec, game):
    if i == 0 or rec["by"] != "player" or rec["move"]["kind"] != "play":
        return None
    for other in range(len(game.state.view(None)["players"] if False else t_players(game))):
        if other == rec["seat"]:
            continue
        hand = game.state.view(other).get("hand") or []
        if hand:
            return {"kind": "play", "card": hand[0]}
    return None


def t_players(game: LiveGame) -> list[int]:
    return list(range(game.rules.players))


def _held_illegal(i, rec, game):
    if rec["by"] != "player" or rec["move"]["kind"] != "play":
        return None
    hand = game.state.view(rec["seat"]).get("hand") or []
    legal = {m.card for m in game.state.legal_moves(rec["seat"]) if m.kind == "play"}
    for text in hand:
        if Move.from_json({"kind": "play", "card": text}).card not in legal:
            return {"kind": "play", "card": text}
    return None


def _replace_move(find) -> Callable[[dict], dict | None]:
    def apply(t):
        found = _first(t, find)
        if found is None:
            return None
        i, move = found
        t["records"][i]["move"] = move
        return t

    return apply


def _swap(t):
    for i in range(1, len(t["records"]) - 1):
        a, b = t["records"][i], t["records"][i + 1]
        if a["seat"] != b["seat"]:
            t["records"][i], t["records"][i + 1] = b, a
            return t
    return None


def _drop(t):
    for i in range(5, len(t["records"]) - 1):
        if t["records"][i]["seat"] != t["records"][i + 1]["seat"]:
            del t["records"][i]
            return t
    return None


def _duplicate(t):
    for i in range(5, len(t["records"]) - 1):
        if t["records"][i]["seat"] != t["records"][i + 1]["seat"]:
            t["records"].insert(i + 1, copy.deepcopy(t["records"][i]))
            return t
    return None


def _wrong_kind(t):
    found = _first(
        t, lambda i, rec, g: rec["move"] if rec["move"]["kind"] == "play" and rec["by"] == "player" else None
    )
    if found is None:
        return None
    t["records"][found[0]]["move"] = {"kind": "bid", "value": 99}
    return t


def _score(t):
    t["end"]["result"]["scores"][0] += 5
    return t


def _winner(t):
    result = t["end"]["result"]
    everyone = set(range(t["start"]["rules"]["players"]))
    losers = sorted(everyone - set(result["winners"]))
    result["winners"] = losers[: len(result["winners"])] or [0]
    return t


def _reason(t):
    t["end"]["reason"] = "abandoned"
    return t


def _truncated(t):
    del t["records"][-4:]
    return t


def _other_seed(t):
    return recommit(t, hashlib.sha256(b"another seed").digest())


def _revealed_seed(t):
    t["end"]["server_seed"] = hashlib.sha256(b"not the committed seed").hexdigest()
    return t


def _client_seed(t):
    """The server swaps seat 0's client seed for one of its choosing; in fairdeal/2 it also makes the commitment
    fit (with a nonce of its own), as if the seat had committed to it."""
    seed = "north's other seed"
    t["start"]["seats"][0]["client_seed"] = seed
    if t["protocol"] != "fairdeal/1":
        nonce = hashlib.sha256(b"the server's nonce").hexdigest()
        for seats in seat_records(t):
            seats[0]["client_seed_commitment"] = client_seed_commitment(t["commit"]["game_id"], seed, nonce)
        t["start"]["seats"][0]["nonce"] = nonce
    return t


def _revealed_seed_only(t):
    """fairdeal/2: the revealed seed changed, the commitment left as the seat made it."""
    if t["protocol"] == "fairdeal/1":
        return None
    t["start"]["seats"][0]["client_seed"] = "north's other seed"
    return t


def _commitment_in_seating(t):
    """fairdeal/2: the seating's commitment of seat 0 is not the one the start reveals against."""
    if t["protocol"] == "fairdeal/1":
        return None
    t["seating"]["seats"][0]["client_seed_commitment"] = hashlib.sha256(b"another commitment").hexdigest()
    return t


def _clocks_off(t):
    """fairdeal/2: the table said to have had no clock, yet its log holds timeout moves."""
    if t["protocol"] == "fairdeal/1" or not any(r["by"] == "timeout" for r in t["records"]):
        return None
    t["start"]["clocks"] = {name: None for name in t["start"]["clocks"]}
    return t


def _noncanonical(change):
    """fairdeal/2: a move written another way than its one form (same move, another record)."""

    def apply(t):
        if t["protocol"] == "fairdeal/1":
            return None
        for rec in t["records"]:
            moved = change(copy.deepcopy(rec["move"]))
            if moved is not None and moved != rec["move"]:
                rec["move"] = moved
                return t
        return None

    return apply


def _extra_member(move):
    return {**move, "card": "AS"} if move["kind"] == "bid" else None


def _ten_as_t(move):
    return (
        {**move, "card": "T" + move["card"][2:]} if move["kind"] == "play" and move["card"].startswith("10") else None
    )


def _lower_case(move):
    return {**move, "card": move["card"].lower()} if move["kind"] == "play" else None


def _unsorted_throw(move):
    cards = move.get("cards") or []
    return {**move, "cards": list(reversed(cards))} if move["kind"] == "throw" and len(cards) > 1 else None


def _dealer(t):
    """fairdeal/2: another seat named as the dealer of a deal in the end record."""
    if t["protocol"] == "fairdeal/1":
        return None
    deal = t["end"]["deals"][-1]
    deal["dealer"] = (deal["dealer"] + 1) % t["commit"]["rules"]["players"]
    return t


def _a_deal_fewer(t):
    if t["protocol"] == "fairdeal/1":
        return None
    t["end"]["deals"].pop()
    return t


def _deal_layout(t):
    if t["protocol"] == "fairdeal/1":
        return None
    t["commit"]["deal_layout"] = "spades-4" if t["commit"]["deal_layout"] != "spades-4" else "twenty-down-3-2"
    return t


def _log(t):
    """fairdeal/2's "log" is outside the final signature: no other check's verdict depends on it, and the
    log-inclusion check fails one that proves nothing (docs/log.md)."""
    if t["protocol"] == "fairdeal/1":
        return None
    t["log"] = {"anything": ["the transparency log's, later"]}
    return t


def _a_setting(t):
    cls = rules_class(t["commit"]["rules"]["id"])
    for s in cls.SETTINGS:
        current = t["commit"]["rules"]["settings"].get(s.name, s.default)
        for choice in s.choices:
            if choice != current:
                return s.name, choice
    return None


def _setting_both(t):
    found = _a_setting(t)
    if found is None:
        return None
    name, value = found
    for rec in (t["commit"], t["start"]):
        rec["rules"] = copy.deepcopy(rec["rules"])
        rec["rules"]["settings"][name] = value
    return t


def _setting_start(t):
    found = _a_setting(t)
    if found is None:
        return None
    name, value = found
    t["start"]["rules"] = copy.deepcopy(t["start"]["rules"])
    t["start"]["rules"]["settings"][name] = value
    return t


def _bot_flag(t):
    for seats in seat_records(t):
        seats[1]["bot"] = False
    return t


def _human_flag(t):
    for seats in seat_records(t):
        seats[2]["bot"] = True  # seat 2 gave no client seed, so the game seed is unchanged
    return t


def _rewrite_record(t):
    t["records"][9]["at"] = "2026-01-01T00:00:09Z"  # any change to record 10 changes its hash
    return t


def _salt(t):
    if "salt" not in t["records"][6]:
        return None  # a transcript format without record salts
    t["records"][6]["salt"] = hashlib.sha256(b"a salt the seed does not derive").hexdigest()
    return t


def _prev(t):
    t["records"][7]["prev"] = "0" * 64
    return t


def _unsigned_card(t):
    return _replace_move(_other_legal("player"))(t)


def _flip(sig: str) -> str:
    return ("A" if sig[0] != "A" else "B") + sig[1:]


def _final_sig(t):
    t["signature"] = _flip(t["signature"])
    return t


def _start_sig(t):
    t["start_signature"] = _flip(t["start_signature"])
    return t


def _commit_sig(t):
    t["commit_signature"] = _flip(t["commit_signature"])
    return t


def _key_swapped(t):
    for name in HEADERS[t["protocol"]]:
        t[name]["key"] = public_key_text(ATTACKER_KEY)
    return t


def _seating_sig(t):
    if t["protocol"] == "fairdeal/1":
        return None
    t["seating_signature"] = _flip(t["seating_signature"])
    return t


def _protocol(t):
    t["protocol"] = "fairdeal/3"
    return t


# ------------------------------------------------------------------- a table whose seats did not all reveal


def _abort_names_another_seat(t):
    t["end"]["unrevealed"] = [0]
    return t


def _abort_hides_a_reveal(t):
    t["end"]["reveals"] = []  # seat 0 did reveal; the server says it did not...
    t["end"]["unrevealed"] = [0, 2]  # ...and names it: but a seat cannot be shown to have revealed or not
    return t


def _abort_bad_reveal(t):
    t["end"]["reveals"][0]["client_seed"] = "not what north committed to"
    return t


def _abort_as_finished(t):
    t["end"]["reason"] = "finished"
    return t


def _abort_everyone_revealed(t):
    t["end"]["reveals"] = []
    t["end"]["unrevealed"] = []
    for seats in seat_records(t):
        for s in seats:
            s["client_seed_commitment"] = None
    t["seating"]["reveal_deadline"] = None
    return t


@dataclass(frozen=True)
class Tamper:
    name: str
    expected: str | None  # the check id that must fail (None: no check may fail)
    mode: str  # "server" (re-signed with the real key), "raw", "attacker"
    change: Callable[[dict], dict | None]  # None: this change does not apply to this game
    options: tuple = ()  # extra verify_transcript options as (name, value) pairs
    keep_salts: bool = False  # "server": re-chain without deriving the salts again
    v1_expected: str | None = "same"  # fairdeal/1's check when it differs ("same": as `expected`)
    aborted: bool = False  # tried on a table whose seats did not all reveal (fairdeal/2)

    def expected_for(self, protocol: str) -> str | None:
        return self.expected if protocol != "fairdeal/1" or self.v1_expected == "same" else self.v1_expected


RECEIPT = "receipt"  # marker: give the player's receipt of record 10 from the valid transcript

TAMPERS: tuple[Tamper, ...] = (
    # cards and seeds
    Tamper("a played card the deal did not give", "deals", "server", _replace_move(_not_held)),
    Tamper("another server seed, committed consistently", "deals", "server", _other_seed),
    Tamper("a client seed changed (and its commitment)", "deals", "server", _client_seed),
    Tamper(
        "a client seed changed, the player checks theirs",
        "client-seeds",
        "server",
        _client_seed,
        (("client_seeds", ((0, CLIENT_SEEDS[0]),)),),
    ),
    Tamper("a revealed seed that does not open its commitment", "client-seeds", "server", _revealed_seed_only),
    Tamper("the seating's commitment is not the one revealed against", "header", "server", _commitment_in_seating),
    Tamper("the revealed seed is not the committed one", "commitment", "server", _revealed_seed),
    # moves
    Tamper("a move's card: a held card that may not be played", "moves-legal", "server", _replace_move(_held_illegal)),
    Tamper("a move of the wrong kind", "moves-legal", "server", _wrong_kind),
    Tamper("a bot's card: another legal card", "bot-moves", "server", _replace_move(_other_legal("bot"))),
    Tamper(
        "a bot's move swapped for the timeout policy's, recorded as a timeout", "bot-moves", "server", _bot_as_timeout
    ),
    Tamper("a timeout's card: another legal card", "timeout-moves", "server", _replace_move(_other_legal("timeout"))),
    Tamper("a timeout move at a table without clocks", "timeout-moves", "server", _clocks_off),
    Tamper("a bid with a member bids do not have", "moves-legal", "server", _noncanonical(_extra_member)),
    Tamper("a ten written T", "moves-legal", "server", _noncanonical(_ten_as_t)),
    Tamper("a card in lower case", "moves-legal", "server", _noncanonical(_lower_case)),
    Tamper("thrown cards out of order", "moves-legal", "server", _noncanonical(_unsorted_throw)),
    Tamper("two moves swapped", "moves-legal", "server", _swap),
    Tamper("a move dropped", "moves-legal", "server", _drop),
    Tamper("a move duplicated", "moves-legal", "server", _duplicate),
    # the end
    Tamper("a score", "result", "server", _score),
    Tamper("the winner", "result", "server", _winner),
    Tamper("a finished game called abandoned", "result", "server", _reason),
    Tamper("the last moves cut off", "result", "server", _truncated),
    Tamper("a deal's dealer in the end record", "deals", "server", _dealer),
    Tamper("a deal missing from the end record", "deals", "server", _a_deal_fewer),
    Tamper("the deal layout named", "header", "server", _deal_layout),
    Tamper("a made-up log member added", "log-inclusion", "raw", _log),
    # the table
    Tamper("a setting, in the commitment and the start", "commitment", "server", _setting_both),
    Tamper("a setting, in the start only", "header", "server", _setting_start),
    Tamper("a bot seat called human", "bot-moves", "server", _bot_flag),
    Tamper("a human seat called a bot", "bot-moves", "server", _human_flag),
    # the chain and the receipts
    Tamper("a record rewritten after its receipt", "receipts", "server", _rewrite_record, ((RECEIPT, 10),)),
    Tamper("a record hash", "hash-chain", "raw", _prev),
    Tamper("a record's salt, re-chained", "hash-chain", "server", _salt, keep_salts=True),
    Tamper("a move's card, not re-signed", "signature-transcript", "raw", _unsigned_card),
    # signatures and the key
    Tamper("the final signature", "signature-transcript", "raw", _final_sig),
    Tamper("the start signature", "signature-start", "raw", _start_sig),
    Tamper("the seating signature", "signature-start", "raw", _seating_sig),
    Tamper("the commit signature", "signature-start", "raw", _commit_sig),
    Tamper("the key named, not re-signed", "signature-start", "raw", _key_swapped),
    Tamper(
        "re-signed by another key (--key given)", "signature-start", "attacker", lambda t: t, (("key", SERVER_PUBLIC),)
    ),
    Tamper(
        "re-signed by another key (the key pinned)",
        "signature-start",
        "attacker",
        lambda t: t,
        (("pins", {"the service": SERVER_PUBLIC}),),
    ),
    Tamper("the protocol version", "protocol", "raw", _protocol),
    # a table cancelled because a committed seat did not reveal
    Tamper("an abort naming a seat that revealed", "client-seeds", "server", _abort_names_another_seat, aborted=True),
    Tamper("an abort hiding a reveal and naming its seat", None, "server", _abort_hides_a_reveal, aborted=True),
    Tamper(
        "an abort with a reveal that does not open its commitment",
        "client-seeds",
        "server",
        _abort_bad_reveal,
        aborted=True,
    ),
    Tamper("an abort called finished", "result", "server", _abort_as_finished, aborted=True),
    Tamper("an abort for seats that committed to nothing", "result", "server", _abort_everyone_revealed, aborted=True),
)


@dataclass
class Outcome:
    rule_set: str
    tamper: Tamper
    applied: bool
    failed: tuple[str, ...] = ()
    exit_code: int = 0
    protocol: str = PROTOCOL

    @property
    def expected(self) -> str | None:
        return self.tamper.expected_for(self.protocol)

    @property
    def detected(self) -> bool:
        """Caught: the report fails (or, for a change the protocol leaves free, rightly does not)."""
        return self.applied and (self.exit_code != 0) == (self.expected is not None)

    @property
    def named(self) -> bool:
        return self.expected in self.failed if self.expected is not None else self.exit_code == 0


def tampered(rule_set: str, tamper: Tamper, protocol: str = PROTOCOL) -> tuple[dict, dict[str, Any]] | None:
    """The changed transcript and the options to verify it with, or None when the change does not apply."""
    if tamper.aborted and protocol == "fairdeal/1":
        return None
    base = aborted_transcript(rule_set) if tamper.aborted else valid_transcript(rule_set, protocol)
    t = tamper.change(base)
    if t is None:
        return None
    if tamper.mode == "server":
        resign(t, SERVER_KEY, tamper.keep_salts)
    elif tamper.mode == "attacker":
        resign(t, ATTACKER_KEY)
    options: dict[str, Any] = {}
    for name, value in tamper.options:
        if name == RECEIPT:
            original = _valid_json(rule_set, protocol)["records"][value - 1]
            options["receipts"] = [(value, record_hash(original))]
        else:
            options[name] = value
    return t, options


def run_tamper(rule_set: str, tamper: Tamper, protocol: str = PROTOCOL) -> Outcome:
    made = tampered(rule_set, tamper, protocol)
    if made is None:
        return Outcome(rule_set, tamper, False, protocol=protocol)
    t, options = made
    report = verify_transcript(t, **options)
    return Outcome(rule_set, tamper, True, tuple(c.id for c in report.failed), report.exit_code, protocol)


def run_all(rule_sets: list[str] | None = None, protocols: tuple[str, ...] = PROTOCOLS) -> list[Outcome]:
    return [
        run_tamper(rs, tamper, protocol)
        for protocol in protocols
        for rs in (rule_sets or available())
        for tamper in TAMPERS
    ]


def summary(outcomes: list[Outcome]) -> str:
    tried = [o for o in outcomes if o.applied]
    detected = [o for o in tried if o.detected]
    named = [o for o in tried if o.named]
    rule_sets = sorted({o.rule_set for o in outcomes})
    protocols = sorted({o.protocol for o in tried})
    return (
        f"tamper suite: {len(tried)} changes tried over {len(rule_sets)} rule sets and {len(protocols)} "
        f"protocols, {len(detected)} detected, {len(named)} named by the expected check"
    )


if __name__ == "__main__":
    results = run_all()
    for o in results:
        if o.applied and not o.named:
            print(f"MISSED {o.protocol} {o.rule_set}: {o.tamper.name}: expected {o.expected}, failed {list(o.failed)}")
        elif not o.applied:
            print(f"n/a    {o.protocol} {o.rule_set}: {o.tamper.name}")
    print(summary(results))
