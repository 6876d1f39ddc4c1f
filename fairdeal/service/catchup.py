"""The store catch-up: a Game applies only the log entries it has not seen, and is rebuilt from the store when it is
found out of step with it.

The store is the game; a process's copy is only a cache of it. A store may lose acknowledged writes (a Redis
failover to a replica that lagged, a restored backup) and be written again since, so a copy can be ahead of the
store or have gone another way. A catch-up therefore reads from the last entry the copy holds and checks it is
still there, unchanged; each entry adopted must chain onto the one before (`prev`). A copy found out of step is
rebuilt from the store (`rebuild`): nothing is appended on top of, served from or signed over anything but the
store's chain (appends.py checks the last entry's digest on every append for the same reason).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable

from fairdeal.core import fairness
from fairdeal.core.blind.hidden import blind_live_game  # BLIND HOOK
from fairdeal.core.games.base import GameError
from fairdeal.core.replay import LiveGame
from fairdeal.service.blind.log import BlindLogs  # BLIND HOOK
from fairdeal.service.blind.seating import is_blind  # BLIND HOOK
from fairdeal.service.cache import GameCache
from fairdeal.service.game import Game
from fairdeal.service.isotime import parse_iso
from fairdeal.service.lost_records import UnreadableEntry
from fairdeal.service.store.base import SecretMissing, Store

log = logging.getLogger("fairdeal.games")


def server_seed(store: Store, game_id: str) -> bytes:
    secret = store.get_secret(game_id)
    if secret is None:
        raise SecretMissing(
            f"game {game_id}: the server seed is missing from the store, so the game can be "
            "neither dealt nor ended (its end record reveals the seed)"
        )
    return bytes.fromhex(secret)


def board_seed_key(game_id: str) -> str:
    """Where a tournament table's board seed is kept beside its server seed (secret until its round ends)."""
    return game_id + "/board"


def board_seed(store: Store, commit: dict) -> bytes | None:
    """A tournament table's board seed (docs/tournaments.md, "Tables"): its cards come from it; None for a game
    whose commit has no board member."""
    if "board" not in commit:
        return None
    secret = store.get_secret(board_seed_key(commit["game_id"]))
    if secret is None:
        raise SecretMissing(f"game {commit['game_id']}: the board seed of this tournament table is missing")
    return bytes.fromhex(secret)


