"""The service's transparency log (docs/log.md): the tree over the store's leaves, signed tree heads, proofs.

The store keeps the leaves (written atomically with the records they record) and the latest signed head; this
process keeps the tree (fairdeal.verifier.merkle.Tree) over the leaves it has read, which never change, so it
reads only the new ones. Heads are signed by the sweeper's tick when the log has grown and the last head is older
than `log_head_seconds`, and on demand when a proof is asked for a leaf the latest head does not cover.

A process checks the stored head against the leaves before it serves or signs anything (once, when it first
builds its tree), and again before each head it signs: a head whose root the leaves no longer hash to means a
leaf was edited or lost in the store. The sweeper's round also reads SCRUB_PER_ROUND of the leaves it holds again
(round and round), so a leaf edited under a running process is found too. The process then signs no head and serves no proof (problem `log-damaged`,
503), logs it once and sets `fairdeal_tlog_damaged`; the leaves and the stored head are still served, so watchers
see the damage for themselves (docs/operations.md, "The transparency log is damaged").
"""
from __future__ import annotations

import json
import logging
import threading
from typing import Any, Callable

from fairdeal.verifier import merkle, tlog

from fairdeal.service.errors import ApiError
from fairdeal.service.games import iso, parse_iso

READ_PAGE = 10_000   # leaves read from the store at a time
SCRUB_PER_ROUND = 1_000   # leaves the sweeper's round reads again and compares with its tree (a few ms)
log = logging.getLogger("fairdeal.translog")


