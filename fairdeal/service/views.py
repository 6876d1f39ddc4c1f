"""What a seat (or a spectator) may see of a game: the engine's view plus turn, legal moves with reasons,
the suggestion, the clock and the chain head. Built only from the engine's view(seat) and public data."""

from __future__ import annotations

from typing import Any

from fairdeal.core import transcript as tr
from fairdeal.core import writer
from fairdeal.core.cards import card_from_str
from fairdeal.core.games.base import Move
from fairdeal.service import standin
from fairdeal.service.blind.seating import is_blind  # BLIND HOOK
from fairdeal.service.game import Game
from fairdeal.service.games import Games
from fairdeal.service.isotime import iso


def chain_head_hash(game: Game) -> str | None:
    t = game.transcript
    if "end" in t:
        return tr.record_hash(t["end"])
    if game.live is not None:
        return game.live.last_hash  # the hash of the last record applied (the start record before any move)
    if "commit" not in t:
        return None
    return writer.chain_head(t)[1]


def game_summary(games: Games, game: Game) -> dict[str, Any]:
    """What a mover needs after a move: where the game is now (the full view is GET /games/{id})."""
    live, table = game.live, game.loaded_table
    over = game.ended or live is None or live.state.is_over
    to_move = None if over or live is None else live.state.to_move
    due = games.clocks.deadline(game) if to_move is not None else None
    return {
        "game_id": table["id"],
        "status": "over" if game.ended else table["status"],
        "seq": game.seq,
        "last_hash": chain_head_hash(game),
        "to_move": to_move,
        "deadline": iso(due) if due is not None else None,
        "end_reason": game.transcript["end"]["reason"] if game.ended else None,
    }


def game_view(games: Games, game: Game, seat: int | None) -> dict[str, Any]:
    table = game.loaded_table
    out: dict[str, Any] = {
        "game_id": table["id"],
        "status": table["status"] if not game.ended else "over",
        "seat": seat,
        "seq": game.seq,
        "last_hash": chain_head_hash(game),
        "seats": [
            {"seat": i, "name": s["name"], "bot": s["bot"], "gone": s.get("gone", False), **away}
            for (i, s), away in zip(
                enumerate(table["seats"]),
                standin.seats_view(game, games.now(), games.config.standin_after),
                strict=True,
            )
        ],
        "on_leave": table.get("on_leave", "stand-in"),
        "to_move": None,
        "your_turn": False,
        "view": None,
        "legal_moves": [],
        "why_not": {},
        "suggested": None,
        "deadline": None,
        "clock": None,
        "result": None,
        "end_reason": None,
        "links": {"transcript": f"/games/{table['id']}/transcript", "events": f"/games/{table['id']}/events"},
    }
    live = game.live
    if game.ended:
        out["end_reason"] = game.transcript["end"]["reason"]
        out["result"] = game.transcript["end"]["result"]
    if table["status"] == "revealing":
        out["reveal_deadline"] = table.get("reveal_deadline")  # no card exists until every seat has revealed
    if is_blind(table):  # BLIND HOOK: the blind log's place and the step due
        out["blind"] = games.blind.summary(game)
    if live is None:
        return out
    state, rules = live.state, live.rules
    view = state.view(seat)
    out["view"] = view
    to_move = None if state.is_over or game.ended else state.to_move
    out["to_move"] = to_move
    if to_move is not None:
        due = games.clocks.deadline(game)
        out["deadline"] = iso(due) if due is not None else None
        out["clock"] = game.decision_kind()
    if seat is not None and to_move == seat:
        out["your_turn"] = True
        legal = game.legal(seat)
        out["legal_moves"] = [m.to_json() for m in legal]
        if any(m.kind == "play" for m in legal):
            for text in view.get("hand") or []:
                move = Move.play(card_from_str(text))
                if move not in legal:
                    reason = state.why_not(seat, move)
                    if reason:
                        out["why_not"][text] = reason
        suggestion = rules.suggest(view)
        out["suggested"] = suggestion.to_json() if suggestion is not None else None
    return out


def redact_record(record: dict, seat: int | None) -> dict:
    """A move record as another seat may see it while the game runs: thrown cards are face down.

    The salt goes too: the next record's `prev` (and the view's `last_hash`) is the hash of the whole record,
    so with its salt in hand a seat could hash every candidate set of cards until one matched. Without it
    the hidden part of the preimage is 256 secret bits (docs/fairness.md, "Threat model")."""
    if record["move"].get("kind") == "throw" and record["seat"] != seat:
        out = {k: v for k, v in record.items() if k not in ("move", "salt")}
        out["move"] = {"kind": "throw", "count": len(record["move"].get("cards") or [])}
        out["redacted"] = True
        return out
    return record


def visible_records(game: Game, seat: int | None, after: int = 0) -> list[dict]:
    records = game.transcript.get("records", [])[max(after, 0) :]
    if game.ended:
        return list(records)
    return [redact_record(r, seat) for r in records]


def public_transcript(game: Game, seat: int | None) -> dict:
    """The finished game's transcript in full (seed revealed, signed); while it runs, the signed header and
    the records as this seat may see them, without the seed."""
    t = tr.public_view(game.transcript)
    if game.ended:
        return t
    t["records"] = visible_records(game, seat)
    return {
        "complete": False,
        "transcript": t,
        "note": "The game is in progress: the server seed is revealed, and the transcript signed, when it ends.",
    }
