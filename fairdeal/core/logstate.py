"""What `fairdeal-verify log --state FILE` keeps between runs (docs/verify.md): a checkpoint and a compact range,
not the leaves, so that a run costs only what is new since the last one.

    {"format": "fairdeal-log-state/2",
     "head": the latest signed tree head checked (the checkpoint: its size and root),
     "range": {"size": n, "hashes": [hex, ...]}  the tree of the head's n leaves as a compact range (compact.py),
     "heads_seen": how many distinct heads (size, root) the runs have checked,
     "games": {"committed": c, "endings": {reason: count}, "dealt": d, "dealt_cancelled_or_abandoned": x,
               "reveal_phase_aborts": r, "walked_away": {seat name: reveal-phase aborts it did not reveal}},
     "open": {game id: {"index": i, "time": t}}   the commitments with no ending yet}

Its size is O(log n) plus the games still open. The first format (every leaf, every head: a copy of the log) is
still read, and turned into this one by fairdeal.core.logwatch.load_state.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fairdeal.core import tlog
from fairdeal.core.compact import CompactRange
from fairdeal.core.fetch import InputError

STATE_FORMAT = "fairdeal-log-state/2"


@dataclass
class LogState:
    head: dict[str, Any] | None = None
    range: CompactRange = field(default_factory=CompactRange)
    heads_seen: int = 0
    committed: int = 0
    endings: dict[str, int] = field(default_factory=dict)
    dealt: int = 0
    dealt_cut_short: int = 0
    open: dict[str, dict[str, Any]] = field(default_factory=dict)
    reveal_aborts: int = 0  # kept, so that incremental runs count them
    walked_away: dict[str, int] = field(default_factory=dict)

    @property
    def size(self) -> int:
        return self.range.size

    @property
    def latest(self) -> dict[str, Any] | None:
        return self.head

    def to_json(self) -> dict[str, Any]:
        return {
            "format": STATE_FORMAT,
            "head": self.head,
            "range": self.range.to_json(),
            "heads_seen": self.heads_seen,
            "open": self.open,
            "games": {
                "committed": self.committed,
                "endings": self.endings,
                "dealt": self.dealt,
                "dealt_cancelled_or_abandoned": self.dealt_cut_short,
                "reveal_phase_aborts": self.reveal_aborts,
                "walked_away": self.walked_away,
            },
        }


def is_state(obj: Any) -> bool:
    return isinstance(obj, dict) and obj.get("format") == STATE_FORMAT


def state_from_json(obj: Any, where: str) -> LogState:
    try:
        games = obj["games"]
        state = LogState(
            obj["head"],
            CompactRange.from_json(obj["range"]),
            int(obj["heads_seen"]),
            int(games["committed"]),
            dict(games["endings"]),
            int(games["dealt"]),
            int(games["dealt_cancelled_or_abandoned"]),
            dict(obj["open"]),
            int(games["reveal_phase_aborts"]),
            {str(k): int(v) for k, v in games["walked_away"].items()},
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise InputError(f"{where} is not a log watcher's state ({exc}).") from None
    head_size, head_root = (state.head or {}).get("size", 0), (state.head or {}).get("root")
    try:
        matches = (
            state.head is None
            and state.size == 0
            or (head_size == state.size and tlog.head_root(state.head or {}) == state.range.root())
        )
    except (tlog.LogError, KeyError, TypeError, ValueError):
        matches = False
    if not matches:
        raise InputError(
            f"{where}: the state's compact range ({state.size} leaves) does not hash to its head's "
            f"root ({head_size} leaves, {head_root}): the file was altered."
        )
    return state


def save_state(path: str, state: LogState) -> None:
    """Written whole to a temporary file and renamed: a run that dies leaves the old state, never half a one."""
    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=".log-state-", dir=str(target.parent.resolve()))
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(state.to_json(), fh, separators=(",", ":"), sort_keys=True)
    os.replace(tmp, target)
