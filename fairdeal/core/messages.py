"""Every sentence the verifier says about a check, made from the check's structured result.

A check result is data: the check id, its status, a `code` naming what was found and the `fields` (the facts:
record numbers, seats, hashes). `render(code, fields)` is the one place that turns it into words, for the text
report, the `detail` of the JSON report and the story of `--explain`; a program reads the code and the fields.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

Fields = Mapping[str, Any]


def _seats(seats: Any) -> str:
    seats = list(seats or ())
    return ("seat " if len(seats) == 1 else "seats ") + ", ".join(str(s) for s in seats)


def _short(digest: Any) -> str:
    return f"{str(digest)[:16]}..."


def _record(f: Fields) -> str:
    return "The end record" if f.get("record") == "end" else f"Move record {f.get('place')}"


def _chain_ok(f: Fields) -> str:
    text = f"{f['records']} record(s) chained from the {f['anchor']} record"
    if f.get("salts"):
        text += "; every move record's salt is the one the seed derives"
    return text


def _chain_more(f: Fields) -> str:
    return f" ({f['more']} more break(s) after it)" if f.get("more") else ""


def _signed(f: Fields) -> str:
    names = list(f["records"])
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return f"the {listed} record{'s are' if len(names) > 1 else ' is'} signed by key {f['key_id']}"


def _header_ok(f: Fields) -> str:
    if not f.get("started"):
        if f.get("seated"):
            return "the seating repeats the committed game, rules and key; the table ended before it started"
        return "the game was cancelled before it started (no start record)"
    repeats = "the seating and start records repeat" if f.get("seated") else "the start record repeats"
    return f"{repeats} the committed game, rules and key"


def _seeds_ok(f: Fields) -> str:
    committed = ", each the one its seat committed to," if f.get("committed") else ""
    mine = f"; yours ({_seats(f['mine'])}) among them" if f.get("mine") else ""
    return (
        f"{f['given']} client seed(s){committed} bound with the server seed into game seed "
        f"{_short(f['game_seed'])}{mine}"
    )


def _seeds_aborted(f: Fields) -> str:
    text = (
        f"{len(f['revealed'])} of {f['committed']} committed seat(s) revealed a client seed, each the one committed to"
    )
    if f.get("unrevealed"):
        text += f"; {_seats(f['unrevealed'])} did not reveal"
    mine = f"; yours ({_seats(f['mine'])}) among them" if f.get("mine") else ""
    return text + mine


def _deals_ok(f: Fields) -> str:
    hands = f"{f['hands']} hand(s)" if f.get("hands") is not None else "every hand"
    first = f"; seat {f['first_seat']} moved first as the seed's dealer requires" if f.get("moves") else ""
    dealers = "; the end record names every deal's dealer as the replay does" if f.get("dealers") else ""
    source = "by the seats' blind shuffles" if f.get("blind") else "from the revealed seed"
    return f"{hands} dealt {source}; every card played or thrown was in the mover's hand{first}{dealers}"


def _deals_differ(f: Fields) -> str:
    if f.get("hand") is None:
        return f"the end record lists {f['claimed']} deal(s); the replay dealt {f['actual']}"
    return (
        f"the end record says seat {f['claimed']} dealt deal {f['hand']}; with the dealers re-derived from the "
        f"seed, seat {f['actual']} did"
    )


def _result_text(result: Any) -> str:
    if not isinstance(result, Mapping):
        return "no result" if result is None else repr(result)
    parts = []
    if result.get("scores") is not None:
        parts.append(f"scores {result['scores']}")
    winners = result.get("winners")
    if winners is not None:
        parts.append(
            f"winner(s) seat {', '.join(str(w) for w in winners)}"
            if isinstance(winners, list)
            else f"winners {winners!r}"
        )
    extra = sorted(k for k in result if k not in ("scores", "winners", "sides"))
    if extra:
        parts.append("and " + ", ".join(extra))
    return " ".join(parts) or repr(dict(result))


def _aborted(f: Fields) -> str:
    if f.get("unrevealed"):
        return (
            f"the table was cancelled before any card existed: {_seats(f['unrevealed'])} did not reveal "
            f"{'its' if len(f['unrevealed']) == 1 else 'their'} client seed; no result, as recorded"
        )
    return "the table was cancelled before it started; no result, as recorded"


# How each end reason reads after "the game was ..."
_ENDED = {"no-humans": "ended by the service, every seat a bot,", "move-cap": "ended at the service's move cap"}


def _ended(reason: Any) -> str:
    return _ENDED.get(reason, str(reason))


Template = str | Callable[[Fields], str]

MESSAGES: dict[str, Template] = {
    # protocol
    "protocol-known": "protocol {protocol}",
    "protocol-unknown": "the transcript uses protocol {named!r}; this verifier knows {known}",
    # signatures
    "headers-signed": _signed,
    "final-signed": "the whole transcript is signed by key {key_id}",
    "final-not-yet": "the game has not ended: the transcript is signed as a whole when it ends",
    "key-not-given": "the transcript is signed by key {key_id}, which is not one of the keys you gave ({given})",
    "key-not-pinned": "the transcript is signed by key {key_id}, which is not a pinned key (pinned: {pinned})",
    "no-key": "the transcript names no usable key",
    "key-unreadable": "the key cannot be read: {reason}",
    "key-differs": "the transcript names key {named}, not {key_id}",
    "header-signature-bad": "the {record} record's signature is not valid under key {key_id}",
    "final-signature-missing": "the game has ended but the transcript has no final signature",
    "final-signature-bad": (
        "the final signature is not valid under key {key_id}: something in the transcript was "
        "changed after it was signed, or another key signed it"
    ),
    # header
    "header-ok": _header_ok,
    "protocol-differs": "the {record} record names protocol {named!r}, the transcript {protocol!r}",
    "repeat-differs": "the {record} record's {member} differs from the commit record's",
    "seats-order": "the {record} record's seats are not numbered 0, 1, 2, ... in order",
    "seats-count": "the rules are for {players} players but the {record} record lists {seats} seats",
    "seating-differs": "the start record's seat {seat} is not the seating record's (its {member} differs)",
    "reveal-deadline": "the seating record has a reveal deadline exactly when some seat committed to a client seed",
    "deal-layout": "the commit record names deal layout {named!r}; {rule_set} deals by {layout!r}",
    # commitment
    "commitment-noted-ok": (
        "the transcript commits to {commitment}, whose first {digits} hex digits are the {noted} you noted"
    ),
    "commitment-noted-differs": (
        "the transcript commits to {commitment}, not to the {noted} you noted: this is not the game you were shown"
    ),
    "commitment-ok": "SHA-256 of the revealed seed, game id, rules and protocol is {commitment_short}, as committed",
    "not-ended": "the game has not ended: the server seed is not revealed yet, so the commitment cannot be checked",
    "commitment-unreadable": "the commitment cannot be recomputed: {reason}",
    "commitment-mismatch": "the revealed server seed does not match the commitment published before the game",
    # client seeds
    "seeds-ok": _seeds_ok,
    "seeds-aborted": _seeds_aborted,
    "seeds-never-started": "the game never started: no client seeds",
    "bot-has-seed": "seat {seat} is a bot but has a client seed",
    "bot-has-commitment": "seat {seat} is a bot but committed to a client seed",
    "seed-invalid": "seat {seat}'s client seed is not valid: {reason}",
    "nonce-invalid": "seat {seat}'s nonce is not valid: {reason}",
    "seed-not-revealed": "seat {seat} committed to a client seed but the start record reveals no seed and nonce",
    "seed-not-committed": "seat {seat} reveals a client seed and nonce it never committed to",
    "reveal-mismatch": "seat {seat}'s revealed client seed and nonce do not open its commitment {commitment_short}",
    "reveal-twice": "the end record lists seat {seat}'s reveal twice",
    "unrevealed-wrong": (
        "the end record names {claimed_text} as not revealed; by the seating and the reveals it is {actual_text}"
    ),
    "game-seed-invalid": "no game seed can be made: {reason}",
    "no-such-seat": "there is no seat {seat}",
    "not-your-seed": "seat {seat}'s client seed in the transcript is {actual!r}, not the {given!r} you gave",
    "seed-not-in-transcript": "seat {seat} revealed no client seed in this transcript, not the {given!r} you gave",
    # the chain
    "chain-ok": _chain_ok,
    "seq-wrong": lambda f: f"{_record(f)} has sequence number {f['got']!r}; {f['place']} was expected" + _chain_more(f),
    "prev-broken": lambda f: (
        f"{_record(f)} does not carry the hash of {f['before']} (the chain is broken there)" + _chain_more(f)
    ),
    "salt-wrong": "move record {seq}'s salt is not the one the revealed seed derives for record {place}",
    "seq-follows": "record {seq} follows record {previous}; expected {expected}",
    "prev-mismatch": "record {seq} does not carry the hash of the record before it",
    "salt-mismatch": "record {seq}'s salt is not the one the seed derives",
    # the replay
    "deals-ok": _deals_ok,
    "deals-differ": _deals_differ,
    "first-mover": (
        "record {seq}: the first move is by seat {seat}, but with the dealer re-derived from the seed "
        "seat {expected} moves first"
    ),
    "card-not-dealt": (
        "record {seq}: seat {seat} used {card}, which the deal re-derived from the revealed seed did not give that seat"
    ),
    "card-used-twice": (
        "record {seq}: seat {seat} used {card} there and again at record {again}; the deal re-derived from the "
        "revealed seed gave it one {card}, so one of the two records was changed (most likely record {seq}, made "
        "into a card the seat played later)"
    ),
    "moves-ok": "{moves} move(s), each legal in its turn",
    "out-of-turn": "record {seq}: seat {seat} moved out of turn; it was seat {to_move}'s turn",
    "after-the-end": "record {seq}: seat {seat} moved after the game was over",
    "unknown-mover": "record {seq} names an unknown mover {by!r}",
    "move-unreadable": "record {seq}: {reason}",
    "move-not-canonical": (
        "record {seq}: the move {move} is not written in its one form: fairdeal/2 writes it {canonical}"
    ),
    "illegal": "record {seq}: seat {seat} {move} is illegal: {reason}",
    "unapplicable": "record {seq}: the move could not be applied ({reason})",
    "bots-ok": lambda f: (
        (f"{f['count']} bot move(s), each the bot policy's choice from its own view" if f["count"] else "no bot moves")
        + (
            f" (of them {f['stand_ins']} by the table's bot standing in for a player who was away)"
            if f.get("stand_ins")
            else ""
        )
    ),
    "bot-move-by-human": "record {seq} is a bot move for seat {seat}, which is not a bot",
    "player-move-by-bot": "record {seq} is a player move for seat {seat}, which is a bot",
    "stand-in-for-bot": "record {seq} is a stand-in move for seat {seat}, which is a bot (its moves are bot moves)",
    "timeout-by-bot": "record {seq} is a timeout move for seat {seat}, which is a bot and moves by the bot policy only",
    "policy-failed": "record {seq}: the {by} policy could not run: {reason}",
    "policy-differs": "record {seq}: seat {seat}'s {by} move was {move}, the {by} policy chooses {expected}",
    "timeouts-ok": lambda f: (
        f"{f['count']} timeout move(s), each the timeout policy's choice" if f["count"] else "no timeout moves"
    ),
    "timeout-without-clock": (
        "record {seq} is a timeout move for seat {seat}, but the table has no clock: nobody's time can run out there"
    ),
    "timeout-kind-without-clock": (
        "record {seq} is a timeout move for seat {seat}, but the table has no clock for "
        "a {kind} decision: nobody's time can run out there"
    ),
    # the result
    "result-ok": lambda f: f"the replay gives {_result_text(f['result'])}, as recorded",
    "result-not-finished": lambda f: f"the game was {_ended(f['reason'])} before its end; no result, as recorded",
    "result-aborted": _aborted,
    "result-not-over": "the transcript says the game finished, but after its last move the replay is not over",
    "result-over": lambda f: (
        f"the transcript says the game was {_ended(f['reason'])}, but the replay shows it finished"
    ),
    "result-differs": lambda f: (
        f"the end record claims {_result_text(f['claimed'])}, the replay gives {_result_text(f['actual'])}"
    ),
    "result-never-started": "the game never started but the end record carries a result",
    "reason-not-started": "the end record says the game {reason}, but it never started",
    "reason-not-revealed": ("the end record says a seat did not reveal its client seed, but {why}"),
    "reason-no-humans": lambda f: (
        f"the end record says no seat was a human's, but {_seats(f['seats'])} "
        f"{'was' if len(f['seats']) == 1 else 'were'} not a bot"
    ),
    # receipts
    "receipts-ok": "{count} receipt(s) match the records in the chain",
    "receipt-unknown": "there is no move record {seq}: the transcript has {records}",
    "receipt-differs": (
        "the receipt for record {seq} was {given_short}, the record in the transcript hashes to "
        "{actual_short}: the record was changed after you got the receipt"
    ),
    # the transparency log (docs/log.md)
    "log-included": (
        "the {kinds} are leaves {indexes} of the log whose head of size {size} (root {root_short}) "
        "is signed by key {key_id}"
    ),
    "log-included-cosigned": (
        "the {kinds} are leaves {indexes} of the log whose head of size {size} (root "
        "{root_short}) is signed by key {key_id} and cosigned by {cosigners}"
    ),
    "log-not-included": "{reason}",
    "log-head-untrusted": (
        "the log's tree head is signed by key {key_id}, which is not {trusted} ({keys}): a "
        "head anyone can sign proves nothing about the service's log"
    ),
    "log-head-key-time": lambda f: (
        f"the log's tree head of size {f['size']} is dated {f['time']}, when its key {f['key_id']} was "
        + (
            f"retired already (retired {f['retired']})"
            if f["status"] == "retired"
            else f"not made yet (created {f['created']})"
        )
        + ": the service's key at that time signs its heads"
    ),
    "log-not-cosigned": (
        "the log's checkpoint carries valid cosignatures by {count} of the witnesses given "
        "({cosigners}): {quorum} are required"
    ),
    # skipped
    "no-receipt": "no receipt was given (--receipt SEQ:HASH)",
    "no-commitment-noted": "no commitment was given (--commitment HEX)",
    "no-log": "the transcript carries no transparency-log proof (no log member)",
    # blind tables (docs/blind.md, "Findings"): who is at fault is {seat} (None: the server)
    "not-blind": "not a blind table",
    "blind-deal-unknown": "not checked: the cards of deal {hand} cannot be derived (see blind-messages and blind-deal)",
    "blind-messages-ok": "{count} signed message(s) of {seats} seats, each in form, every secret opening its commit",
    "blind-deal-ok": "{deals} deal(s), every shuffle, lock and key release the one its seat's secret gives",
    "blind-opens-ok": "{plays} card(s) played, each opened by its holder with the final deck's keys",
    "blind-blame-ok": lambda f: (
        (
            f"the end names {_seats(f['claimed'])} at fault, as the messages show"
            if f["claimed"]
            else "the end blames no seat"
        )
        + (f"; the messages show {_seats(f['named'])} at fault" if f["named"] != f["claimed"] else "")
        + (
            f" (seat {f['stalled']} by the abort record: its {f['step']} of deal {f['deal']} was due and is not in "
            "the log)"
            if "stalled" in f
            else ""
        )
        + (f" (seat {f['replayed']} by the rules replay, at the record the abort names)" if "replayed" in f else "")
    ),
    "blind-blame-framed": "the end names {framed_text} at fault, but the messages show no fault of theirs",
    "blind-stall-framed": (
        "the abort blames seat {blamed} for its {step} of deal {deal} not sent in time ({why}), but {because}: "
        "the server's fault"
    ),
    "blind-stall-unknown": "the transcript's abort record (blind.abort) is not in its form: {reason}",
    "blind-blame-unchecked": (
        "not checked: the end blames seat {seat} for a {why}, which only the rules replay shows, and the deals "
        "cannot be derived"
    ),
    "blind-play-not-opened": "record {seq}: seat {seat} played {card} without an open of it from a position it holds",
    "blind-layout": "the deal layout {layout!r} cannot be dealt blind by this verifier",
    "blind-message-form": "message {index} (seat {claimed_seat}) is not in its form: {reason}",
    "blind-signature": "message {index} ({type} of seat {claimed_seat}) is not signed by that seat: the server's fault",
    "blind-two-messages": "seat {seat} signed two different {type} messages for deal {deal}",
    "blind-missing-commit": "seat {seat} has no commit",
    "blind-missing-reveal": lambda f: (
        f"seat {f['seat']} did not reveal its secret"
        if f.get("seat") is not None
        else f"the store holds a reveal of seat {f.get('claimed_seat')} it did not sign: the server's fault"
    ),
    "blind-reveal-mismatch": "seat {seat}'s revealed secret does not open its commitment",
    "blind-box-key-differs": "seat {seat}'s box key is not the one its secret gives",
    "blind-missing-message": lambda f: (
        f"seat {f['seat']} sent no {f['type']} for deal {f['deal']}"
        if f.get("seat") is not None
        else f"the {f['type']} of seat {f.get('claimed_seat')} for deal {f['deal']} is missing, a forgery in its "
        "place: the server's fault"
    ),
    "blind-not-a-point": "seat {seat}'s {type} of deal {deal} holds no curve point at positions {positions}",
    "blind-shuffle-wrong-mask": "seat {seat}'s shuffle of deal {deal} is not masked with its secret's key",
    "blind-shuffle-replaced": "seat {seat}'s shuffle of deal {deal} replaced the element(s) at positions {positions}",
    "blind-shuffle-not-permutation": (
        "seat {seat}'s shuffle of deal {deal} is no permutation: positions {positions} hold one card"
    ),
    "blind-shuffle-order": "seat {seat}'s shuffle of deal {deal} is not the permutation its secret gives",
    "blind-lock-differs": "seat {seat}'s lock of deal {deal} differs from its secret's at positions {positions}",
    "blind-release-skipped": "seat {seat}'s release of deal {deal} skips positions {positions} (to seats {holders})",
    "blind-release-extra": "seat {seat}'s release of deal {deal} gives keys of positions {positions} to non-holders",
    "blind-release-wrong-key": "seat {seat}'s release of deal {deal} holds wrong keys for positions {positions}",
    "blind-open-not-holder": "seat {seat} opened position {position} of deal {deal}, which seat {holder} holds",
    "blind-open-wrong": (
        "seat {seat}'s open of {card} at position {position} of deal {deal} does not fit the final deck"
    ),
    "blind-open-twice": "seat {seat} opened {card} of deal {deal} a second time",
    "not-checked": "not checked",
    "replay-stopped": "not checked: the replay stopped at record {stopped}",
    "no-game-seed": "no game seed: the client seeds are not valid",
    "never-dealt": "the game ended before it started: nothing was dealt or played",
}


def render(code: str, fields: Fields) -> str:
    """The sentence for a result; an unknown code (a newer verifier's) is shown with its fields."""
    template = MESSAGES.get(code)
    if template is None:
        return f"{code} {dict(fields)}"
    try:
        return template(fields) if callable(template) else template.format_map(_Lenient(fields))
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        return f"{code} {dict(fields)} ({type(exc).__name__})"


class _Lenient(dict[str, Any]):
    """format_map fields with derived names: <name>_short for a hash shown by its first 16 digits."""

    def __missing__(self, key: str) -> Any:
        if key.endswith("_short") and key[:-6] in self:
            return _short(self[key[:-6]])
        if key.endswith("_text") and key[:-5] in self:
            return _seats(self[key[:-5]])
        raise KeyError(key)
