"""Writing a game's log: the commit, the seating and start records, moves and the end, each by compare-and-append.

The log of a game, in the store, is exactly the transcript in pieces (fairdeal/2):
  entry 0     {"commit": ..., "commit_signature": ...}        written when the table is created
  entry 1     {"seating": ..., "seating_signature": ...}      written when the host starts the table
  entry 2     {"start": ..., "start_signature": ...}          written when every committed seat has revealed
  entry k+2   move record seq k                               (fairdeal.core.writer.make_move_record)
  last        {"end": ..., "signature": ...}                  written once, revealing the server seed
(a table that ends before it starts has its end right after its last header entry; a game begun under
fairdeal/1 has no seating entry, so its moves start at entry 2). Moves follow the header entries one to one,
so compare-and-append on the entry count is compare-and-append on the game's sequence number.

Every append is compare-and-append on the length and on the digest of the last entry this copy holds; the copy is
changed only after the append succeeded, and on a lost race it catches up (catchup.py) with what the other writer
recorded.
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Callable
from typing import Any

from fairdeal.core import fairness, tlog, writer
from fairdeal.core.games.base import Move, Rules
from fairdeal.service.cache import GameCache
from fairdeal.service.catchup import CatchUp, server_seed
from fairdeal.service.game import Game, entry_text, leaf_text
from fairdeal.service.isotime import iso
from fairdeal.service.store.base import CONFLICT, OK, AppendResult, Store, entry_digest

log = logging.getLogger("fairdeal.games")


class Appender:
    def __init__(
        self, store: Store, keyring, config, now: Callable[[], float], cache: GameCache, catchup: CatchUp, metrics=None
    ):
        self.store, self.keyring, self.config, self.now = store, keyring, config, now
        self.cache, self.catchup, self.metrics = cache, catchup, metrics

    def append(
        self,
        game: Game,
        entry: dict,
        idem_key: str | None = None,
        bhash: str | None = None,
        idem_scope: str = "",
        leaf: dict | None = None,
    ) -> AppendResult:
        """Compare-and-append at the cached length. With `leaf`: the transparency log's leaf is written in the same
        atomic write. Either way the store's last entry must be the one this copy holds (its digest): a store that
        lost writes is never appended to from a copy ahead of it."""
        text = entry_text(entry)
        last = None if game.last_text is None else entry_digest(game.last_text)
        if leaf is not None:
            res = self.store.append_with_leaf(
                game.game_id, game.length, text, self.now(), leaf["type"], leaf_text(leaf), last
            )
        else:
            res = self.store.append(game.game_id, game.length, text, self.now(), idem_key, bhash, idem_scope, last)
        if res.status == OK:
            game.length += 1
            game.last_text = text
            self.cache.grow(game, len(text))
            if self.metrics:
                self.metrics.inc("fairdeal_log_appends_total")
        else:
            self.catchup.sync(game)
            if self.metrics and res.status == CONFLICT:
                self.metrics.inc("fairdeal_append_conflicts_total")
        return res

    # ------------------------------------------------------------------------------------ headers
    def append_commit(self, game_id: str, rules: Rules, seed: bytes | None = None, board: dict | None = None) -> dict:
        """Draw the secret seed, store it apart, publish the signed commitment as entry 0. The seed is stored
        only if the game has none (never replacing the seed of a game already committed under this id), and
        before the commitment, so that no committed game lacks its seed; a seed whose commit was never appended
        binds nothing and is never revealed. A tournament table gives its derived seed and its commit's board
        member (docs/tournaments.md, "Tables")."""
        seed = seed or fairness.new_server_seed()
        if not self.store.put_secret(game_id, seed.hex()):
            raise RuntimeError("a new game id was already in use")
        rules_json = rules.to_json()
        key = self.keyring.current_key
        commit = writer.make_commit(
            game_id,
            rules_json,
            fairness.commitment(seed, game_id, rules_json),
            key,
            iso(self.now()),
            deal_layout=rules.deal_layout,
            board=board,
        )
        t = writer.new_transcript(self.keyring.private_for(key), commit)
        entry = entry_text({"commit": commit, "commit_signature": t["commit_signature"]})
        if self.config.transparency_log:  # no commitment without its leaf: one atomic write
            res = self.store.append_with_leaf(
                game_id, 0, entry, self.now(), "commitment", leaf_text(tlog.commitment_leaf(commit))
            )
        else:
            res = self.store.append(game_id, 0, entry, self.now())
        if res.status != OK:
            raise RuntimeError("a new game id was already in use")
        return commit

    def _append_header(self, game: Game, name: str, record: dict) -> None:
        sig = writer.sign_record(self.keyring.private_for(record["key"]), record)
        index = game.length
        if self.append(game, {name: record, f"{name}_signature": sig}).status == OK:
            self.catchup.adopt_header(game, name, record, sig, index)

    def ensure_seated(self, game: Game) -> None:
        """fairdeal/2: write the signed seating record from the table document once the host has started the
        table (deterministic, so racing writers agree)."""
        table = game.loaded_table
        if (
            game.protocol == "fairdeal/1"
            or game.seated
            or game.ended
            or game.length != 1
            or table["status"] not in ("revealing", "playing")
        ):
            return
        seats = [
            writer.seating_seat(i, s["name"], s["bot"], s.get("client_seed_commitment"))
            for i, s in enumerate(table["seats"])
        ]
        self._append_header(
            game,
            "seating",
            writer.make_seating(game.transcript["commit"], seats, table.get("reveal_deadline"), table["seated"]),
        )

    def ensure_started(self, game: Game) -> None:
        """Write the signed start record from the table document once every committed seat has revealed
        (deterministic, so racing writers agree)."""
        table = game.loaded_table
        if game.started or game.ended or table["status"] != "playing":
            return
        commit = game.transcript["commit"]
        if commit["protocol"] == "fairdeal/1":  # a table opened before the upgrade: its seeds are in clear
            if game.length != 1:
                return
            seats = [
                writer.make_seat(i, s["name"], s["bot"], s.get("client_seed")) for i, s in enumerate(table["seats"])
            ]
            self._append_header(game, "start", writer.make_start(commit, seats, table["clocks"], table["started"]))
            return
        self.ensure_seated(game)
        if not game.seated or game.length != 2:
            return
        seats = [
            {
                "seat": i,
                "name": s["name"],
                "bot": s["bot"],
                "client_seed_commitment": s.get("client_seed_commitment"),
                "client_seed": s.get("client_seed"),
                "nonce": s.get("nonce"),
            }
            for i, s in enumerate(table["seats"])
        ]
        self._append_header(
            game,
            "start",
            writer.make_start(commit, seats, table["clocks"], table["started"], game.transcript["seating"]),
        )

    # -------------------------------------------------------------------------------------- moves
    def append_move(
        self,
        game: Game,
        seat: int,
        move: Move,
        by: str,
        idem_key: str | None = None,
        bhash: str | None = None,
        idem_scope: str = "",
    ) -> tuple[AppendResult, dict]:
        """Append a move checked at this position (a player's by moves.py; a policy's here, like a player's: a
        wrong one never reaches the log). The record is the one LiveGame.apply would make, built before the state
        changes: the state is changed only once the record is in the log."""
        live = game.live
        assert live is not None  # a move is checked (by moves.py or a policy) only in a started game
        if by != "player":
            refusal = live.state.refusal(seat, move)
            if refusal is not None:
                raise RuntimeError(f"game {game.game_id}: the {by} policy chose {move}, which is illegal: {refusal}")
        now = self.now()
        record = live.next_record(seat, move, by, iso(now))
        res = self.append(game, record, idem_key, bhash, idem_scope)
        if res.status == OK:
            try:
                live.adopt_checked(record, move)
            except Exception:
                self.cache.reset(game)  # cannot happen for a checked move; if it does, rebuild from the log
                self.catchup.sync(game)
                raise
            self.catchup.note_move(game, record, math.floor(now * 1000) / 1000)  # the time as the record writes it
            if self.metrics:
                self.metrics.inc("fairdeal_moves_total", by=by)
        return res, record

    # ---------------------------------------------------------------------------------------- end
    def finish(self, game: Game, reason: str) -> None:
        """Append the end record revealing the seed, and the signature over the whole transcript. A table that
        ends between its seating and its start names the reveals it received (from the table document)."""
        if game.ended:
            return
        seed = server_seed(self.store, game.game_id)
        result = None
        if game.live is not None and game.live.state.is_over:
            result = game.live.state.result
        t = json.loads(json.dumps(game.transcript))
        blind_member = self.catchup.blind_member(game)  # BLIND HOOK: the blind log, under the end's signature
        t.update(blind_member)
        extra: dict[str, Any] = {}
        if t["protocol"] != "fairdeal/1":
            extra["deals"] = [(d[0], d[1]) for d in game.live.state.deals] if game.live is not None else []
            if game.seated and not game.started:
                extra["reveals"] = [
                    {"seat": i, "client_seed": s["client_seed"], "nonce": s["nonce"]}
                    for i, s in enumerate((game.table or {}).get("seats", ()))
                    if s.get("revealed")
                ]
        writer.finish(self.keyring.private_for(t["commit"]["key"]), t, reason, seed, result, iso(self.now()), **extra)
        res = self.append(
            game,
            {"end": t["end"], "signature": t["signature"]},
            leaf=tlog.ending_leaf(t) if self.config.transparency_log else None,
        )
        if res.status == OK:
            game.transcript.update(blind_member)  # BLIND HOOK
            game.transcript["end"], game.transcript["signature"] = t["end"], t["signature"]
            # said once: here, by the process whose append of the end won, not by each process that sees it
            log.info("game ended", extra={"fields": {"game": game.game_id, "reason": reason, "seq": game.seq}})
            if self.metrics:
                self.metrics.inc("fairdeal_games_ended_total", reason=reason)
