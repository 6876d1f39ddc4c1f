"""Finished transcripts as JSON Lines, for auditors."""

from __future__ import annotations

import json
from typing import IO

from fairdeal.core import transcript as tr
from fairdeal.service.translog import add_log_member


def transcript_line(services, c) -> str:
    """A finished game's public transcript, with its log member, as one JSON Lines line (what `fairdeal-verify
    audit` reads)."""
    public = tr.public_view(c.transcript)
    if "blind" in c.transcript:  # BLIND HOOK (until core's public_view keeps the member itself)
        public["blind"] = c.transcript["blind"]
    t = add_log_member(services.translog, public, c.game_id, c.protocol)
    return json.dumps(t, separators=(",", ":"), sort_keys=True) + "\n"


def export(services, out: IO[str], since: float | None = None, limit: int | None = None) -> int:
    """Write each finished game's transcript (one JSON object a line), oldest first; returns the count."""
    n, after = 0, since
    while True:
        batch = services.store.index_range("finished", limit=200, after=after)
        if not batch:
            return n
        for game_id, score in batch:
            c = services.games.get(game_id)
            if c.ended:
                out.write(transcript_line(services, c))
                n += 1
                if limit is not None and n >= limit:
                    return n
            after = score
        if len(batch) < 200:
            return n
