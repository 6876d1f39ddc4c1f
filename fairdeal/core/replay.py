"""A game as the transcript records it: the start record, the game seed and the move records.

`LiveGame` is used by both sides of the boundary. The service appends moves through it (so the record it stores is
the record the verifier will check), and the verifier replays a transcript through it, re-deriving every deal and
recomputing every bot and timeout move from that seat's view.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from fairdeal.core.cards import PACK_52, PACK_PLACE
from fairdeal.core.fairness import BoardChance, SeedChance, record_salt
from fairdeal.core.fastpath import fast_path
from fairdeal.core.games import rules_from_json
from fairdeal.core.games.base import MOVE_FORMS, GameError, Move
from fairdeal.core.messages import render
from fairdeal.core.transcript import BY, CLOCK_KINDS, clocked_kinds, record_hash
from fairdeal.core.writer import make_move_record

MOVERS = BY
# The check a policy's move is held to: a stand-in's move is a bot move (the bot policy from the seat's view).
POLICY_CHECK = {"bot": "bot-moves", "timeout": "timeout-moves", "stand-in": "bot-moves"}
_EVERY_KIND = frozenset(CLOCK_KINDS)  # a table whose every decision kind has a clock (fairdeal/1's clocks: all)


class ReplayError(Exception):
    """A record that does not replay: the check it fails, what was wrong (`code`, a key of
    fairdeal.core.messages), the record's seq and the facts (`fields`) the sentence is made from."""

    def __init__(self, check: str, code: str, seq: int | None, **fields: Any):
        self.check, self.code, self.seq, self.fields = check, code, seq, fields
        self.message = render(code, {"seq": seq, **fields})
        super().__init__(self.message)


def read_move(record: Mapping[str, Any], protocol: str | None) -> Move:
    """The move of a record, in the protocol's terms. fairdeal/2 has one form per move: a record whose move is
    written any other way (a member its kind does not use, cards out of order, "T" for ten, lower case) fails,
    so one move can never be signed as two different records. fairdeal/1 reads moves as it always did."""
    data: Any  # a record's values are whatever it holds until read
    seq, data = record.get("seq"), record.get("move")
    if protocol == "fairdeal/1":
        data = _as_fairdeal_1_read_it(data)
    try:
        move = Move.from_json(data)
    except GameError as exc:
        raise ReplayError("moves-legal", "move-unreadable", seq, reason=exc.message) from None
    if protocol != "fairdeal/1" and not is_canonical(move, data):
        raise ReplayError("moves-legal", "move-not-canonical", seq, move=data, canonical=move.to_json())
    return move


# A card played, in its one fairdeal/2 form, by the card's text: most of every game's records (a Move is immutable).
_PLAYS: dict[Any, Move] = {str(c): Move.play(c) for c in PACK_52}  # looked up with any value a record holds
# Every other move read in its one form, by its members with their types (True is not 1): bids, passes, trump
# suits recur in every game. Bounded, so that a hostile transcript of distinct bids cannot grow it without end.
_OTHERS: dict[tuple[Any, ...], Move] = {}
_OTHERS_MAX = 4096


@fast_path(general=read_move)
def read_move_fast(record: Mapping[str, Any], protocol: str | None) -> Move:
    """read_move, with a move already read in its one form looked up rather than parsed again: the replay's fast
    path (a card played by its text; any other move whose members are scalars by those members). Anything else,
    and every move the first time, is read_move's."""
    data = record.get("move")
    if protocol == "fairdeal/1" or type(data) is not dict:
        return read_move(record, protocol)
    if len(data) == 2:
        kind = data.get("kind")
        if kind == "play":
            move = _PLAYS.get(data.get("card"))
            if move is not None:
                return move
        elif kind == "throw":
            move = throw_in_its_form(data.get("cards"))
            if move is not None:
                return move
    try:
        key = (tuple(data.items()), tuple(map(type, data.values())))  # the members in order, and their types
        move = _OTHERS.get(key)
    except TypeError:  # a member that is a list (a throw's cards) or an object: not kept
        return read_move(record, protocol)
    if move is None:
        move = read_move(record, protocol)  # raises for a move not in its one form: nothing kept
        if len(_OTHERS) < _OTHERS_MAX:
            _OTHERS[key] = move
    return move


def throw_read_in_full(texts: Any) -> Move | None:
    """read_move's throw of these card texts in fairdeal/2, None where read_move refuses it: throw_in_its_form's
    general form."""
    try:
        return read_move({"move": {"kind": "throw", "cards": texts}}, "fairdeal/2")
    except ReplayError:
        return None


