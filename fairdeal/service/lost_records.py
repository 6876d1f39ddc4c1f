"""Games whose records the store no longer has, or cannot give back readable: the table document is there, but
the log is empty (no commit) or one of its entries does not read (not JSON, out of order, off the hash chain,
the server seed gone). A store lost them (docs/operations.md, "A game whose records are gone").

Such a game answers 503 `game-records-missing` on every endpoint, with what is known (the table's status, how
many entries the store holds, which one failed), and nothing is written for it: the service never makes up a
commit, seating or end over records it lost. Each answer counts in fairdeal_games_records_missing_total{why};
each game is logged once per process (not at every request: clients and the sweeper keep asking).
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from typing import Any

from fairdeal.service.errors import ApiError
from fairdeal.service.store.base import SecretMissing

log = logging.getLogger("fairdeal.games")

LOGGED_MAX = 10_000  # games remembered as logged (a bound: a store that lost everything has many)

WHY = {
    "no-commit": "the store holds no records for it",
    "unreadable": "one of its stored records cannot be read",
    "no-seed": "its server seed is missing from the store",
}


class LostRecords:
    def __init__(self, metrics=None):
        self.metrics = metrics
        self._logged: OrderedDict[tuple[str, str], None] = OrderedDict()
        self._lock = threading.Lock()

    def refusal(
        self,
        game_id: str,
        table: dict | None,
        why: str,
        found: int,
        error: BaseException | None = None,
        at_entry: int | None = None,
    ) -> ApiError:
        """The 503 for this game (counted; logged the first time this process sees the game so)."""
        if self.metrics:
            self.metrics.inc("fairdeal_games_records_missing_total", why=why)
        fields: dict[str, Any] = {
            "game": game_id,
            "why": why,
            "records_found": found,
            "table_status": (table or {}).get("status"),
        }
        if at_entry is not None:
            fields["at_entry"] = at_entry
        if self._first(game_id, why):
            log.error(
                "game records missing from the store: the game answers 503 until they are restored",
                extra={"fields": {**fields, **({"error": repr(error)} if error else {})}},
            )
        return ApiError(
            503,
            "game-records-missing",
            f"The records of game {game_id} are not available: {WHY[why]}. Nothing can be shown or "
            "played until the operator restores them.",
            "Game records missing",
            **fields,
        )

    def _first(self, game_id: str, why: str) -> bool:
        with self._lock:
            if (game_id, why) in self._logged:
                return False
            self._logged[(game_id, why)] = None
            while len(self._logged) > LOGGED_MAX:
                self._logged.popitem(last=False)
            return True


class UnreadableEntry(Exception):
    """A stored log entry that does not read (Games._apply_text): which one, and why."""

    def __init__(self, index: int, error: BaseException):
        super().__init__(f"log entry {index}: {error!r}")
        self.index, self.error = index, error
        self.why = "no-seed" if isinstance(error, SecretMissing) else "unreadable"
