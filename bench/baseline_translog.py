# The implementation before stored hashes and compact ranges (commit 8cc9849), kept verbatim as
# bench_logscale.py's baseline: the old in-memory tree (every leaf hashed into every process) / watcher.
"""The service's transparency log (docs/log.md): the tree over the store's leaves, signed tree heads, proofs.

The store keeps the leaves (written atomically with the records they record) and the latest signed head; this
process keeps the tree (fairdeal.core.merkle.Tree) over the leaves it has read, which never change, so it
reads only the new ones. Heads are signed by the sweeper's tick when the log has grown and the last head is older
than `log_head_seconds`, and on demand when a proof is asked for a leaf the latest head does not cover.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any

from fairdeal.core import merkle, tlog
from fairdeal.service.errors import ApiError
from fairdeal.service.isotime import iso, parse_iso

READ_PAGE = 10_000  # leaves read from the store at a time


class TransLog:
    def __init__(self, store, keyring, config, now: Callable[[], float]):
        self.store, self.keyring, self.config, self.now = store, keyring, config, now
        self.tree = merkle.Tree()
        self._lock = threading.Lock()

    # ------------------------------------------------------------------------------------ the tree
    def _sync(self, size: int) -> merkle.Tree:
        """This process's tree holding at least `size` leaves (read from the store)."""
        with self._lock:
            while len(self.tree) < size:  # in pages: a process's first read of a long log is not one reply
                have = len(self.tree)
                texts = self.store.tlog_leaves(have, min(size, have + READ_PAGE))
                if not texts:
                    raise RuntimeError("the transparency log has fewer leaves than its size")
                self.tree.extend(merkle.leaf_hash(t.encode("utf-8")) for t in texts)
            return self.tree

    # ------------------------------------------------------------------------------------ heads
    def sign_head(self, size: int) -> dict:
        tree = self._sync(size)
        key = self.keyring.current_key
        head = tlog.sign_head(
            self.keyring.private_for(key), tlog.make_head(size, tree.root(size), iso(self.now()), key)
        )
        if self.store.tlog_put_head(head):
            return head
        return self.store.tlog_head()  # another process stored a newer head first: that one is the latest

    def latest_head(self) -> dict:
        head = self.store.tlog_head()
        return head if head is not None else self.sign_head(self.store.tlog_sequence())

    def tick(self) -> dict | None:
        """The sweeper's round: sequence the queued leaves; sign a head when the log grew and the last head is
        older than the interval. The head signed, or None."""
        size = self.store.tlog_sequence()
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
    def _head_of_size(self, size: Any) -> dict:
        head = self.latest_head()
        if type(size) is not int or not 0 <= size <= head["size"]:
            raise ApiError(
                422,
                "bad-tree-size",
                f"The latest signed tree head has {head['size']} leaves: a tree "
                f"size is a whole number from 0 to {head['size']}, not {size!r}.",
            )
        return head

    def inclusion(self, index: Any, size: Any = None) -> dict:
        head = self.latest_head()
        size = head["size"] if size is None else size
        self._head_of_size(size)
        if type(index) is not int or not 0 <= index < size:
            raise ApiError(
                404, "leaf-not-found", f"The tree of {size} leaves has no leaf {index!r} (leaves are numbered from 0)."
            )
        tree = self._sync(size)
        leaf = json.loads(self.store.tlog_leaves(index, index + 1)[0])
        return {
            "index": index,
            "size": size,
            "leaf": leaf,
            "proof": tlog.proof_hex(tree.inclusion_proof(index, size)),
            "head": head if size == head["size"] else None,
            "root": tree.root(size).hex(),
        }

    def consistency(self, first: Any, second: Any) -> dict:
        head = self._head_of_size(second)
        self._head_of_size(first)
        if first > second:
            raise ApiError(
                422,
                "bad-tree-size",
                f"A consistency proof goes from a smaller tree to a larger one; {first} is larger than {second}.",
            )
        tree = self._sync(second)
        return {
            "first": first,
            "second": second,
            "first_root": tree.root(first).hex(),
            "second_root": tree.root(second).hex(),
            "proof": tlog.proof_hex(tree.consistency_proof(first, second)),
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
        indexes = self.store.tlog_game(game_id)
        if {"commitment", *(("ending",) if ended else ())} - set(indexes):
            # a leaf may still wait in the game's queue (Redis): sequence it now
            self.store.tlog_sequence(game_id)
            indexes = self.store.tlog_game(game_id)
        if not indexes:
            return {}
        head = self.head_covering(max(indexes.values()) + 1)
        tree = self._sync(head["size"])
        return {
            "head": head,
            **{
                kind: {"index": i, "proof": tlog.proof_hex(tree.inclusion_proof(i, head["size"]))}
                for kind, i in sorted(indexes.items())
            },
        }


def add_log_member(
    translog: TransLog | None, out: dict, game_id: str, protocol: str | None, ended: bool = True
) -> dict:
    """`out` with the game's `log` member (its leaves' proofs) when the log is on and has the game: a fairdeal/1
    transcript has no log member, and a game older than the log has no leaf."""
    if translog is not None and protocol != "fairdeal/1":
        entries = translog.game_entries(game_id, ended)
        if entries:
            out["log"] = entries
    return out
