"""Where the rules engine says each hand and each trick of a transcript ends, for the clients' tests (the terminal
client's hand tracker, the browser's story of the game)."""

from __future__ import annotations

from fairdeal.core.fairness import game_seed
from fairdeal.core.replay import LiveGame


def live_game(t: dict, server_seed: bytes) -> LiveGame:
    seeds = [s["client_seed"] for s in t["start"]["seats"]]
    return LiveGame(t["start"], game_seed(server_seed, seeds, t["protocol"]))


def engine_ends(t: dict, server_seed: bytes) -> list[tuple[int, str]]:
    """(seq, 'hand' | 'new-deal') for every record after which the engine deals again or the game is over: the
    view's hand_number (every deal, from 0) moves on; Twenty Down's counted_deal does not for a new deal."""
    game = live_game(t, server_seed)
    out = []
    for rec in t["records"]:
        before = game.state.view(None)
        game.apply_record(rec, chain=False)
        after = game.state.view(None)
        if game.state.is_over:
            out.append((rec["seq"], "hand"))
        elif after["hand_number"] != before["hand_number"]:
            same_deal = "counted_deal" in after and after["counted_deal"] == before["counted_deal"]
            out.append((rec["seq"], "new-deal" if same_deal else "hand"))
    return out


def tricks_done(t: dict, server_seed: bytes) -> int:
    """The engine's count of completed tricks: a card that grows its hand's tricks, or ends the hand."""
    game, done = live_game(t, server_seed), 0
    for rec in t["records"]:
        before = game.state.view(None)
        game.apply_record(rec, chain=False)
        after = game.state.view(None)
        if rec["move"]["kind"] == "play" and (
            len(after["tricks"]) > len(before["tricks"])
            or game.state.is_over
            or after["hand_number"] != before["hand_number"]
        ):
            done += 1
    return done