@fast_path(general=throw_read_in_full)
def throw_in_its_form(texts: Any) -> Move | None:
    """The throw whose fairdeal/2 "cards" member is `texts` (a list of card texts, each in its one form, in
    canonical order and so distinct), read without Move.from_json's checks: what read_move gives for such a
    throw. None for anything else, which read_move reads (or refuses) in full."""
    if texts.__class__ is not list:
        return None
    cards, last = [], -1
    for t in texts:
        play = _PLAYS.get(t) if t.__class__ is str else None  # a card text in its one form
        if play is None:
            return None
        place = PACK_PLACE[play.card]  # type: ignore[index]  # a play move's card is never None
        if place <= last:
            return None
        last = place
        cards.append(play.card)
    return Move.known_throw(tuple(cards))  # type: ignore[arg-type]  # (the plays' cards)


def _as_fairdeal_1_read_it(data: Any) -> Any:
    """fairdeal/1 readers ignored members a move's kind does not use (a bid's "card"): keep only the kind's own."""
    form = MOVE_FORMS.get(data["kind"]) if isinstance(data, Mapping) and isinstance(data.get("kind"), str) else None
    if form is None:
        return data
    return {k: v for k, v in data.items() if k == "kind" or k == form.member}


def is_its_json(move: Move, data: Mapping[str, Any]) -> bool:
    """move.to_json() == data: is_canonical's general form."""
    return move.to_json() == data


@fast_path(general=is_its_json)
def is_canonical(move: Move, data: Mapping[str, Any]) -> bool:
    """Whether `data` is `move`'s one JSON form: move.to_json() == data, with the common case (a card played, most
    of every game's records) answered without building the form."""
    if move.kind == "play":
        return len(data) == 2 and data.get("card") == str(move.card)
    return move.to_json() == data


