"""One game as this process knows it: the table document it was last read with, the transcript so far, the replayed
state, and what the clocks and the cache need to know about it. Every job of the service takes the Game alone (its
table is `game.table`); the cache (cache.py) holds them, the catch-up (catchup.py) fills them from the store.

How a log entry is stored is said here too, once, for every writer (entry_text, leaf_text).
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field

from fairdeal.core.canonical import canonical_json
from fairdeal.core.replay import LiveGame


def entry_text(entry: dict) -> str:
    """How a log entry is stored: plain JSON (hashes are always computed on the canonical form, never on this)."""
    return json.dumps(entry, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def leaf_text(leaf: dict) -> str:
    """How a transparency-log leaf is stored: its canonical JSON, so the stored text is the leaf's bytes."""
    return canonical_json(leaf).decode("utf-8")


@dataclass
class Game:
    """The cached game with its table. Changed only under `lock` (games.Games.act takes it)."""

    game_id: str
    table: dict | None = None  # the table document as last read by this process
    transcript: dict = field(default_factory=dict)
    live: LiveGame | None = None
    length: int = 0  # log entries applied
    last_at: float = 0.0  # time of the last entry (the running clock starts there)
    last_human_at: float = 0.0  # time of the last human decision (or the start)
    scheduled: float | None = None  # the sweeper index's time for this game, as last written here
    headers: int = 0  # log entries before the first move (commit, seating, start)
    legal_at: tuple = (None, None, None)  # (seq, seat, legal moves): the clock asks for them often
    kind_at: tuple = (None, None)  # (seq, "card" | "other" | None)
    last_text: str | None = None  # the stored text of the last entry applied (the next append checks it)
    bytes: int = 0  # the stored text of the entries applied: what the cache bound counts
    lock: threading.RLock = field(default_factory=threading.RLock)

    def forget_log(self) -> None:
        """Drop what was replayed (the cache's byte count is the cache's to fix: cache.GameCache.reset)."""
        self.transcript, self.live, self.length, self.last_at, self.last_human_at, self.headers = (
            {},
            None,
            0,
            0.0,
            0.0,
            0,
        )
        self.scheduled, self.last_text = None, None
        self.legal_at, self.kind_at = (None, None, None), (None, None)

    def legal(self, seat: int) -> list:
        """The seat's legal moves now, computed once per position."""
        live = self.live
        assert live is not None  # asked only of a started game (a seat to move, a move to check)
        key = (live.seq, seat)
        if self.legal_at[:2] != key:
            self.legal_at = (*key, live.state.legal_moves(seat))
        return self.legal_at[2]

    def decision_kind(self) -> str | None:
        """The kind of decision the game waits for, as the clock keys name it ("card": cards to play, else
        "other"); None when nobody is to move. Once per position."""
        live = self.live
        if live is None:
            return None
        if self.kind_at[0] != live.seq:
            to_move = None if live.state.is_over else live.state.to_move
            kind = (
                None if to_move is None else ("card" if any(m.kind == "play" for m in self.legal(to_move)) else "other")
            )
            self.kind_at = (live.seq, kind)
        return self.kind_at[1]

    @property
    def loaded_table(self) -> dict:
        """The table document, for the jobs of a unit of work: Games.act reads it before any of them runs (only a
        Game from Games.get, which reads no table, may have none)."""
        if self.table is None:
            raise RuntimeError(f"game {self.game_id}: its table document was not read (outside Games.act)")
        return self.table

    @property
    def protocol(self) -> str | None:
        return self.transcript.get("protocol")

    @property
    def seated(self) -> bool:
        return "seating" in self.transcript

    @property
    def started(self) -> bool:
        return "start" in self.transcript

    @property
    def ended(self) -> bool:
        return "end" in self.transcript

    @property
    def seq(self) -> int:
        """The sequence number of the last move (0 before any move)."""
        return self.live.seq if self.live else 0
