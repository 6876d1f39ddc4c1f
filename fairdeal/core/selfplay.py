"""Whole games played by the policies, as signed transcripts: each table of a duplicate tournament (the service's
runs through fairdeal.core.tournament.play), and the tests, the tamper suite and the benchmarks.

`selfplay(...)` is a pure function of its arguments: the same rule set, settings, seeds, key and seats give the
same transcript byte for byte (Ed25519 signatures are deterministic and the times are fixed texts). Bots move by
the bot policy. A human seat's moves are chosen deterministically: mostly the timeout policy's choice, recorded as
the player's own move; every `timeout_every`-th human move is recorded as a timeout (the same choice, which the
verifier recomputes), when that decision's kind has a clock; every `variety_every`-th is another legal move
instead, picked from a stream derived from the game seed, so human play is not always the policy's.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from fairdeal.core.fairness import PROTOCOL, DerivedRng, SeedChance, client_seed_commitment, commitment, game_seed
from fairdeal.core.games import make_rules
from fairdeal.core.keys import public_key_text
from fairdeal.core.replay import LiveGame
from fairdeal.core.writer import (
    add_seating,
    add_start,
    finish,
    make_commit,
    make_seat,
    make_seating,
    make_start,
    new_transcript,
)

CREATED = "2026-01-01T00:00:00Z"  # fixed texts: a selfplay game has no clock
SEATED = "2026-01-01T00:00:01Z"
REVEAL_DEADLINE = "2026-01-01T00:00:31Z"
STARTED = "2026-01-01T00:00:01Z"
ENDED = "2026-01-01T01:00:00Z"
DEFAULT_CLOCKS = {"play_seconds": 25, "decide_seconds": 30}
MAX_MOVES = 50_000  # a guard: every rule set ends long before


class SelfplayError(RuntimeError):
    """The policies could not finish the game (a rule-set bug the caller should see)."""


def selfplay(
    rule_set: str,
    private_key: Any,
    server_seed: bytes,
    *,
    settings: Mapping[str, Any] | None = None,
    players: int = 4,
    client_seeds: Sequence[str | None] | None = None,
    bots: Sequence[int] = (1, 3),
    game_id: str | None = None,
    names: Sequence[str] | None = None,
    timeout_every: int = 5,
    variety_every: int = 0,
    stop_after: int | None = None,
    clocks: Mapping[str, Any] | None = None,
    protocol: str = PROTOCOL,
    rules_version: int | None = None,
    stand_ins: Mapping[int, tuple[int, int]] | None = None,
    board: Mapping[str, Any] | None = None,
    board_seed: bytes | None = None,
    chance_of: Callable[[bytes], SeedChance] | None = None,
) -> dict[str, Any]:
    """Play a game to its end and return its signed transcript.

    chance_of(game_seed): the Chance to deal from instead of the seed's (a blind table's, fairdeal.core.blind).

    stand_ins: seat -> (first seq, last seq): the table's bot stands in for that human seat from the first to the
    last move number (its moves there are "stand-in" moves, the bot policy's).
    client_seeds: one per seat (None for none; a bot's is ignored). Default: "seed-<seat>" for each human.
    stop_after: end the game as "abandoned" after that many moves (the seed is still revealed).
    protocol: "fairdeal/2" (each human's seed committed with a nonce derived from the server seed and the seat,
    so the game stays a pure function of the arguments) or "fairdeal/1" (seeds in clear).
    rules_version: an older version of the rule set's rules (default: the newest).
    board, board_seed: a duplicate tournament's table (docs/tournaments.md): the commit's board member, and the
    round's board seed the cards come from.
    """
    table = SeatedTable(
        rule_set,
        private_key,
        server_seed,
        settings,
        players,
        client_seeds,
        bots,
        game_id,
        names,
        protocol,
        rules_version,
        board,
    )
    transcript, seats, seeds, bot_seats = table.transcript, table.seats, table.seeds, table.bot_seats
    clocks = dict(DEFAULT_CLOCKS if clocks is None else clocks)
    if protocol == "fairdeal/1":
        add_start(private_key, transcript, make_start(transcript["commit"], seats, clocks, STARTED))
    else:
        add_start(
            private_key, transcript, make_start(transcript["commit"], seats, clocks, STARTED, transcript["seating"])
        )

    seed = game_seed(server_seed, seeds, protocol)
    live = LiveGame(transcript["start"], seed, board_seed, None if chance_of is None else chance_of(seed))
    variety = DerivedRng(seed, "selfplay/variety")
    human_moves = 0
    reason = "finished"
    while not live.state.is_over:
        if stop_after is not None and live.seq >= stop_after:
            reason = "abandoned"
            break
        if live.seq >= MAX_MOVES:
            raise SelfplayError(f"{rule_set}: the game did not end within {MAX_MOVES} moves")
        seat = live.state.to_move
        assert seat is not None  # a game not over has a seat to move
        away = (stand_ins or {}).get(seat)
        if seat in bot_seats:
            move, by = live.bot_move(seat), "bot"
        elif away is not None and away[0] <= live.seq + 1 <= away[1]:
            move, by = live.bot_move(seat), "stand-in"
        else:
            human_moves += 1
            move, by = live.timeout_move(seat), "player"
            if timeout_every and human_moves % timeout_every == 0 and live.may_time_out(seat):
                by = "timeout"
            elif variety_every and human_moves % variety_every == 0:
                legal = live.state.legal_moves(seat)
                if legal:
                    move = legal[variety.randbelow(len(legal))]
        transcript["records"].append(live.apply(seat, move, by))
    result = live.state.result if live.state.is_over else None
    deals = None if protocol == "fairdeal/1" else [(d[0], d[1]) for d in live.state.deals]
    return finish(private_key, transcript, reason, server_seed, result, ENDED, deals=deals)


class SeatedTable:
    """The signed header of a selfplay table up to its seating: commit, and (fairdeal/2) the seating record (the
    tests build tables that end there from it)."""

    def __init__(
        self,
        rule_set: str,
        private_key: Any,
        server_seed: bytes,
        settings: Mapping[str, Any] | None,
        players: int,
        client_seeds: Sequence[str | None] | None,
        bots: Sequence[int],
        game_id: str | None,
        names: Sequence[str] | None,
        protocol: str,
        rules_version: int | None = None,
        board: Mapping[str, Any] | None = None,
    ) -> None:
        rules = make_rules(rule_set, settings or {}, players, rules_version)
        rules_json = rules.to_json()
        self.bot_seats = frozenset(bots)
        if client_seeds is None:
            client_seeds = [None if s in self.bot_seats else f"seed-{s}" for s in range(players)]
        self.seeds = [None if s in self.bot_seats else client_seeds[s] for s in range(players)]
        names = names or [f"bot {s}" if s in self.bot_seats else f"player {s}" for s in range(players)]
        game_id = game_id or f"selfplay-{rule_set}-{server_seed.hex()[:12]}"
        commit = make_commit(
            game_id,
            rules_json,
            commitment(server_seed, game_id, rules_json, protocol),
            public_key_text(private_key),
            CREATED,
            protocol=protocol,
            deal_layout=None if protocol == "fairdeal/1" else rules.deal_layout,
            board=board,
        )
        self.transcript = new_transcript(private_key, commit)
        if protocol == "fairdeal/1":
            self.seats = [make_seat(s, names[s], s in self.bot_seats, self.seeds[s]) for s in range(players)]
            return
        self.seats = [
            _committed_seat(game_id, server_seed, s, names[s], s in self.bot_seats, self.seeds[s])
            for s in range(players)
        ]
        committed = any(s["client_seed_commitment"] for s in self.seats)
        add_seating(
            private_key,
            self.transcript,
            make_seating(commit, self.seats, REVEAL_DEADLINE if committed else None, SEATED),
        )


def selfplay_nonce(server_seed: bytes, seat: int) -> str:
    """The nonce a selfplay seat commits with: derived, so that selfplay stays deterministic (a real client draws
    32 random bytes)."""
    return hashlib.sha256(b"selfplay-nonce\x00" + server_seed + bytes([seat])).hexdigest()


def _committed_seat(
    game_id: str, server_seed: bytes, seat: int, name: str, bot: bool, seed: str | None
) -> dict[str, Any]:
    if seed is None:
        return {
            "seat": seat,
            "name": name,
            "bot": bot,
            "client_seed_commitment": None,
            "client_seed": None,
            "nonce": None,
        }
    nonce = selfplay_nonce(server_seed, seat)
    return {
        "seat": seat,
        "name": name,
        "bot": bot,
        "client_seed": seed,
        "nonce": nonce,
        "client_seed_commitment": client_seed_commitment(game_id, seed, nonce),
    }
