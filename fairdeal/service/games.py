"""Games: a header (the table document) plus an append-only log, replayed into an in-process LiveGame.

The log of a game, in the store, is exactly the transcript in pieces (fairdeal/2):
  entry 0     {"commit": ..., "commit_signature": ...}        written when the table is created
  entry 1     {"seating": ..., "seating_signature": ...}      written when the host starts the table
  entry 2     {"start": ..., "start_signature": ...}          written when every committed seat has revealed
  entry k+2   move record seq k                               (fairdeal.core.writer.make_move_record)
  last        {"end": ..., "signature": ...}                  written once, revealing the server seed
(a table that ends before it starts has its end right after its last header entry; a game begun under
fairdeal/1 has no seating entry, so its moves start at entry 2). Moves follow the header entries one to one,
so compare-and-append on the entry count is compare-and-append on the game's sequence number.

Each process keeps a LiveGame per game and catches up by applying only the entries it has not seen. Every
touch of a game first runs what is due: bot moves, timeout moves, the end (`advance`).

The store is the game; a process's copy is only a cache of it. A store may lose acknowledged writes (a Redis
failover to a replica that lagged, a restored backup) and be written again since, so a copy can be ahead of the
store or have gone another way. A catch-up therefore reads from the last entry the copy holds and checks it is
still there, unchanged; each entry adopted must chain onto the one before (`prev`); and every append is
compare-and-append on the length and on the digest of the last entry. A copy found out of step is rebuilt from
the store (`rebuild`): nothing is appended on top of, served from or signed over anything but the store's chain.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import logging
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from fairdeal.core import fairness, tlog, writer
from fairdeal.core import transcript as tr
from fairdeal.core.canonical import canonical_json
from fairdeal.core.games import rules_from_json
from fairdeal.core.games.base import MOVE_FORMS, GameError, Move
from fairdeal.core.replay import LiveGame
from fairdeal.service import endings, standin
from fairdeal.service.blind.state import blind_live_game  # BLIND HOOK
from fairdeal.service.blind.table import Blind, is_blind  # BLIND HOOK
from fairdeal.service.errors import ApiError
from fairdeal.service.lost_records import LostRecords, UnreadableEntry
from fairdeal.service.store.base import CONFLICT, DUPLICATE, KEY_REUSED, OK, SecretMissing, Store, entry_digest

log = logging.getLogger("fairdeal.games")

MAX_STEPS = 2000  # bots and timeouts run per touch, a bound against a rule set that never stops


def iso(ts: float) -> str:
    return dt.datetime.fromtimestamp(ts, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")[:-4] + "Z"


def parse_iso(text: str) -> float:
    return (
        dt.datetime.strptime(text.replace("Z", "+0000"), "%Y-%m-%dT%H:%M:%S.%f%z").timestamp()
        if "." in text
        else dt.datetime.strptime(text.replace("Z", "+0000"), "%Y-%m-%dT%H:%M:%S%z").timestamp()
    )


def entry_text(entry: dict) -> str:
    """How a log entry is stored: plain JSON (hashes are always computed on the canonical form, never on this)."""
    return json.dumps(entry, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def leaf_text(leaf: dict) -> str:
    """How a transparency-log leaf is stored: its canonical JSON, so the stored text is the leaf's bytes."""
    return canonical_json(leaf).decode("utf-8")


def stray_member(move_json: Any) -> str | None:
    """The first member a move names that its kind's one form (MOVE_FORMS) does not have, for the problem JSON."""
    if not isinstance(move_json, dict) or not isinstance(move_json.get("kind"), str):
        return None
    form = MOVE_FORMS.get(move_json["kind"])
    if form is None:
        return None
    return next((name for name in sorted(move_json) if name not in ("kind", form.member)), None)


def body_hash(obj: Any) -> str:
    """The fingerprint of a move request, to tell a retry from another request under the same key."""
    return hashlib.sha256(entry_text(obj).encode("utf-8")).hexdigest()


