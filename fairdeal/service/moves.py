"""The move path: a player's POST /games/{id}/moves, from the request body to the appended record and the answer.

Every refusal of a move is made here, in one order, each under one code (docs/api.md, "Errors"): the request's
shape (unknown-field, bad-request), then, under the game's lock, the seat (not-seated, not-your-seat), the game's
state (game-over, not-started), the sequence number (bad-request, stale-sequence), the move's form
(malformed-move, with `member`) and last the engine's refusal with its own code and sentence (not-your-turn,
illegal-move: GameState.refusal). The move is read into a Move once; that Move is checked once, written into its
record and pushed onto the state once the record is in the log.

A retry (same Idempotency-Key and body, from the same player: a key belongs to whoever sent it) of a move already
recorded gets the original answer: on the success path the append checks the key atomically, and a refusal first
asks the store (a read) whether the request was such a retry.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from fairdeal.core import transcript as tr
from fairdeal.core.games.base import MOVE_FORMS, GameError, Move
from fairdeal.service import table_docs
from fairdeal.service.appends import Appender
from fairdeal.service.blind.seating import is_blind  # BLIND HOOK
from fairdeal.service.catchup import CatchUp
from fairdeal.service.clocks import Clocks
from fairdeal.service.errors import ApiError, game_error_status
from fairdeal.service.game import Game, entry_text
from fairdeal.service.store.base import DUPLICATE, KEY_REUSED, OK, AppendResult, Store

REQUEST_FIELDS = ("seat", "seq", "move")
BLIND_FIELDS = ("open", "timeout")  # BLIND HOOK: a dealer-blind table's play carries its open (blind/table.py)
TRIES = 3  # appends lost to another writer before the move is refused as stale


def check_request(body: dict) -> None:
    """The request's own shape, before any game is read."""
    unknown = set(body) - set(REQUEST_FIELDS) - set(BLIND_FIELDS)
    if unknown:
        raise ApiError(
            422,
            "unknown-field",
            f"A move request has no field {sorted(unknown)[0]!r}; its fields are seq, move and (optionally) seat.",
        )
    if "move" not in body or "seq" not in body:
        raise ApiError(400, "bad-request", 'A move request is {"seq": <last seq you saw>, "move": {...}}.')


def stray_member(move_json: Any) -> str | None:
    """The first member a move names that its kind's one form (MOVE_FORMS) does not have, for the problem JSON."""
    if not isinstance(move_json, dict) or not isinstance(move_json.get("kind"), str):
        return None
    form = MOVE_FORMS.get(move_json["kind"])
    if form is None:
        return None
    return next((name for name in sorted(move_json) if name not in ("kind", form.member)), None)


def body_hash(obj: Any) -> str:
    """The fingerprint of a move request, to tell a retry from another request under the same key."""
    return hashlib.sha256(entry_text(obj).encode("utf-8")).hexdigest()


def stale(seq: int, detail: str) -> ApiError:
    return ApiError(409, "stale-sequence", detail, seq=seq)


