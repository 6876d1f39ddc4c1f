"""A compact range (as in transparency-dev/merkle's `compact` package): the tree of the first n leaves of an
RFC 9162 log held as the hashes of its maximal complete subtrees, left to right (one per set bit of n, so at most
log2(n) + 1 of them). Enough to append leaves and to compute the root, without the leaves: what a watcher keeps
between runs, so that a run costs only the leaves new since the last one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from fairdeal.core.merkle import EMPTY_ROOT, node_hash


@dataclass
class CompactRange:
    size: int = 0
    hashes: list[bytes] = field(default_factory=list)  # the subtrees of [0, size), largest (leftmost) first

    def __post_init__(self) -> None:
        if (
            type(self.size) is not int
            or self.size < 0
            or len(self.hashes) != bin(self.size).count("1")
            or any(not isinstance(h, bytes) or len(h) != 32 for h in self.hashes)
        ):
            raise ValueError(f"a compact range of {self.size!r} leaves has one 32-byte hash per set bit of its size")

    def append(self, leaf_hash: bytes) -> None:
        h, n = leaf_hash, self.size
        while n & 1:  # each trailing one of the size is a subtree of the same height to merge with
            h = node_hash(self.hashes.pop(), h)
            n >>= 1
        self.hashes.append(h)
        self.size += 1

    def extend(self, leaf_hashes: Iterable[bytes]) -> None:
        for h in leaf_hashes:
            self.append(h)

    def root(self) -> bytes:
        if not self.hashes:
            return EMPTY_ROOT
        h = self.hashes[-1]
        for left in reversed(self.hashes[:-1]):
            h = node_hash(left, h)
        return h

    def copy(self) -> CompactRange:
        return CompactRange(self.size, list(self.hashes))

    def to_json(self) -> dict[str, Any]:
        return {"size": self.size, "hashes": [h.hex() for h in self.hashes]}

    @classmethod
    def from_json(cls, obj: Any) -> CompactRange:
        if not isinstance(obj, dict) or not isinstance(obj.get("hashes"), list):
            raise ValueError('a compact range is {"size": n, "hashes": [hex, ...]}')
        try:
            hashes = [bytes.fromhex(h) for h in obj["hashes"]]
        except (TypeError, ValueError):
            raise ValueError("a compact range's hashes are hex") from None
        return cls(obj.get("size"), hashes)  # type: ignore[arg-type]  # __init__ refuses a size not an int
