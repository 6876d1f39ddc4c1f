"""Retention: a finished game leaves the store `retention` seconds after it ended (FAIRDEAL_RETENTION), written
first to the archive the operator chose (FAIRDEAL_ARCHIVE: a folder of JSON Lines files, one public transcript a
line as `fairdeal export` writes them, so `fairdeal-verify audit FILE` checks a file). Without an archive folder
nothing is ever deleted. The sweeper runs a pass a minute (up to BATCH games); `fairdeal archive` runs passes until
none is due.

A line is written and fsynced before its game is deleted, so a crash between the two leaves the game in the
store and archives it again next time: a file may hold a game twice, never lose one. A dealer-blind game's
blind log ("<game>~blind") and its bots' secrets ("<game>~blind~<seat>") leave with it. The game's transparency-log
leaves stay in the log (they are sequenced first), and its archived line carries their proofs. Idempotency keys
expire on their own in Redis; the embedded store's are purged here.
"""

from __future__ import annotations

import logging
import os
import time

from fairdeal.service import player_games
from fairdeal.service.blind.log import delete_stored as delete_blind
from fairdeal.service.export import transcript_line

log = logging.getLogger("fairdeal.retention")

BATCH = 200


def archive_path(folder: str, now: float) -> str:
    """The archive file games archived at `now` go to: one a day (UTC)."""
    return os.path.join(folder, time.strftime("fairdeal-%Y-%m-%d.jsonl", time.gmtime(now)))


def append_lines(path: str, lines: list[str]) -> None:
    """Append and fsync: the lines are on disk before the games they hold are deleted."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "a", encoding="utf-8") as f:
        f.writelines(lines)
        f.flush()
        os.fsync(f.fileno())


def run_once(services, limit: int = BATCH) -> int:
    """Purge expired idempotency keys; archive and delete up to `limit` games past their retention; how many."""
    store, cfg = services.store, services.config
    now = services.tables.now()
    store.purge_idempotency(now)
    if not cfg.archive_dir:
        return 0
    due = store.index_range("finished", max_score=now - cfg.retention, limit=limit)
    if not due:
        return 0
    ended, lines = [], []
    for game_id, _ in due:
        c = services.games.get(game_id)
        if c.ended:
            ended.append(game_id)
            lines.append(transcript_line(services, c))
        else:  # no end in the store (rolled back, or deleted already): it is indexed again when it ends
            store.index_remove("finished", game_id)
    if lines:
        append_lines(archive_path(cfg.archive_dir, now), lines)
    for game_id in ended:
        store.tlog_sequence(game_id)  # its leaves are in the transparency log before the game leaves the store
        table, _ = store.get_doc("table", game_id)
        for seat in (table or {}).get("seats", ()):
            if seat.get("player"):
                player_games.forget_seat(store, seat["player"], game_id)
        store.delete_game(game_id)
        delete_blind(store, game_id, table)  # a dealer-blind game's second log and its bots' secrets
        store.index_remove("finished", game_id)
        services.games.forget(game_id)
    if ended:
        log.info(
            "games archived", extra={"fields": {"games": len(ended), "archive": archive_path(cfg.archive_dir, now)}}
        )
    return len(due)


def run_all(services) -> int:
    """run_once until nothing is due; the games archived."""
    total = 0
    while True:
        n = run_once(services)
        total += n
        if n < BATCH:
            return total