class Moves:
    def __init__(self, store: Store, now: Callable[[], float], catchup: CatchUp, appender: Appender, clocks: Clocks):
        self.store, self.now, self.catchup, self.appender, self.clocks = store, now, catchup, appender, clocks
        self.blind: Any = None  # BLIND HOOK: the dealer-blind tables' part (blind/table.py's Blind), set by Games

    def play(self, game: Game, player: dict, body: dict, idem_key: str | None) -> dict:
        """The move of `player` (its request shape checked: check_request), under the game's lock; then whatever is
        due (bots) follows. The answer: {"seq", "receipt", "replayed"}."""
        seat = self._seat(game, player, body)
        if is_blind(game.table):  # BLIND HOOK: a play carries its open; the seat's client plays its timeouts
            return self.blind.player_move(game, seat, body, idem_key, player["id"])
        extra = sorted(set(body) & set(BLIND_FIELDS))
        if extra:
            raise ApiError(
                422,
                "unknown-field",
                f"A move request at this table has no field {extra[0]!r} (only a dealer-blind table's has).",
            )
        expected_seq, move_json = body["seq"], body["move"]
        bhash = body_hash({"seat": seat, "seq": expected_seq, "move": move_json}) if idem_key else None
        for _ in range(TRIES):
            try:
                self.clocks.advance(game)
                move = self.check(game, seat, expected_seq, move_json)
            except ApiError:
                if idem_key:
                    done = self.store.idem_lookup(game.game_id, idem_key, bhash, player["id"], self.now())
                    if done is not None:
                        return self._idempotent_answer(game, done, seat)
                raise
            res, record = self.appender.append_move(game, seat, move, "player", idem_key, bhash, player["id"])
            if res.status in (DUPLICATE, KEY_REUSED):
                return self._idempotent_answer(game, res, seat)
            if res.status == OK:
                assert game.live is not None  # check() found the game started; an append never unstarts it
                receipt = game.live.last_hash
                self.clocks.advance(game)
                return {"seq": record["seq"], "receipt": receipt, "replayed": False}
            # CONFLICT: this process was behind (or lost a race); it has caught up, so check the move again
        raise stale(game.seq, "Another move was recorded first: look at the game again.")

    @staticmethod
    def _seat(game: Game, player: dict, body: dict) -> int:
        seat = table_docs.seat_of(game.loaded_table, player)
        if seat is None:
            raise ApiError(403, "not-seated", "You have no seat at this game; spectators cannot move.")
        if "seat" in body and body["seat"] != seat:
            raise ApiError(403, "not-your-seat", f"Your token holds seat {seat}, not seat {body['seat']!r}.")
        return seat

    @staticmethod
    def check(game: Game, seat: int, expected_seq: Any, move_json: Any) -> Move:
        """The Move the seat may make now, or the refusal."""
        if game.ended:
            raise ApiError(409, "game-over", "This game has ended; no more moves are taken.")
        live = game.live
        if live is None:
            if game.loaded_table["status"] == "revealing":
                detail = "The table is waiting for its seats to reveal their client seeds; no card exists yet."
            else:
                detail = "This table has not started yet."
            raise ApiError(409, "not-started", detail)
        if type(expected_seq) is not int:
            raise ApiError(400, "bad-request", "'seq' (the sequence number of the last move you saw) is an integer.")
        if expected_seq != live.seq:
            raise stale(
                live.seq,
                f"The game is at move {live.seq}, not {expected_seq}: look at the game again "
                f"and send the move with seq {live.seq}.",
            )
        try:
            move = Move.from_json(move_json)
        except GameError as exc:
            member = stray_member(move_json)
            extra: dict[str, Any] = {"member": member} if member else {}  # a member, never ApiError's title/headers
            raise ApiError(400, exc.code, exc.message, **extra) from None
        refusal = live.state.refusal(seat, move)
        if refusal is not None:
            raise ApiError(game_error_status(refusal), refusal.code, refusal.message)
        return move

    def _idempotent_answer(self, game: Game, res: AppendResult, seat: int) -> dict:
        if res.status == KEY_REUSED:
            raise ApiError(
                422,
                "idempotency-key-reused",
                "This Idempotency-Key was already used for a different move; use a new key.",
            )
        self.catchup.sync(game)
        assert res.seq is not None  # a duplicate's result names its original's index
        index = res.seq - game.headers  # the log index of the original move
        records = game.transcript.get("records") or []
        record = records[index] if 0 <= index < len(records) else None
        if record is None or record["by"] != "player" or record["seat"] != seat:
            # the store lost the original move and that position was played again by another: no answer to replay
            raise stale(
                game.seq,
                "The move sent under this Idempotency-Key is no longer in the "
                "game (the store lost it): look at the game again.",
            )
        return {"seq": record["seq"], "receipt": tr.record_hash(record), "replayed": True}
