"""A game as the transcript records it: the start record, the game seed and the move records.

`LiveGame` is used by both sides of the boundary. The service appends moves through it (so the record it stores is
the record the verifier will check), and the verifier replays a transcript through it, re-deriving every deal and
recomputing every bot and timeout move from that seat's view.
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping

from fairdeal.verifier.fairness import SeedChance, record_salt
from fairdeal.verifier.games import rules_from_json
from fairdeal.verifier.games.base import GameError, Move
from fairdeal.verifier.transcript import make_move_record, record_hash

MOVERS = ("player", "bot", "timeout")


class ReplayError(Exception):
    """A record that does not replay. `check` names the verifier check it fails."""

    def __init__(self, check: str, seq: int | None, message: str):
        super().__init__(message)
        self.check = check
        self.seq = seq
        self.message = message


class LiveGame:
    def __init__(self, start: Mapping[str, Any], game_seed: bytes):
        self.start = start
        self.rules = rules_from_json(start["rules"])
        self.game_seed = game_seed
        self.chance = SeedChance(game_seed)
        self.state = self.rules.new_game(self.chance)
        self.bot_seats = frozenset(s["seat"] for s in start["seats"] if s.get("bot"))
        self.seq = 0
        self.last_hash = record_hash(dict(start))

    # --- the policies, recomputed from the seat's own view -----------------------------------------
    def bot_move(self, seat: int) -> Move:
        return self.rules.bot_move(self.state.view(seat), self.chance.bot_rng(self.seq + 1))

    def timeout_move(self, seat: int) -> Move:
        return self.rules.timeout_move(self.state.view(seat))

    def policy_move(self, seat: int, by: str) -> Move | None:
        if by == "bot":
            return self.bot_move(seat)
        if by == "timeout":
            return self.timeout_move(seat)
        return None

    # --- appending ----------------------------------------------------------------------------------
    def next_record(self, seat: int, move: Move, by: str = "player", at: str | None = None) -> dict[str, Any]:
        """The record `move` would get as the next one, without applying it (a store appends it first)."""
        if by not in MOVERS:
            raise ValueError(f"unknown mover {by!r}")
        return make_move_record(self.last_hash, self.seq + 1, seat, by, move.to_json(), at,
                                salt=record_salt(self.game_seed, self.seq + 1))

    def adopt(self, record: Mapping[str, Any]) -> None:
        """Apply a record this side wrote itself (or read back from its own store): no policy recomputed.
        IllegalMove propagates and changes nothing."""
        self.state.apply(record["seat"], Move.from_json(record["move"]))
        self.seq = record["seq"]
        self.last_hash = record_hash(dict(record))

    def apply(self, seat: int, move: Move, by: str = "player", at: str | None = None) -> dict[str, Any]:
        """Apply a move (IllegalMove and friends propagate, nothing changes) and return its new record."""
        record = self.next_record(seat, move, by, at)
        self.adopt(record)
        return record

    def apply_record(self, record: Mapping[str, Any], chain: bool = True) -> None:
        """Replay one stored record, checking the chain, its legality and, for bot and timeout moves, that it
        is exactly what the policy chooses. Raises ReplayError naming the failed check.

        chain=False skips the sequence, hash and salt checks (and the hashing): for a caller that checks the
        whole chain once by itself (the verifier's hash-chain check), so a broken link does not stop the replay."""
        seq = record.get("seq")
        if chain:
            if seq != self.seq + 1:
                raise ReplayError("hash-chain", seq,
                                  f"record {seq} follows record {self.seq}; expected {self.seq + 1}")
            if record.get("prev") != self.last_hash:
                raise ReplayError("hash-chain", seq, f"record {seq} does not carry the hash of the record before it")
            if record.get("salt") != record_salt(self.game_seed, self.seq + 1):
                raise ReplayError("hash-chain", seq, f"record {seq}'s salt is not the one the seed derives")
        seat, by = record.get("seat"), record.get("by")
        if by not in MOVERS:
            raise ReplayError("moves-legal", seq, f"record {seq} names an unknown mover {by!r}")
        if by == "bot" and seat not in self.bot_seats:
            raise ReplayError("bot-moves", seq, f"record {seq} is a bot move for seat {seat}, which is not a bot")
        if by == "player" and seat in self.bot_seats:
            raise ReplayError("bot-moves", seq, f"record {seq} is a player move for seat {seat}, which is a bot")
        if by == "timeout" and seat in self.bot_seats:
            # A bot never runs out of time. Allowing it would let a server pick, move by move, between the bot
            # policy and the timeout policy for a bot seat: a choice that could steer the game.
            raise ReplayError("bot-moves", seq, f"record {seq} is a timeout move for seat {seat}, which is a bot "
                                                f"and moves by the bot policy only")
        try:
            move = Move.from_json(record.get("move"))
        except GameError as exc:
            raise ReplayError("moves-legal", seq, f"record {seq}: {exc.message}") from None
        if by in ("bot", "timeout"):
            try:
                expected = self.policy_move(seat, by)
            except Exception as exc:  # a policy that cannot run on this state is a failed check, not a crash
                raise ReplayError(f"{by}-moves", seq, f"record {seq}: the {by} policy could not run: {exc}") from None
            if expected != move:
                raise ReplayError(f"{by}-moves", seq,
                                  f"record {seq}: seat {seat}'s {by} move was {move}, the {by} policy chooses {expected}")
        try:
            self.state.apply(seat, move)
        except GameError as exc:
            raise ReplayError("moves-legal", seq, f"record {seq}: seat {seat} {move} is illegal: {exc.message}") from None
        if chain:
            self.seq = seq
            self.last_hash = record_hash(dict(record))
        else:
            self.seq += 1   # bot randomness is keyed by the position in the log; the hash is not kept


def replay_records(start: Mapping[str, Any], game_seed: bytes, records: Iterable[Mapping[str, Any]]) -> LiveGame:
    """Replay move records from the start (raises ReplayError at the first record that fails)."""
    game = LiveGame(start, game_seed)
    for record in records:
        game.apply_record(record)
    return game