class LiveGame:
    def __init__(
        self,
        start: Mapping[str, Any],
        game_seed: bytes,
        board_seed: bytes | None = None,
        chance: SeedChance | None = None,
    ):
        self.start = start
        self.protocol: str | None = start.get("protocol")
        self.rules = rules_from_json(start["rules"])
        self.game_seed = game_seed
        self.board_seed = board_seed  # a replay of this game (a score sheet) deals from it too
        # A tournament table's cards come from its round's board seed (docs/tournaments.md, "Boards"); a blind
        # table's from its seats' shuffles (docs/blind.md: the chance is given)
        if chance is None:
            chance = SeedChance(game_seed) if board_seed is None else BoardChance(game_seed, board_seed)
        self.chance = chance
        self.state = self.rules.new_game(self.chance)
        self.bot_seats = frozenset(s["seat"] for s in start["seats"] if s.get("bot"))
        # fairdeal/2: a timeout move only ends a decision of a kind that has a clock (fairdeal/1 treated the clocks
        # as opaque: any decision); timeouts_allowed: some kind has one
        self.clocked = _EVERY_KIND if self.protocol == "fairdeal/1" else clocked_kinds(start.get("clocks") or {})
        self.timeouts_allowed = bool(self.clocked)
        self.seq = 0
        self._last_hash: str | None = None  # the start record's hash, made when first read (see last_hash)

    @property
    def last_hash(self) -> str:
        """The hash of the last record applied: the start record's before any move. The start's is made when
        first asked for, as record_hash(dict(start)): the audit's replay (chain=False) never asks."""
        if self._last_hash is None:
            self._last_hash = record_hash(dict(self.start))
        return self._last_hash

    @last_hash.setter
    def last_hash(self, value: str) -> None:
        self._last_hash = value

    # --- the policies, recomputed for the seat (GameState.bot_move: a pure function of the seat's view) ----
    def bot_move(self, seat: int) -> Move:
        return self.state.bot_move(seat, self.chance.bot_rng_fast(self.seq + 1))

    def timeout_move(self, seat: int) -> Move:
        return self.state.timeout_move(seat)

    def policy_move(self, seat: int, by: str) -> Move | None:
        if by in ("bot", "stand-in"):  # a stand-in is the table's bot playing a player's seat
            return self.bot_move(seat)
        if by == "timeout":
            return self.timeout_move(seat)
        return None

    def decision_kind(self, seat: int) -> str:
        """The kind of the seat's decision, as the clock keys name it: "card" when its legal moves are cards to
        play, else "other"."""
        return "card" if any(m.kind == "play" for m in self.state.legal_moves(seat)) else "other"

    def may_time_out(self, seat: int) -> bool:
        """Whether the seat's decision has a clock, so that a timeout move may end it."""
        # every kind clocked: no need to find the decision's kind (a frozenset, as clocked_kinds makes it)
        return bool(self.clocked) and (self.clocked == _EVERY_KIND or self.decision_kind(seat) in self.clocked)

    # --- appending ----------------------------------------------------------------------------------
    def next_record(self, seat: int, move: Move, by: str = "player", at: str | None = None) -> dict[str, Any]:
        """The record `move` would get as the next one, without applying it (a store appends it first)."""
        if by not in MOVERS:
            raise ValueError(f"unknown mover {by!r}")
        if by == "timeout" and not self.may_time_out(seat):
            raise ValueError(
                "A table without clocks has no timeout moves."
                if not self.timeouts_allowed
                else f"This table has no clock for a {self.decision_kind(seat)} decision."
            )
        if by == "stand-in" and (seat in self.bot_seats or self.protocol == "fairdeal/1"):
            raise ValueError("A stand-in plays a player's seat, and only under fairdeal/2.")
        return make_move_record(
            self.last_hash, self.seq + 1, seat, by, move.to_json(), at, salt=record_salt(self.game_seed, self.seq + 1)
        )

    def adopt(self, record: Mapping[str, Any]) -> None:
        """Apply a record this side wrote itself (or read back from its own store): no policy recomputed.
        IllegalMove propagates and changes nothing."""
        self.state.apply(record["seat"], Move.from_json(record["move"]))
        self.seq = record["seq"]
        self.last_hash = record_hash(dict(record))

    def adopt_checked(self, record: Mapping[str, Any], move: Move) -> None:
        """adopt() for the record next_record just made of `move`, a move this side has checked at this state (its
        refusal was None): the Move is not read again from the record, nor checked again."""
        self.state.push(record["seat"], move)
        self.seq = record["seq"]
        self.last_hash = record_hash(dict(record))

    def apply(self, seat: int, move: Move, by: str = "player", at: str | None = None) -> dict[str, Any]:
        """Apply a move (IllegalMove and friends propagate, nothing changes) and return its new record."""
        record = self.next_record(seat, move, by, at)
        self.adopt(record)
        return record

    def apply_record(self, record: Mapping[str, Any], chain: bool = True, policies: bool = True) -> None:
        """Replay one stored record, checking the chain, its form, its legality and, for bot and timeout moves,
        that it is exactly what the policy chooses. Raises ReplayError naming the failed check.

        chain=False skips the sequence, hash and salt checks (and the hashing): for a caller that checks the
        whole chain once by itself (the verifier's hash-chain check), so a broken link does not stop the replay.
        policies=False does not check who made a move nor recompute the bot and timeout policies: it tells whether
        a game whose bot or timeout moves are wrong was at least dealt and played legally."""
        seq: Any = record.get("seq")  # any value until the chain check (or the caller's) has read it
        if chain:
            if seq != self.seq + 1:
                raise ReplayError("hash-chain", "seq-follows", seq, previous=self.seq, expected=self.seq + 1)
            if record.get("prev") != self.last_hash:
                raise ReplayError("hash-chain", "prev-mismatch", seq)
            if record.get("salt") != record_salt(self.game_seed, self.seq + 1):
                raise ReplayError("hash-chain", "salt-mismatch", seq)
        seat: Any  # any value: the state refuses a seat that is not one
        seat, by = record.get("seat"), record.get("by")
        if by not in MOVERS:
            raise ReplayError("moves-legal", "unknown-mover", seq, by=by)
        if policies:
            self._check_mover(seq, seat, by)
        move = read_move_fast(record, self.protocol)
        if policies and by in POLICY_CHECK:
            check = POLICY_CHECK[by]
            try:
                expected = self.policy_move(seat, by)
            except Exception as exc:  # a policy that cannot run on this state is a failed check, not a crash
                raise ReplayError(check, "policy-failed", seq, by=by, reason=str(exc)) from None
            if expected != move:
                raise ReplayError(
                    check, "policy-differs", seq, seat=seat, by=by, move=str(move), expected=str(expected)
                )
        try:
            self.state.apply(seat, move)
        except GameError as exc:
            raise ReplayError("moves-legal", "illegal", seq, seat=seat, move=str(move), reason=exc.message) from None
        if chain:
            self.seq = seq
            self.last_hash = record_hash(dict(record))
        else:
            self.seq += 1  # bot randomness is keyed by the position in the log; the hash is not kept

    def apply_records_one_by_one(
        self, records: Sequence[Mapping[str, Any]], policies: bool = True
    ) -> tuple[int, Exception] | None:
        """apply_record(record, chain=False, policies=policies) for each record in turn, up to the first that raises:
        None when every one applied, else (its index, what it raised), the game as the record found it. The general
        form of apply_records."""
        for i, record in enumerate(records):
            try:
                self.apply_record(record, chain=False, policies=policies)
            except Exception as exc:  # noqa: BLE001 - the caller says which check a failure belongs to
                return i, exc
        return None

    @fast_path(general=apply_records_one_by_one, changes_state=True)
    def apply_records(
        self, records: Sequence[Mapping[str, Any]], policies: bool = True
    ) -> tuple[int, Exception] | None:
        """apply_records_one_by_one, the audit's replay of a whole game: the lookups apply_record makes at every
        record made once, and the usual record (a dict whose seat is an int, by a mover its seat may be, its move
        read, the policy's own move where there is one, legal) replayed inline. Any other record, and any record
        whose policy fails or differs, is replayed by apply_record itself, which raises what it always raises (the
        policies are pure: asking one again changes nothing)."""
        state, protocol, bot_seats = self.state, self.protocol, self.bot_seats
        read, push, rng_of, one = read_move_fast, state.apply, self.chance.bot_rng_fast, self.apply_record
        stand_ins = protocol != "fairdeal/1"
        seat: Any  # any value a record holds; the inline path takes an int only
        expected: Move | None
        for i, record in enumerate(records):
            try:
                seat = record.get("seat") if record.__class__ is dict else None
                by = record.get("by") if seat.__class__ is int else None
                if by == "player":
                    usual = not (policies and seat in bot_seats)
                elif by == "bot":
                    usual = not policies or seat in bot_seats
                elif by == "stand-in":
                    usual = not policies or (stand_ins and seat not in bot_seats)
                elif by == "timeout":
                    usual = not policies or (
                        seat not in bot_seats and self.timeouts_allowed and self.may_time_out(seat)
                    )
                else:
                    usual = False
                if not usual:  # a mover check fails (or the record is unusual): apply_record says how
                    one(record, chain=False, policies=policies)
                    continue
                move = read(record, protocol)
                if policies and by != "player":
                    try:
                        if by == "timeout":
                            expected = state.timeout_move(seat)
                        else:  # a bot or a stand-in: the bot policy (policy_move)
                            expected = state.bot_move(seat, rng_of(self.seq + 1))
                    except Exception:  # noqa: BLE001 - apply_record words the policy's failure
                        expected = None
                    if expected is not move and expected != move:  # a card's play is one Move: most are the same
                        one(record, chain=False, policies=policies)  # raises the policy's failure or difference
                        continue
                try:
                    push(seat, move)
                except GameError as exc:
                    raise ReplayError(
                        "moves-legal", "illegal", record.get("seq"), seat=seat, move=str(move), reason=exc.message
                    ) from None
                self.seq += 1
            except Exception as exc:  # noqa: BLE001 - as apply_records_one_by_one
                return i, exc
        return None

    def _check_mover(self, seq: Any, seat: Any, by: Any) -> None:
        """Who may have made this move (a record's seq, seat and by, any values as in apply_record): bot moves by
        bots only, player and timeout moves by players only, and timeouts only where the table has a clock."""
        if by == "bot" and seat not in self.bot_seats:
            raise ReplayError("bot-moves", "bot-move-by-human", seq, seat=seat)
        if by == "player" and seat in self.bot_seats:
            raise ReplayError("bot-moves", "player-move-by-bot", seq, seat=seat)
        if by == "timeout" and seat in self.bot_seats:
            # A bot never runs out of time. Allowing it would let a server pick, move by move, between the bot
            # policy and the timeout policy for a bot seat: a choice that could steer the game.
            raise ReplayError("bot-moves", "timeout-by-bot", seq, seat=seat)
        if by == "stand-in" and self.protocol == "fairdeal/1":
            raise ReplayError("moves-legal", "unknown-mover", seq, by=by)
        if by == "stand-in" and seat in self.bot_seats:
            # a bot seat moves as "bot": a second label for the same policy would let a record lie about who sat
            raise ReplayError("bot-moves", "stand-in-for-bot", seq, seat=seat)
        if by == "timeout" and not self.timeouts_allowed:
            # Without a clock nobody's time runs out: a timeout move there is a player's move the server relabelled.
            raise ReplayError("timeout-moves", "timeout-without-clock", seq, seat=seat)
        if by == "timeout" and not self.may_time_out(seat):
            # One kind's clock off: a timeout there is a player's move relabelled, like one at a table without clocks.
            raise ReplayError(
                "timeout-moves", "timeout-kind-without-clock", seq, seat=seat, kind=self.decision_kind(seat)
            )


def replay_records(
    start: Mapping[str, Any], game_seed: bytes, records: Iterable[Mapping[str, Any]], board_seed: bytes | None = None
) -> LiveGame:
    """Replay move records from the start (raises ReplayError at the first record that fails)."""
    game = LiveGame(start, game_seed, board_seed)
    for record in records:
        game.apply_record(record)
    return game
