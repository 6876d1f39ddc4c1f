"""A game's unit of work: under the game's lock, read its table document and the log entries this process has not
seen, catch up, run what is due, do the one thing asked (a move, a leave, a cancel...), and record an end in the
table document. Every touch of a game goes through `act` (or `act_fast`, its shortcut for a move).

A game is a header (the table document) plus an append-only log in the store, replayed into an in-process Game
(game.py). The jobs a touch runs each have their module: the cache of games (cache.py), the store catch-up and
rebuild (catchup.py), writing the log (appends.py), clocks and scheduling (clocks.py), the move path (moves.py).
`Games` puts them together for one store.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from fairdeal.service import table_docs
from fairdeal.service.appends import Appender
from fairdeal.service.blind.table import Blind  # BLIND HOOK
from fairdeal.service.cache import GameCache
from fairdeal.service.catchup import CatchUp
from fairdeal.service.clocks import Clocks
from fairdeal.service.errors import ApiError
from fairdeal.service.game import Game
from fairdeal.service.lost_records import LostRecords, UnreadableEntry
from fairdeal.service.moves import Moves
from fairdeal.service.store.base import Store

log = logging.getLogger("fairdeal.games")


class Games:
    def __init__(self, store: Store, keyring, config, now: Callable[[], float] = time.time, metrics=None):
        self.store, self.config, self.now = store, config, now
        self.lost = LostRecords(metrics)  # games whose records the store lost: 503, counted, logged once
        self.cache = GameCache(config)
        self.catchup = CatchUp(store, self.cache, now, metrics)
        self.appender = Appender(store, keyring, config, now, self.cache, self.catchup, metrics)
        self.clocks = Clocks(store, config, now, self.appender, self.lost)
        self.moves = Moves(store, now, self.catchup, self.appender, self.clocks)
        # BLIND HOOK: dealer-blind tables (fairdeal/service/blind/): Clocks.advance hands their games to it
        self.blind = Blind(store, config, now, self.catchup.blind_logs, self.appender, self.clocks, self.moves, metrics)
        self.clocks.blind = self.moves.blind = self.blind

    def get(self, game_id: str) -> Game:
        """The game's log as the store has it now (no table read, nothing run): for exports and retention."""
        game = self.cache.slot(game_id)
        with game.lock:
            return self.catchup.sync(game)

    def forget(self, game_id: str) -> None:
        """Drop a game from this process's cache (it left the store)."""
        self.cache.forget(game_id)
        self.blind.forget(game_id)  # BLIND HOOK

    # ---------------------------------------------------------------------------- the unit of work
    def touch(self, table_id: str) -> Game:
        """Load the table and its game, run what is due, and record the end in the table document."""
        return self.act(table_id, None)[0]

    def act(self, table_id: str, action: Callable[[Game], Any] | None) -> tuple[Game, Any]:
        """Under the game's lock: catch up, run what is due, then `action(game)`, then bookkeeping."""
        if not isinstance(table_id, str):
            raise table_docs.not_found(table_id)
        game = self.cache.slot(table_id)
        with game.lock:
            start = self.catchup.read_from(game)
            (table, _), texts = self.store.doc_and_records("table", table_id, table_id, start)
            if table is None:
                raise table_docs.not_found(table_id)
            game.table = table
            try:
                self.catchup.apply_texts(game, texts, start)
            except UnreadableEntry as e:
                self.cache.reset(game)
                raise self.lost.refusal(
                    table_id, table, e.why, self.store.log_info(table_id)[0], e.error, e.index
                ) from None
            if game.length == 0:
                raise self.lost.refusal(table_id, table, "no-commit", 0)
            if table["status"] == "over" and game.started and not game.ended:
                self._reopen(game)
            if game.table["status"] in ("revealing", "playing"):
                self.clocks.advance(game)
            try:
                result = action(game) if action is not None else None
            finally:
                if game.ended and game.table["status"] != "over":
                    self.record_end(game)
        return game, result

    def act_fast(self, table_id: str, action: Callable[[Game], Any], seq: Any = None) -> tuple[Game, Any]:
        """`act` without reading the store first when this process holds the running game: the move's own
        compare-and-append tells whether the cache was current (if not, it catches up and checks again).
        Taken only when this process's copy is at `seq`, the sequence number the client saw. A refusal stands
        when one read finds the copy current (nothing after its last entry); else the store has moved on and the
        action runs again through `act`, on the store's game. The table document used is the one last read here;
        what it can lag in (a seat's player leaving) only delays that seat's timeout move to the next touch."""
        game = self.cache.slot(table_id)
        with game.lock:
            table = game.table
            if (
                table is not None
                and table["status"] == "playing"
                and game.live is not None
                and not game.ended
                and game.live.seq == seq
            ):  # the client saw what this process holds: likely current
                try:
                    result = action(game)
                except UnreadableEntry:
                    pass  # maybe only this process's copy is behind: read the store, try again
                except ApiError:
                    if self._current(game):
                        raise
                else:
                    if game.ended:
                        self.record_end(game)
                    return game, result
        return self.act(table_id, action)

    def play(self, table_id: str, player: dict, body: dict, idem_key: str | None) -> tuple[Game, dict]:
        """A player's move request, its shape checked (moves.check_request), with what is due after it."""
        return self.act_fast(table_id, lambda game: self.moves.play(game, player, body, idem_key), body["seq"])

    def _current(self, game: Game) -> bool:
        """Whether the store's log ends with the entry this copy holds as its last (one read)."""
        return self.store.records(game.game_id, self.catchup.read_from(game)) == [game.last_text]

    def _reopen(self, game: Game) -> None:
        """The table document says over, but the store's log has no end record: the store lost the end after the
        table was marked (a failover, a restored backup, between the two writes). The log is the game: the table
        goes back to playing, and the game goes on from the store's chain to an end record on it."""
        log.warning(
            "table over without an end record in the store: the game goes on from the store's chain",
            extra={"fields": {"game": game.game_id, "seq": game.seq}},
        )

        def change(t: dict) -> None:
            if t["status"] == "over":
                t.update(status="playing", ended=None, end_reason=None)

        game.table = table_docs.update(self.store, game.game_id, change)
        self.store.index_remove("finished", game.game_id)

    def record_end(self, game: Game) -> None:
        """The table document says what the log's end record says; the table leaves the lobby's indexes."""
        end = game.transcript["end"]

        def change(t: dict) -> None:
            t.update(status="over", ended=end["ended"], end_reason=end["reason"])

        game.table = table_docs.update(self.store, game.game_id, change)
        for index in ("lobby", "running", "schedule"):
            self.store.index_remove(index, game.game_id)
        self.store.index_set("finished", game.game_id, self.now())
