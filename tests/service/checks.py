"""Checking a finished game's transcript: the verifier's checks, a full replay, and fairdeal-verify itself."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile

from fairdeal.core.integrity import check_transcript, game_seed_of
from fairdeal.core.reader import parse_transcript
from fairdeal.core.replay import replay_records


def check_finished(
    t: dict, key: str | None = None, receipts: dict[int, str] | None = None, client_seeds: dict[int, str] | None = None
) -> None:
    t = parse_transcript(t)
    assert check_transcript(t, key) == []
    end = t["end"]
    assert end["reason"] == "finished"
    game = replay_records(t["start"], game_seed_of(t), t["records"])
    assert game.state.is_over
    assert game.state.result == end["result"]
    run_verifier(t, key, receipts, client_seeds)


def run_verifier(
    t: dict, key: str | None = None, receipts: dict[int, str] | None = None, client_seeds: dict[int, str] | None = None
) -> None:
    """The player's own check: `fairdeal-verify TRANSCRIPT --key K --receipt SEQ:HASH --client-seed SEAT:SEED`."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(t, f)
    args = [sys.executable, "-c", "from fairdeal.verify.cli import main; main()", "verify", f.name]
    if key:
        args += ["--key", key]
    for seq, h in (receipts or {}).items():
        args += ["--receipt", f"{seq}:{h}"]
    for seat, s in (client_seeds or {}).items():
        args += ["--client-seed", f"{seat}:{s}"]
    r = subprocess.run(args, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr


def check_ended(t: dict, reason: str) -> None:
    """Signed, chained, seed revealed and matching the commitment; every record replays (timeouts included)."""
    assert t["end"]["reason"] == reason
    t = parse_transcript(t)
    assert check_transcript(t) == []
    if "start" in t:
        replay_records(t["start"], game_seed_of(t), t["records"])
