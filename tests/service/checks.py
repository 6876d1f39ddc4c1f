"""Checking a finished game's transcript: the verifier's checks and a full replay."""
from __future__ import annotations

from verifier import fairness, transcript as tr
from verifier.replay import replay_records


def check_finished(t: dict, key: str | None = None) -> None:
    t = tr.parse_transcript(t)
    assert tr.check_transcript(t, key) == []
    end = t["end"]
    assert end["reason"] == "finished"
    seed = fairness.server_seed_from_hex(end["server_seed"])
    game = replay_records(t["start"], fairness.game_seed(seed, [s["client_seed"] for s in t["start"]["seats"]]),
                          t["records"])
    assert game.state.is_over
    assert game.state.result == end["result"]