class TransLog:
    def __init__(self, store, keyring, config, now: Callable[[], float], metrics=None):
        self.store, self.keyring, self.config, self.now, self.metrics = store, keyring, config, now, metrics
        self.tree = merkle.Tree()
        self._lock = threading.Lock()
        self.damaged: str | None = None     # why this process signs no head and serves no proof, once found
        self._checked = False               # the stored head checked against the leaves (once a process)
        self._scrubbed = 0                  # the next leaf the sweeper's rounds read again (scrub)

    # ------------------------------------------------------------------------------------ its own check
    def check_head(self, head: dict | None = None) -> None:
        """The stored head's root against the leaves this process holds (read from the store): a mismatch means
        the store no longer holds the leaves the head signs. Raises ApiError 503 `log-damaged` then (and after)."""
        if self.damaged is None:
            head = self.store.tlog_head() if head is None else head
            if head is not None:
                try:
                    root = self._sync(head["size"]).root(head["size"]).hex()
                except RuntimeError:
                    root = None
                if root is None:
                    self._damage(f"the signed head of size {head['size']} covers more leaves than the store holds "
                                 f"({self.store.tlog_size()}): leaves were lost")
                elif root != head["root"]:
                    self._damage(f"the signed head of size {head['size']} has root {head['root']}, but the "
                                 f"store's first {head['size']} leaves hash to {root}: a leaf was edited or lost")
            self._checked = True
        if self.damaged is not None:
            raise ApiError(503, "log-damaged", f"The transparency log is damaged: {self.damaged}. No head is signed "
                                               f"and no proof served until the operator restores the leaves.",
                           "Transparency log damaged")

    def _damage(self, why: str) -> None:
        self.damaged = why
        log.error("transparency log damaged: signing no head", extra={"fields": {"reason": why}})
        if self.metrics is not None:
            self.metrics.add("fairdeal_tlog_damaged", 1)

    def scrub(self, limit: int = SCRUB_PER_ROUND) -> None:
        """Read `limit` of the leaves this process holds again, from where the last round stopped (round and
        round): a leaf edited in the store since this process read it is found within a few hours at most, and
        the process stops signing (a running process would otherwise sign new heads over its own old copy)."""
        have = len(self.tree)
        if self.damaged is not None or not have:
            return
        start = self._scrubbed if self._scrubbed < have else 0
        stop = min(have, start + limit)
        texts = self.store.tlog_leaves(start, stop)
        for i, text in enumerate(texts, start=start):
            if merkle.leaf_hash(text.encode("utf-8")) != self.tree.leaves[i]:
                self._damage(f"leaf {i} in the store is not the leaf this process read and signed heads over: "
                             f"it was edited")
                return
        if len(texts) < stop - start:
            self._damage(f"the store holds fewer leaves than the {stop} this process read: leaves were lost")
            return
        self._scrubbed = stop

    def _checked_once(self) -> None:
        if not self._checked or self.damaged is not None:
            self.check_head()

    # ------------------------------------------------------------------------------------ the tree
    def _sync(self, size: int) -> merkle.Tree:
        """This process's tree holding at least `size` leaves (read from the store)."""
        with self._lock:
            while len(self.tree) < size:   # in pages: a process's first read of a long log is not one reply
                have = len(self.tree)
                texts = self.store.tlog_leaves(have, min(size, have + READ_PAGE))
                if not texts:
                    raise RuntimeError("the transparency log has fewer leaves than its size")
                self.tree.extend(merkle.leaf_hash(t.encode("utf-8")) for t in texts)
            return self.tree

    # ------------------------------------------------------------------------------------ heads
    def sign_head(self, size: int) -> dict:
        self.check_head()      # never sign over leaves the stored head says are not the ones signed before
        tree = self._sync(size)
        key = self.keyring.current_key
        head = tlog.sign_head(self.keyring.private_for(key), tlog.make_head(size, tree.root(size),
                                                                            iso(self.now()), key))
        if self.store.tlog_put_head(head):
            return head
        return self.store.tlog_head()   # another process stored a newer head first: that one is the latest

    def latest_head(self) -> dict:
        """The stored head (served even when the log is damaged: it is signed history, a watcher compares it
        with the leaves), or a first one."""
        head = self.store.tlog_head()
        if head is not None and not self._checked and self.damaged is None:
            try:
                self.check_head(head)
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
            return None        # said once when found; the leaves are still sequenced
        head = self.store.tlog_head()
        if head is None or (size > head["size"] and
                            self.now() - parse_iso(head["time"]) >= self.config.log_head_seconds):
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
    def _head_of_size(self, size: Any) -> dict:
        head = self.latest_head()
        if type(size) is not int or not 0 <= size <= head["size"]:
            raise ApiError(422, "bad-tree-size", f"The latest signed tree head has {head['size']} leaves: a tree "
                                                 f"size is a whole number from 0 to {head['size']}, not {size!r}.")
        return head

    def inclusion(self, index: Any, size: Any = None) -> dict:
        self._checked_once()
        head = self.latest_head()
        if size is None and type(index) is int and head["size"] <= index < self.store.tlog_size():
            # a leaf sequenced since the latest head: a head covering it is signed now (docs/log.md)
            head = self.head_covering(index + 1)
        size = head["size"] if size is None else size
        self._head_of_size(size)
        if type(index) is not int or not 0 <= index < size:
            raise ApiError(404, "leaf-not-found", f"The tree of {size} leaves has no leaf {index!r} (leaves are "
                                                  f"numbered from 0).")
        tree = self._sync(size)
        leaf = json.loads(self.store.tlog_leaves(index, index + 1)[0])
        return {"index": index, "size": size, "leaf": leaf,
                "proof": tlog.proof_hex(tree.inclusion_proof(index, size)),
                "head": head if size == head["size"] else None, "root": tree.root(size).hex()}

    def consistency(self, first: Any, second: Any) -> dict:
        self._checked_once()
        head = self._head_of_size(second)
        self._head_of_size(first)
        if first > second:
            raise ApiError(422, "bad-tree-size", f"A consistency proof goes from a smaller tree to a larger one; "
                                                 f"{first} is larger than {second}.")
        tree = self._sync(second)
        return {"first": first, "second": second, "first_root": tree.root(first).hex(),
                "second_root": tree.root(second).hex(),
                "proof": tlog.proof_hex(tree.consistency_proof(first, second)),
                "head": head if second == head["size"] else None}

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
        tree = self._sync(head["size"])
        return {"head": head, **{kind: {"index": i, "proof": tlog.proof_hex(tree.inclusion_proof(i, head["size"]))}
                                 for kind, i in sorted(indexes.items())}}


def add_log_member(translog: "TransLog | None", out: dict, game_id: str, protocol: str | None,
                   ended: bool = True) -> dict:
    """`out` with the game's `log` member (its leaves' proofs) when the log is on and has the game: a fairdeal/1
    transcript has no log member, and a game older than the log has no leaf."""
    if translog is not None and protocol != "fairdeal/1" and translog.damaged is None:
        try:
            entries = translog.game_entries(game_id, ended)
        except ApiError as exc:
            if exc.code != "log-damaged":
                raise
            return out     # the game is still served; the log's damage is said once, in the log and metric
        if entries:
            out["log"] = entries
    return out