class CatchUp:
    def __init__(self, store: Store, cache: GameCache, now: Callable[[], float], metrics=None):
        self.store, self.cache, self.now, self.metrics = store, cache, now, metrics
        self.blind_logs = BlindLogs(store)  # BLIND HOOK: dealer-blind games' second log (blind/log.py)

    def is_blind(self, game: Game) -> bool:
        """BLIND HOOK: whether the game is at a dealer-blind table (read from the store when this copy has no
        table document: Games.get)."""
        return is_blind(game.table if game.table is not None else self.store.get_doc("table", game.game_id)[0])

    def blind_member(self, game: Game) -> dict:
        """BLIND HOOK: the transcript's "blind" member of a blind game, {} for any other (the end signs it)."""
        return self.blind_logs.member(game.game_id) if self.is_blind(game) else {}

    @staticmethod
    def read_from(game: Game) -> int:
        """The log index a catch-up reads from: the last entry this process holds, to check it is still there."""
        return max(game.length - 1, 0)

    def sync(self, game: Game) -> Game:
        """Apply the log entries this process has not seen yet."""
        start = self.read_from(game)
        return self.apply_texts(game, self.store.records(game.game_id, start), start)

    def apply_texts(self, game: Game, texts: list[str], start: int) -> Game:
        """Apply the store's log entries from index `start` (read_from(game)) on. If the entry this process holds as
        its last is missing or different there, the store is behind this copy or went another way: rebuild."""
        if game.length and (start != game.length - 1 or not texts or texts[0] != game.last_text):
            return self.rebuild(game, "behind" if len(texts) < game.length - start else "diverged")
        for text in texts[game.length - start :]:
            self._apply_text(game, text)
        return game

    def rebuild(self, game: Game, why: str) -> Game:
        """Forget this process's copy and replay the store's log from its first entry."""
        log.warning(
            "cached game out of step with the store: rebuilt from the store",
            extra={"fields": {"game": game.game_id, "why": why, "cached_length": game.length}},
        )
        if self.metrics:
            self.metrics.inc("fairdeal_cache_rebuilds_total", why=why)
        self.cache.reset(game)
        try:
            for text in self.store.records(game.game_id, 0):
                self._apply_text(game, text)
        except BaseException:
            self.cache.reset(game)  # never keep half a copy
            raise
        return game

    def _apply_text(self, game: Game, text: str) -> None:
        try:
            self._apply_entry(game, json.loads(text))
        except (ValueError, KeyError, TypeError, RuntimeError, GameError) as e:
            raise UnreadableEntry(game.length, e) from e
        game.last_text = text
        self.cache.grow(game, len(text))

    def _apply_entry(self, game: Game, entry: dict) -> None:
        t = game.transcript
        if "commit" in entry:
            t.update(
                protocol=entry["commit"]["protocol"],
                commit=entry["commit"],
                commit_signature=entry["commit_signature"],
                records=[],
            )
            game.last_at = parse_iso(entry["commit"]["created"])
        elif "seating" in entry:
            self.adopt_header(game, "seating", entry["seating"], entry["seating_signature"], game.length)
        elif "start" in entry:
            self.adopt_header(game, "start", entry["start"], entry["start_signature"], game.length)
        elif "end" in entry:
            self._chained(game, entry["end"])
            t.update(self.blind_member(game))  # BLIND HOOK: the signed transcript carries the blind log
            t["end"], t["signature"] = entry["end"], entry["signature"]
            game.last_at = parse_iso(entry["end"]["ended"])
        elif entry.get("type") == "move":
            live = game.live
            if live is None or entry["seq"] != live.seq + 1:
                raise RuntimeError(f"game {game.game_id}: log entry out of order")
            self._chained(game, entry)
            live.adopt(entry)  # read from the store: parsed and checked like any record
            self.note_move(game, entry)
        else:
            raise RuntimeError(f"game {game.game_id}: unknown log entry")
        game.length += 1

    @staticmethod
    def _chained(game: Game, record: dict) -> None:
        """A record read from the store must carry the hash of the one before it (the store's own chain is
        broken otherwise: no process may build on it)."""
        if game.live is not None and record.get("prev") != game.live.last_hash:
            raise RuntimeError(f"game {game.game_id}: the stored log breaks its hash chain at seq {record.get('seq')}")

    def adopt_header(self, game: Game, name: str, record: dict, signature: str, index: int) -> None:
        """A seating or start record (log entry `index`), read back from the log or just appended here."""
        records = game.transcript.pop("records")  # members in the order of events, as the writer keeps them
        game.transcript[name], game.transcript[f"{name}_signature"] = record, signature
        game.transcript["records"] = records
        game.headers = index + 1  # the entries up to and including this one
        if name == "start":
            seed = fairness.game_seed(
                server_seed(self.store, game.game_id), [s["client_seed"] for s in record["seats"]], record["protocol"]
            )
            # BLIND HOOK: at a blind table the server does not hold the humans' hands
            game.live = (
                blind_live_game(record, seed)
                if self.is_blind(game)
                else LiveGame(record, seed, board_seed(self.store, game.transcript["commit"]))
            )
            game.last_at = game.last_human_at = parse_iso(record["started"])
        else:
            game.last_at = parse_iso(record["seated"])

    def note_move(self, game: Game, record: dict, at: float | None = None) -> None:
        game.transcript["records"].append(record)
        if at is None:
            at = parse_iso(record["at"]) if "at" in record else self.now()
        game.last_at = at
        if record["by"] == "player":
            game.last_human_at = at
