"""This process's games: an LRU of replayed games, bounded by count and by bytes (the stored size of their logs,
which their replayed transcripts grow with). The store is the game; an entry here is only a copy of it."""

from __future__ import annotations

import threading
from collections import OrderedDict

from fairdeal.service.game import Game


class GameCache:
    def __init__(self, config):
        self.config = config
        self.entries: OrderedDict[str, Game] = OrderedDict()
        self._lock = threading.Lock()
        self._bytes = 0  # the sum of the cached games' `bytes`

    def slot(self, game_id: str) -> Game:
        """This process's entry for a game, made empty when there is none. The entry asked for is never evicted."""
        with self._lock:
            game = self.entries.get(game_id)
            if game is None:
                game = self.entries[game_id] = Game(game_id)
            else:
                self.entries.move_to_end(game_id)
            while len(self.entries) > 1 and (
                len(self.entries) > self.config.cache_size or self._bytes > self.config.cache_bytes
            ):
                _, old = self.entries.popitem(last=False)
                self._bytes -= old.bytes
            return game

    @property
    def cached_bytes(self) -> int:
        return self._bytes

    def grow(self, game: Game, n: int) -> None:
        """`game` holds `n` bytes more (or fewer); counted while it is in the cache."""
        game.bytes += n
        with self._lock:
            if self.entries.get(game.game_id) is game:
                self._bytes += n

    def reset(self, game: Game) -> None:
        """Forget what this process replayed of the game (the next catch-up reads it from the store again)."""
        self.grow(game, -game.bytes)
        game.forget_log()

    def forget(self, game_id: str) -> None:
        """Drop a game from this process's cache (it left the store)."""
        with self._lock:
            game = self.entries.pop(game_id, None)
            if game is not None:
                self._bytes -= game.bytes
