"""The service's transparency log (docs/log.md): the tree over the store's leaves, signed tree heads, proofs.

The store keeps the leaves (written atomically with the records they record), the tree's stored hashes (written
with the leaves: fairdeal.core.storedhash) and the latest signed head. This process keeps nothing of the tree:
a root, a proof or a game's entries is one batched read of O(log n) stored hashes, so a process starts at once
and its memory does not grow with the log. Heads are signed by the sweeper's tick when the log has grown and the
last head is older than `log_head_seconds`, and on demand when a proof is asked for a leaf the latest head does
not cover.

A process checks the stored head against the stored hashes and leaves before it serves or signs anything (once,
at its first use of the log: O(log n) reads, `check_stored`), and again before each head it signs: a head whose
root the stored hashes no longer make, or a leaf that no longer hashes to its stored hash, means the store no
longer holds what was signed. The sweeper's round also reads SCRUB_PER_ROUND leaves again (round and round) and
compares each with its stored hash, so a leaf edited under a running process is found too. The process then signs
no head and serves no proof (problem `log-damaged`, 503), logs it once and sets `fairdeal_tlog_damaged`; the
leaves and the stored head are still served, so watchers see the damage for themselves (docs/operations.md, "The
transparency log is damaged").
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from typing import Any

from fairdeal.core import merkle, storedhash, tlog
from fairdeal.service.checkpoints import Checkpoints
from fairdeal.service.errors import ApiError
from fairdeal.service.isotime import iso, parse_iso

SCRUB_PER_ROUND = 1_000  # leaves the sweeper's round reads again and compares with their stored hashes (a few ms)
# a pass over the whole log starts at most this often (the service's clock): a log of a few thousand leaves was
# read again every second or two, which was most of an idle sweeper's CPU (0.3 to 0.8 % of a core: issue 25); a
# log past SCRUB_PER_ROUND x SCRUB_PASS_EVERY leaves is still read without a rest, SCRUB_PER_ROUND a round
SCRUB_PASS_EVERY = 60.0
log = logging.getLogger("fairdeal.translog")


class TransLog:
    def __init__(self, store, keyring, config, now: Callable[[], float], metrics=None):
        self.store, self.keyring, self.config, self.now, self.metrics = store, keyring, config, now, metrics
        self._filled = False
        self.damaged: str | None = None  # why this process signs no head and serves no proof, once found
        self._checked = False  # the stored head checked against the stored hashes (once a process)
        self._scrubbed = 0  # the next leaf the sweeper's rounds read again (scrub); 0: a pass is to start
        self._pass_at: float | None = None  # when the last pass started
        self.checkpoints = Checkpoints(self)

    # ------------------------------------------------------------------------------------ its own check
    def check_head(self) -> None:
        """The stored head against the stored hashes and its last leaf (check_stored): a mismatch means the store
        no longer holds the leaves the head signs. Raises ApiError 503 `log-damaged` then (and after)."""
        if self.damaged is None:
            problems = self.check_stored()
            if problems:
                self._damage("; ".join(problems))
            self._checked = True
        if self.damaged is not None:
            raise ApiError(
                503,
                "log-damaged",
                f"The transparency log is damaged: {self.damaged}. No head is signed "
                f"and no proof served until the operator restores the leaves.",
                "Transparency log damaged",
            )

    def _damage(self, why: str) -> None:
        self.damaged = why
        log.error("transparency log damaged: signing no head", extra={"fields": {"reason": why}})
        if self.metrics is not None:
            self.metrics.add("fairdeal_tlog_damaged", 1)

    def scrub(self, limit: int = SCRUB_PER_ROUND) -> None:
        """Read `limit` leaves of the signed log again, from where the last round stopped (round and round, a
        pass starting at most every SCRUB_PASS_EVERY seconds), and compare each with its stored hash: a leaf
        edited in the store is found within a few hours at most, and the process stops signing (it would
        otherwise sign new heads over leaves that are not the ones signed)."""
        if self.damaged is not None:
            return
        if self._scrubbed == 0 and self._pass_at is not None and self.now() - self._pass_at < SCRUB_PASS_EVERY:
            return  # resting between passes: this round reads nothing
        head = self.store.tlog_head()
        have = head["size"] if head is not None else 0
        if not have:
            return
        start = self._scrubbed if self._scrubbed < have else 0
        if start == 0:
            self._pass_at = self.now()
        stop = min(have, start + limit)
        texts = self.store.tlog_leaves(start, stop)
        if len(texts) < stop - start:
            self._damage(f"the store holds fewer leaves than the {stop} the signed head covers: leaves were lost")
            return
        stored = self.subtree_hashes([(0, i) for i in range(start, stop)])
        for i, (text, h) in enumerate(zip(texts, stored, strict=True), start=start):
            if merkle.leaf_hash(text.encode("utf-8")) != h:
                self._damage(
                    f"leaf {i} in the store does not hash to its stored hash, which signed heads cover: it was edited"
                )
                return
        self._scrubbed = stop if stop < have else 0  # the pass is over: the next one starts after the rest

    def _checked_once(self) -> None:
        if not self._checked or self.damaged is not None:
            self.check_head()

    # ------------------------------------------------------------------------------------ the tree
    def _read(self, indexes: Sequence[int]) -> list[bytes]:
        """The stored hashes at these indexes, one store round trip (storedhash's HashReader)."""
        if not self._filled:  # once a process: a log written before hashes were stored is filled (else a read)
            self.store.tlog_fill_hashes()
            self._filled = True
        return self.store.tlog_read_hashes(indexes)

    def root(self, size: int) -> bytes:
        return storedhash.tree_hash(size, self._read)

    def subtree_hashes(self, subtrees: Sequence[tuple[int, int]]) -> list[bytes]:
        """The hashes of complete subtrees (level, index) -- leaves [index * 2^level, (index + 1) * 2^level) --
        of the log as stored, in one read (what tiles are cut from). A subtree not complete yet: ValueError."""
        return self._read([storedhash.stored_hash_index(level, index) for level, index in subtrees])

    def tile_hashes(self, subtrees: Sequence[tuple[int, int]]) -> list[bytes]:
        """subtree_hashes for a tile (fairdeal.service.tiles): proof material, so none while the log is damaged."""
        self._checked_once()
        return self.subtree_hashes(subtrees)

    def leaf_texts(self, start: int, stop: int) -> list[str]:
        return self.store.tlog_leaves(start, stop)

    def check_stored(self) -> list[str]:
        """A start's cheap check (O(log n) reads): the stored head's root is the stored hashes' root of its size,
        and the last leaf it covers hashes to its stored hash. What it finds wrong (empty: nothing)."""
        head = self.store.tlog_head()
        if head is None or head["size"] == 0:
            return []
        n = head["size"]
        need = storedhash.root_indexes(n) + [storedhash.stored_hash_index(0, n - 1)]
        try:
            hashes = self._read(need)
        except ValueError as exc:
            return [f"the stored hashes do not cover the head of {n} leaves: {exc}"]
        problems = []
        if storedhash.root_from(n, hashes)[0].hex() != head["root"]:
            problems.append(f"the stored head of {n} leaves signs a root its stored hashes do not make")
        last = self.store.tlog_leaves(n - 1, n)
        if not last:
            problems.append(
                f"the signed head of size {n} covers more leaves than the store holds "
                f"({self.store.tlog_size()}): leaves were lost"
            )
        elif merkle.leaf_hash(last[0].encode("utf-8")) != hashes[-1]:
            problems.append(f"leaf {n - 1} is not the leaf whose hash is stored")
        return problems

    def _proofs(self, indexes: Sequence[int], size: int) -> tuple[list[list[bytes]], bytes]:
        """Inclusion proofs of these leaves in the tree of `size` leaves, and its root: one read for all."""
        need: list[int] = []
        for i in indexes:
            storedhash.inclusion_indexes(i, size, need)
        need.extend(storedhash.root_indexes(size))
        hashes = self._read(need)
        proofs, at = [], 0
        for i in indexes:
            proof, at = storedhash.inclusion_from(i, size, hashes, at)
            proofs.append(proof)
        return proofs, storedhash.root_from(size, hashes, at)[0]

    # ------------------------------------------------------------------------------------ heads
    def sign_head(self, size: int) -> dict:
        self.check_head()  # never sign over leaves the stored head says are not the ones signed before
        key = self.keyring.current_key
        head = tlog.sign_head(
            self.keyring.private_for(key), tlog.make_head(size, self.root(size), iso(self.now()), key)
        )
        if self.store.tlog_put_head(head):
            return head
        return self.store.tlog_head()  # another process stored a newer head first: that one is the latest

    def latest_head(self) -> dict:
        """The stored head (served even when the log is damaged: it is signed history, a watcher compares it
        with the leaves), or a first one."""
        head = self.store.tlog_head()
        if head is not None and not self._checked and self.damaged is None:
            try:
                self.check_head()
            except ApiError:
                pass
        return head if head is not None else self.sign_head(self.store.tlog_sequence())

    def tick(self) -> dict | None:
        """The sweeper's round: sequence the queued leaves; sign a head when the log grew and the last head is
        older than the interval. The head signed, or None."""
        size = self.store.tlog_sequence()
        try:
            self._checked_once()
            self.scrub()
            self._checked_once()
        except ApiError:
            return None  # said once when found; the leaves are still sequenced
        head = self.store.tlog_head()
        if head is None or (
            size > head["size"] and self.now() - parse_iso(head["time"]) >= self.config.log_head_seconds
        ):
            return self.sign_head(size)
        return None

    def head_covering(self, size: int) -> dict:
        """A signed head of at least `size` leaves (sequenced already): the latest, or a new one over the log as
        it is (the other games' queued leaves wait for the sweeper's round)."""
        head = self.store.tlog_head()
        if head is None or head["size"] < size:
            head = self.sign_head(self.store.tlog_size())
        return head

    # ------------------------------------------------------------------------------------ proofs
    def _head_of_size(self, size: Any, head: dict | None = None) -> dict:
        head = self.latest_head() if head is None else head  # one head read a request
        if type(size) is not int or not 0 <= size <= head["size"]:
            raise ApiError(
                422,
                "bad-tree-size",
                f"The latest signed tree head has {head['size']} leaves: a tree "
                f"size is a whole number from 0 to {head['size']}, not {size!r}.",
            )
        return head

    def inclusion(self, index: Any, size: Any = None) -> dict:
        self._checked_once()
        head = self.latest_head()
        if size is None and type(index) is int and head["size"] <= index < self.store.tlog_size():
            # a leaf sequenced since the latest head: a head covering it is signed now (docs/log.md)
            head = self.head_covering(index + 1)
        size = head["size"] if size is None else size
        self._head_of_size(size, head)
        if type(index) is not int or not 0 <= index < size:
            raise ApiError(
                404, "leaf-not-found", f"The tree of {size} leaves has no leaf {index!r} (leaves are numbered from 0)."
            )
        (proof,), root = self._proofs([index], size)
        leaf = json.loads(self.store.tlog_leaves(index, index + 1)[0])
        return {
            "index": index,
            "size": size,
            "leaf": leaf,
            "proof": tlog.proof_hex(proof),
            "head": head if size == head["size"] else None,
            "root": root.hex(),
        }

    def consistency(self, first: Any, second: Any) -> dict:
        self._checked_once()
        head = self._head_of_size(second)
        self._head_of_size(first, head)
        if first > second:
            raise ApiError(
                422,
                "bad-tree-size",
                f"A consistency proof goes from a smaller tree to a larger one; {first} is larger than {second}.",
            )
        need = storedhash.consistency_indexes(first, second)
        at_roots = len(need)
        need.extend(storedhash.root_indexes(first))
        need.extend(storedhash.root_indexes(second))
        hashes = self._read(need)
        proof, _ = storedhash.consistency_from(first, second, hashes)
        first_root, at = storedhash.root_from(first, hashes, at_roots)
        second_root, _ = storedhash.root_from(second, hashes, at)
        return {
            "first": first,
            "second": second,
            "first_root": first_root.hex(),
            "second_root": second_root.hex(),
            "proof": tlog.proof_hex(proof),
            "head": head if second == head["size"] else None,
        }

    def leaves(self, start: int, limit: int) -> dict:
        head = self.latest_head()
        stop = min(head["size"], start + limit)
        texts = self.store.tlog_leaves(start, stop) if start < stop else []
        nxt = start + len(texts) if start + len(texts) < head["size"] else None
        return {"start": start, "size": head["size"], "leaves": [json.loads(t) for t in texts], "next": nxt}

    def game_entries(self, game_id: str, ended: bool = True) -> dict:
        """The `log` member of a game's transcript or table: a head covering the game's leaves and, per leaf,
        its index and inclusion proof. `ended`: whether the game may have an ending leaf (a running game's
        table need not look for one)."""
        self._checked_once()
        indexes = self.store.tlog_game(game_id)
        if {"commitment", *(("ending",) if ended else ())} - set(indexes):
            # a leaf may still wait in the game's queue (Redis): sequence it now
            self.store.tlog_sequence(game_id)
            indexes = self.store.tlog_game(game_id)
        if not indexes:
            return {}
        head = self.head_covering(max(indexes.values()) + 1)
        kinds = sorted(indexes.items())
        proofs, _ = self._proofs([i for _, i in kinds], head["size"])
        # the head in both forms: fairdeal/2's JSON (which the browser page checks) and the C2SP checkpoint
        return {
            "head": head,
            "checkpoint": self.checkpoints.note_for(head),
            **{kind: {"index": i, "proof": tlog.proof_hex(p)} for (kind, i), p in zip(kinds, proofs, strict=True)},
        }


def add_log_member(
    translog: TransLog | None, out: dict, game_id: str, protocol: str | None, ended: bool = True
) -> dict:
    """`out` with the game's `log` member (its leaves' proofs) when the log is on and has the game: a fairdeal/1
    transcript has no log member, and a game older than the log has no leaf."""
    if translog is not None and protocol != "fairdeal/1" and translog.damaged is None:
        try:
            entries = translog.game_entries(game_id, ended)
        except ApiError as exc:
            if exc.code != "log-damaged":
                raise
            return out  # the game is still served; the log's damage is said once, in the log and metric
        if entries:
            out["log"] = entries
    return out