@dataclass
class Cached:
    """One game as this process knows it: the transcript so far and the replayed state."""

    game_id: str
    transcript: dict = field(default_factory=dict)
    live: LiveGame | None = None
    length: int = 0  # log entries applied
    last_at: float = 0.0  # time of the last entry (the running clock starts there)
    last_human_at: float = 0.0  # time of the last human decision (or the start)
    scheduled: float | None = None  # the sweeper index's time for this game, as last written here
    headers: int = 0  # log entries before the first move (commit, seating, start)
    legal_at: tuple = (None, None, None)  # (seq, seat, legal moves): the clock asks for them often
    kind_at: tuple = (None, None)  # (seq, "card" | "other" | None)
    table: dict | None = None  # the table document as last read by this process
    last_text: str | None = None  # the stored text of the last entry applied (the next append checks it)
    bytes: int = 0  # the stored text of the entries applied: what the cache bound counts

    def legal(self, seat: int) -> list:
        """The seat's legal moves now, computed once per position."""
        key = (self.live.seq, seat)
        if self.legal_at[:2] != key:
            self.legal_at = (*key, self.live.state.legal_moves(seat))
        return self.legal_at[2]

    lock: threading.RLock = field(default_factory=threading.RLock)

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


class Games:
    def __init__(self, store: Store, keyring, config, now: Callable[[], float] = time.time, metrics=None):
        self.store, self.keyring, self.config, self.now = store, keyring, config, now
        self.metrics = metrics
        self.lost = LostRecords(metrics)  # games whose records the store lost: 503, counted, logged once
        self._cache: OrderedDict[str, Cached] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._cache_bytes = 0  # the sum of the cached games' `bytes`
        self.blind = Blind(store, config, metrics)  # BLIND HOOK: dealer-blind tables (fairdeal/service/blind/)

    # ------------------------------------------------------------------------------------ cache
    def slot(self, game_id: str) -> Cached:
        """This process's entry for a game (an LRU of replayed games, bounded by count and by bytes: the stored
        size of their logs, which their replayed transcripts grow with). The entry asked for is never evicted."""
        with self._cache_lock:
            c = self._cache.get(game_id)
            if c is None:
                c = self._cache[game_id] = Cached(game_id)
            else:
                self._cache.move_to_end(game_id)
            while len(self._cache) > 1 and (
                len(self._cache) > self.config.cache_size or self._cache_bytes > self.config.cache_bytes
            ):
                _, old = self._cache.popitem(last=False)
                self._cache_bytes -= old.bytes
            return c

    @property
    def cached_bytes(self) -> int:
        return self._cache_bytes

    def _grow(self, c: Cached, n: int) -> None:
        """`c` holds `n` bytes more (or fewer); counted while it is in the cache."""
        c.bytes += n
        with self._cache_lock:
            if self._cache.get(c.game_id) is c:
                self._cache_bytes += n

    def forget(self, game_id: str) -> None:
        """Drop a game from this process's cache (it left the store)."""
        with self._cache_lock:
            c = self._cache.pop(game_id, None)
            if c is not None:
                self._cache_bytes -= c.bytes

    def _reset(self, c: Cached) -> None:
        """Forget what this process replayed (another process appended first); the next sync reloads."""
        self._grow(c, -c.bytes)
        c.transcript, c.live, c.length, c.last_at, c.last_human_at, c.headers = {}, None, 0, 0.0, 0.0, 0
        c.scheduled, c.last_text = None, None
        c.legal_at, c.kind_at = (None, None, None), (None, None)

    @staticmethod
    def read_from(c: Cached) -> int:
        """The log index a catch-up reads from: the last entry this process holds, to check it is still there."""
        return max(c.length - 1, 0)

    def sync(self, c: Cached) -> Cached:
        """Apply the log entries this process has not seen yet."""
        start = self.read_from(c)
        return self.apply_texts(c, self.store.records(c.game_id, start), start)

    def apply_texts(self, c: Cached, texts: list[str], start: int) -> Cached:
        """Apply the store's log entries from index `start` (read_from(c)) on. If the entry this process holds as
        its last is missing or different there, the store is behind this copy or went another way: rebuild."""
        if c.length and (start != c.length - 1 or not texts or texts[0] != c.last_text):
            return self.rebuild(c, "behind" if len(texts) < c.length - start else "diverged")
        for text in texts[c.length - start :]:
            self._apply_text(c, text)
        return c

    def rebuild(self, c: Cached, why: str) -> Cached:
        """Forget this process's copy and replay the store's log from its first entry."""
        log.warning(
            "cached game out of step with the store: rebuilt from the store",
            extra={"fields": {"game": c.game_id, "why": why, "cached_length": c.length}},
        )
        if self.metrics:
            self.metrics.inc("fairdeal_cache_rebuilds_total", why=why)
        self._reset(c)
        try:
            for text in self.store.records(c.game_id, 0):
                self._apply_text(c, text)
        except BaseException:
            self._reset(c)  # never keep half a copy
            raise
        return c

    def _apply_text(self, c: Cached, text: str) -> None:
        try:
            self._apply_entry(c, json.loads(text))
        except (ValueError, KeyError, TypeError, RuntimeError, GameError) as e:
            raise UnreadableEntry(c.length, e) from e
        c.last_text = text
        self._grow(c, len(text))

    def _apply_entry(self, c: Cached, entry: dict) -> None:
        t = c.transcript
        if "commit" in entry:
            t.update(
                protocol=entry["commit"]["protocol"],
                commit=entry["commit"],
                commit_signature=entry["commit_signature"],
                records=[],
            )
            c.last_at = parse_iso(entry["commit"]["created"])
        elif "seating" in entry:
            self._adopt_header(c, "seating", entry["seating"], entry["seating_signature"], c.length)
        elif "start" in entry:
            self._adopt_header(c, "start", entry["start"], entry["start_signature"], c.length)
        elif "end" in entry:
            self._chained(c, entry["end"])
            if self._is_blind(c):  # BLIND HOOK: the signed transcript carries the blind log
                t.update(self.blind.member(c.game_id))
            t["end"], t["signature"] = entry["end"], entry["signature"]
            c.last_at = parse_iso(entry["end"]["ended"])
        elif entry.get("type") == "move":
            live = c.live
            if live is None or entry["seq"] != live.seq + 1:
                raise RuntimeError(f"game {c.game_id}: log entry out of order")
            self._chained(c, entry)
            live.adopt(entry)
            self._note_move(c, entry)
        else:
            raise RuntimeError(f"game {c.game_id}: unknown log entry")
        c.length += 1

    @staticmethod
    def _chained(c: Cached, record: dict) -> None:
        """A record read from the store must carry the hash of the one before it (the store's own chain is
        broken otherwise: no process may build on it)."""
        if c.live is not None and record.get("prev") != c.live.last_hash:
            raise RuntimeError(f"game {c.game_id}: the stored log breaks its hash chain at seq {record.get('seq')}")

    def _adopt_header(self, c: Cached, name: str, record: dict, signature: str, index: int) -> None:
        """A seating or start record (log entry `index`), read back from the log or just appended here."""
        records = c.transcript.pop("records")  # members in the order of events, as the writer keeps them
        c.transcript[name], c.transcript[f"{name}_signature"] = record, signature
        c.transcript["records"] = records
        c.headers = index + 1  # the entries up to and including this one
        if name == "start" and self._is_blind(c):  # BLIND HOOK: the server does not hold the humans' hands
            c.live = blind_live_game(record, self._game_seed(c.game_id, record))
            c.last_at = c.last_human_at = parse_iso(record["started"])
        elif name == "start":
            c.live = LiveGame(record, self._game_seed(c.game_id, record))
            c.last_at = c.last_human_at = parse_iso(record["started"])
        else:
            c.last_at = parse_iso(record["seated"])

    def _note_move(self, c: Cached, record: dict, at: float | None = None) -> None:
        c.transcript["records"].append(record)
        if at is None:
            at = parse_iso(record["at"]) if "at" in record else self.now()
        c.last_at = at
        if record["by"] == "player":
            c.last_human_at = at

    def _is_blind(self, c: Cached) -> bool:
        """BLIND HOOK: whether the game is at a dealer-blind table (its table document says so)."""
        return is_blind(c.table if c.table is not None else self.store.get_doc("table", c.game_id)[0])

    def _server_seed(self, game_id: str) -> bytes:
        secret = self.store.get_secret(game_id)
        if secret is None:
            raise SecretMissing(
                f"game {game_id}: the server seed is missing from the store, so the game can be "
                "neither dealt nor ended (its end record reveals the seed)"
            )
        return bytes.fromhex(secret)

    def _game_seed(self, game_id: str, start: dict) -> bytes:
        return fairness.game_seed(
            self._server_seed(game_id), [s["client_seed"] for s in start["seats"]], start["protocol"]
        )

    def get(self, game_id: str) -> Cached:
        c = self.slot(game_id)
        with c.lock:
            return self.sync(c)

    # ----------------------------------------------------------------------------------- writing
    def _append(
        self,
        c: Cached,
        entry: dict,
        idem_key: str | None = None,
        bhash: str | None = None,
        idem_scope: str = "",
        leaf: dict | None = None,
    ):
        """Compare-and-append at the cached length. The cache is changed only after a successful append, so on
        a lost race it just catches up with what the other writer recorded. With `leaf`: the transparency log's
        leaf is written in the same atomic write. Either way the store's last entry must be the one this copy
        holds (its digest): a store that lost writes is never appended to from a copy ahead of it."""
        text = entry_text(entry)
        last = None if c.last_text is None else entry_digest(c.last_text)
        if leaf is not None:
            res = self.store.append_with_leaf(
                c.game_id, c.length, text, self.now(), leaf["type"], leaf_text(leaf), last
            )
        else:
            res = self.store.append(c.game_id, c.length, text, self.now(), idem_key, bhash, idem_scope, last)
        if res.status == OK:
            c.length += 1
            c.last_text = text
            self._grow(c, len(text))
            if self.metrics:
                self.metrics.inc("fairdeal_log_appends_total")
        else:
            self.sync(c)
            if self.metrics and res.status == CONFLICT:
                self.metrics.inc("fairdeal_append_conflicts_total")
        return res

    def append_commit(self, game_id: str, rules_json: dict) -> dict:
        """Draw the secret seed, store it apart, publish the signed commitment as entry 0. The seed is stored
        only if the game has none (never replacing the seed of a game already committed under this id), and
        before the commitment, so that no committed game lacks its seed; a seed whose commit was never appended
        binds nothing and is never revealed."""
        seed = fairness.new_server_seed()
        if not self.store.put_secret(game_id, seed.hex()):
            raise RuntimeError("a new game id was already in use")
        key = self.keyring.current_key
        commit = writer.make_commit(
            game_id,
            rules_json,
            fairness.commitment(seed, game_id, rules_json),
            key,
            iso(self.now()),
            deal_layout=rules_from_json(rules_json).deal_layout,
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

    def _append_header(self, c: Cached, name: str, record: dict) -> None:
        sig = writer.sign_record(self.keyring.private_for(record["key"]), record)
        index = c.length
        if self._append(c, {name: record, f"{name}_signature": sig}).status == OK:
            self._adopt_header(c, name, record, sig, index)

    def ensure_seated(self, c: Cached, table: dict) -> None:
        """fairdeal/2: write the signed seating record from the table document once the host has started the
        table (deterministic, so racing writers agree)."""
        if (
            c.protocol == "fairdeal/1"
            or c.seated
            or c.ended
            or c.length != 1
            or table["status"] not in ("revealing", "playing")
        ):
            return
        seats = [
            writer.seating_seat(i, s["name"], s["bot"], s.get("client_seed_commitment"))
            for i, s in enumerate(table["seats"])
        ]
        self._append_header(
            c,
            "seating",
            writer.make_seating(c.transcript["commit"], seats, table.get("reveal_deadline"), table["seated"]),
        )

    def ensure_started(self, c: Cached, table: dict) -> None:
        """Write the signed start record from the table document once every committed seat has revealed
        (deterministic, so racing writers agree)."""
        if c.started or c.ended or table["status"] != "playing":
            return
        commit = c.transcript["commit"]
        if commit["protocol"] == "fairdeal/1":  # a table opened before the upgrade: its seeds are in clear
            if c.length != 1:
                return
            seats = [
                writer.make_seat(i, s["name"], s["bot"], s.get("client_seed")) for i, s in enumerate(table["seats"])
            ]
            self._append_header(c, "start", writer.make_start(commit, seats, table["clocks"], table["started"]))
            return
        self.ensure_seated(c, table)
        if not c.seated or c.length != 2:
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
            c, "start", writer.make_start(commit, seats, table["clocks"], table["started"], c.transcript["seating"])
        )

    def _append_move(
        self,
        c: Cached,
        seat: int,
        move: Move,
        by: str,
        idem_key: str | None = None,
        bhash: str | None = None,
        idem_scope: str = "",
    ):
        # the record LiveGame.apply would make, built before the state changes: the state is changed only
        # once the record is in the log
        live = c.live
        if by != "player":  # a policy's choice is checked like a player's: a wrong one never reaches the log
            reason = live.state.why_not(seat, move)
            if reason is not None:
                raise RuntimeError(f"game {c.game_id}: the {by} policy chose {move}, which is illegal: {reason}")
        now = self.now()
        record = live.next_record(seat, move, by, iso(now))
        res = self._append(c, record, idem_key, bhash, idem_scope)
        if res.status == OK:
            try:
                live.adopt(record)
            except Exception:
                self._reset(c)  # cannot happen for a checked move; if it does, rebuild from the log
                self.sync(c)
                raise
            self._note_move(c, record, math.floor(now * 1000) / 1000)  # the time as the record writes it
            if self.metrics:
                self.metrics.inc("fairdeal_moves_total", by=by)
        return res, record

    def finish(self, c: Cached, reason: str, table: dict | None = None) -> None:
        """Append the end record revealing the seed, and the signature over the whole transcript. A table that
        ends between its seating and its start names the reveals it received (from the table document)."""
        if c.ended:
            return
        seed = self._server_seed(c.game_id)
        result = None
        if c.live is not None and c.live.state.is_over:
            result = c.live.state.result
        t = json.loads(json.dumps(c.transcript))
        blind_member = self.blind.member(c.game_id) if self._is_blind(c) else {}  # BLIND HOOK
        t.update(blind_member)
        extra: dict[str, Any] = {}
        if t["protocol"] != "fairdeal/1":
            extra["deals"] = [(d[0], d[1]) for d in c.live.state.deals] if c.live is not None else []
            if c.seated and not c.started:
                extra["reveals"] = [
                    {"seat": i, "client_seed": s["client_seed"], "nonce": s["nonce"]}
                    for i, s in enumerate((table or c.table or {}).get("seats", ()))
                    if s.get("revealed")
                ]
        writer.finish(self.keyring.private_for(t["commit"]["key"]), t, reason, seed, result, iso(self.now()), **extra)
        res = self._append(
            c,
            {"end": t["end"], "signature": t["signature"]},
            leaf=tlog.ending_leaf(t) if self.config.transparency_log else None,
        )
        if res.status == OK:
            c.transcript.update(blind_member)  # BLIND HOOK
            c.transcript["end"], c.transcript["signature"] = t["end"], t["signature"]
            # said once: here, by the process whose append of the end won, not by each process that sees it
            log.info("game ended", extra={"fields": {"game": c.game_id, "reason": reason, "seq": c.seq}})
            if self.metrics:
                self.metrics.inc("fairdeal_games_ended_total", reason=reason)

    # ----------------------------------------------------------------------------------- clocks
    def decision_kind(self, c: Cached) -> str | None:
        live = c.live
        if live is None:
            return None
        if c.kind_at[0] != live.seq:
            to_move = None if live.state.is_over else live.state.to_move
            kind = None if to_move is None else ("card" if any(m.kind == "play" for m in c.legal(to_move)) else "other")
            c.kind_at = (live.seq, kind)
        return c.kind_at[1]

    def deadline(self, c: Cached, table: dict) -> float | None:
        """When the seat to move runs out of time (None: no clock). A seat whose player left has no time; a
        decision without a clock (the table's clock for its kind is off) has no timeout move at all: abandon_at
        ends the game if that seat's player left."""
        kind = self.decision_kind(c)
        if kind is None:
            return None
        seat = c.live.state.to_move
        if seat in c.live.bot_seats:
            return c.last_at  # due at once (a bot moves as soon as it is its turn)
        secs = endings.clock_seconds(c.live, table, kind)
        if secs is None:
            return None
        return c.last_at if table["seats"][seat].get("gone") else c.last_at + secs

    def abandon_at(self, c: Cached, table: dict) -> float | None:
        return endings.abandon_at(c, table, self.config.abandon_after, self.decision_kind(c))

    def reveal_due(self, table: dict) -> float | None:
        """When a table waiting for its reveals is cancelled for the seats that did not reveal."""
        deadline = table.get("reveal_deadline")
        return parse_iso(deadline) if table["status"] == "revealing" and deadline else None

    # ---------------------------------------------------------------------------------- advance
    def advance(self, c: Cached, table: dict) -> None:
        """Run whatever is due now: seating and start records, a reveal deadline, bot moves, timeout moves,
        abandonment, the end."""
        if table["status"] == "revealing":
            self.ensure_seated(c, table)
            due = self.reveal_due(table)
            if not c.ended and due is not None and due <= self.now():
                self.finish(c, "not-revealed", table)
            self.schedule(c, table)
            return
        if c.length == 0:  # the table is there, its log is not: nothing is written over lost records
            raise self.lost.refusal(c.game_id, table, "no-commit", 0)
        if table["status"] == "playing" and not c.started:
            self.ensure_started(c, table)
        if is_blind(table):  # BLIND HOOK: a blind table's steps, moves, aborts and end (fairdeal/service/blind/)
            self.blind.advance(self, c, table)
            self.schedule(c, table)
            return
        for _ in range(MAX_STEPS):
            if c.ended or c.live is None:
                break
            state = c.live.state
            if state.is_over:
                self.finish(c, "finished")
                continue
            now = self.now()
            seat = state.to_move
            stand_in = seat not in c.live.bot_seats and standin.stands_in(
                c, table, seat, now, self.config.standin_after
            )
            reason = endings.cut_short(c, table, self.config, self.decision_kind(c), now)  # before bots move too
            if reason == "abandoned" and stand_in:
                reason = None  # the seat to move is away and another player is here: the bot stands in instead
            if reason is not None:
                self.finish(c, reason)
                continue
            if seat in c.live.bot_seats:
                self._append_move(c, seat, c.live.bot_move(seat), "bot")
                continue
            if stand_in:  # the player is away
                self._append_move(c, seat, c.live.bot_move(seat), "stand-in")
                continue
            due = self.deadline(c, table)
            if due is not None and due <= now:
                self._append_move(c, seat, c.live.timeout_move(seat), "timeout")
                continue
            break
        self.schedule(c, table)

    def next_check(self, c: Cached, table: dict) -> float | None:
        if c.ended:
            return None
        if c.live is None:
            return self.reveal_due(table)
        if is_blind(table):  # BLIND HOOK
            return self.blind.next_check(self, c, table)
        due, abandon = self.deadline(c, table), self.abandon_at(c, table)
        if abandon is not None:
            # the silence limit moves with every human move: schedule it coarsely (rounded up to a twentieth
            # of the limit) so that most moves need no index write
            step = max(0.01, self.config.abandon_after / 20)
            abandon = -(-abandon // step) * step
        times = [t for t in (due, abandon, standin.next_at(c, table, self.config.standin_after)) if t is not None]
        return min(times) if times else None

    def schedule(self, c: Cached, table: dict) -> None:
        """Keep the sweeper's index (game -> next time something is due) current."""
        when = self.next_check(c, table)
        key = None if when is None else round(when, 1)
        if key is not None and c.scheduled is None:  # replayed afresh (evicted): the index may hold it (a read
            stored = self.store.index_score("schedule", c.game_id)  # is cheaper than an fsynced write)
            c.scheduled = key if stored is not None and round(stored, 1) == key else None
        if key != c.scheduled:
            if key is None:
                self.store.index_remove("schedule", c.game_id)
            else:
                self.store.index_set("schedule", c.game_id, when)
            c.scheduled = key

    # ------------------------------------------------------------------------------------- moves
    def player_move(
        self,
        c: Cached,
        table: dict,
        seat: int,
        expected_seq: Any,
        move_json: Any,
        idem_key: str | None,
        player_id: str = "",
    ) -> dict:
        """A player's move: the sequence number, turn and legality; then bots follow. A retry (same
        Idempotency-Key and body, from the same player: a key belongs to whoever sent it) of a move already
        recorded gets the original answer: on the success path the append checks the key atomically, and a
        refusal first asks whether the request was such a retry."""
        bhash = body_hash({"seat": seat, "seq": expected_seq, "move": move_json}) if idem_key else None
        for _ in range(3):
            try:
                self.advance(c, table)
                move = self._check_move(c, seat, expected_seq, move_json)
            except ApiError:
                if idem_key:
                    probe = self.store.append(c.game_id, -1, "", self.now(), idem_key, bhash, player_id)
                    if probe.status in (DUPLICATE, KEY_REUSED):
                        return self._idempotent_answer(c, probe, seat)
                raise
            res, record = self._append_move(c, seat, move, "player", idem_key, bhash, player_id)
            if res.status in (DUPLICATE, KEY_REUSED):
                return self._idempotent_answer(c, res, seat)
            if res.status == OK:
                receipt = c.live.last_hash
                self.advance(c, table)
                return {"seq": record["seq"], "receipt": receipt, "replayed": False}
            # CONFLICT: this process was behind (or lost a race); it has caught up, so check the move again
        raise ApiError(409, "stale-sequence", "Another move was recorded first: look at the game again.", seq=c.seq)

    def _check_move(self, c: Cached, seat: int, expected_seq: Any, move_json: Any) -> Move:
        if c.ended:
            raise ApiError(409, "game-over", "This game has ended; no more moves are taken.")
        if c.live is None:
            raise ApiError(409, "not-started", "This table has not started yet.")
        if type(expected_seq) is not int:
            raise ApiError(400, "bad-request", "'seq' (the sequence number of the last move you saw) is an integer.")
        if expected_seq != c.live.seq:
            raise ApiError(
                409,
                "stale-sequence",
                f"The game is at move {c.live.seq}, not {expected_seq}: look at the game again "
                f"and send the move with seq {c.live.seq}.",
                seq=c.live.seq,
            )
        try:
            move = Move.from_json(move_json)
        except GameError as exc:
            member = stray_member(move_json)
            raise ApiError(400, exc.code, exc.message, **({"member": member} if member else {})) from None
        state = c.live.state
        if state.to_move != seat:
            raise ApiError(409, "not-your-turn", f"It is seat {state.to_move}'s turn, not seat {seat}'s.")
        if move not in c.legal(seat):
            reason = state.why_not(seat, move)
            if reason is not None:
                raise ApiError(422, "illegal-move", reason)
        return move

    def _idempotent_answer(self, c: Cached, res, seat: int) -> dict:
        if res.status == KEY_REUSED:
            raise ApiError(
                422,
                "idempotency-key-reused",
                "This Idempotency-Key was already used for a different move; use a new key.",
            )
        self.sync(c)
        index = res.seq - c.headers  # the log index of the original move
        records = c.transcript.get("records") or []
        record = records[index] if 0 <= index < len(records) else None
        if record is None or record["by"] != "player" or record["seat"] != seat:
            # the store lost the original move and that position was played again by another: no answer to replay
            raise ApiError(
                409,
                "stale-sequence",
                "The move sent under this Idempotency-Key is no longer in the "
                "game (the store lost it): look at the game again.",
                seq=c.seq,
            )
        return {"seq": record["seq"], "receipt": tr.record_hash(record), "replayed": True}
