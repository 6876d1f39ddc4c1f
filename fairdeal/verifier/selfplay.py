"""Whole games played by the policies, as signed transcripts: for tests, the tamper suite and the audit benchmark.

`selfplay(...)` is a pure function of its arguments: the same rule set, settings, seeds, key and seats give the
same transcript byte for byte (Ed25519 signatures are deterministic and the times are fixed texts). Bots move by
the bot policy. A human seat's moves are chosen deterministically: mostly the timeout policy's choice, recorded as
the player's own move; every `timeout_every`-th human move is recorded as a timeout (the same choice, which the
verifier recomputes); every `variety_every`-th is another legal move instead, picked from a stream derived from the
game seed, so human play is not always the policy's.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from fairdeal.verifier.fairness import DerivedRng, commitment, game_seed
from fairdeal.verifier.games import make_rules
from fairdeal.verifier.keys import public_key_text
from fairdeal.verifier.replay import LiveGame
from fairdeal.verifier.transcript import add_start, finish, make_commit, make_seat, make_start, new_transcript

CREATED = "2026-01-01T00:00:00Z"   # fixed texts: a selfplay game has no clock
STARTED = "2026-01-01T00:00:01Z"
ENDED = "2026-01-01T01:00:00Z"
DEFAULT_CLOCKS = {"play_seconds": 25, "decide_seconds": 30}
MAX_MOVES = 50_000                  # a guard: every rule set ends long before


class SelfplayError(RuntimeError):
    """The policies could not finish the game (a rule-set bug the caller should see)."""


def selfplay(rule_set: str, private_key: Any, server_seed: bytes, *, settings: Mapping[str, Any] | None = None,
             players: int = 4, client_seeds: Sequence[str | None] | None = None,
             bots: Sequence[int] = (1, 3), game_id: str | None = None, names: Sequence[str] | None = None,
             timeout_every: int = 5, variety_every: int = 0, stop_after: int | None = None,
             clocks: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Play a game to its end and return its signed transcript.

    client_seeds: one per seat (None for none; a bot's is ignored). Default: "seed-<seat>" for each human.
    stop_after: end the game as "abandoned" after that many moves (the seed is still revealed).
    """
    rules = make_rules(rule_set, settings or {}, players)
    rules_json = rules.to_json()
    bot_seats = frozenset(bots)
    if client_seeds is None:
        client_seeds = [None if s in bot_seats else f"seed-{s}" for s in range(players)]
    seeds = [None if s in bot_seats else client_seeds[s] for s in range(players)]
    names = names or [f"bot {s}" if s in bot_seats else f"player {s}" for s in range(players)]
    game_id = game_id or f"selfplay-{rule_set}-{server_seed.hex()[:12]}"

    commit = make_commit(game_id, rules_json, commitment(server_seed, game_id, rules_json),
                         public_key_text(private_key), CREATED)
    transcript = new_transcript(private_key, commit)
    seats = [make_seat(s, names[s], s in bot_seats, seeds[s]) for s in range(players)]
    start = make_start(commit, seats, dict(clocks or DEFAULT_CLOCKS), STARTED)
    add_start(private_key, transcript, start)

    seed = game_seed(server_seed, seeds)
    live = LiveGame(transcript["start"], seed)
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
        if seat in bot_seats:
            move, by = live.bot_move(seat), "bot"
        else:
            human_moves += 1
            move, by = live.timeout_move(seat), "player"
            if timeout_every and human_moves % timeout_every == 0:
                by = "timeout"
            elif variety_every and human_moves % variety_every == 0:
                legal = live.state.legal_moves(seat)
                if legal:
                    move = legal[variety.randbelow(len(legal))]
        transcript["records"].append(live.apply(seat, move, by))
    result = live.state.result if live.state.is_over else None
    return finish(private_key, transcript, reason, server_seed, result, ENDED)
