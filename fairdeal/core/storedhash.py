"""The RFC 9162 tree kept as **stored hashes**: the model of Go's golang.org/x/mod/sumdb/tlog, ported (pure, stdlib).

Each complete, aligned subtree's hash (level L, index i: the hash of leaves [i * 2^L, (i + 1) * 2^L)) is stored
once, when its last leaf is appended, at the position `stored_hash_index(L, i)`; positions are dense, in the
order hashes are completed (leaf 0; leaf 1, then level 1's hash 0; leaf 2; leaf 3, level 1's 1, level 2's 0;
...), so a log of n leaves has `stored_hash_count(n)` = 2n - popcount(n) of them and the next append writes at the
end. Appending a leaf, a root, an inclusion proof or a consistency proof reads O(log n) stored hashes, and every
function below asks for them **all at once**: `read(indexes) -> hashes` (Go's HashReader.ReadHashes), one batched
store round trip. The tree and the proofs are RFC 9162's exactly (fairdeal.core.merkle is the reference the
tests hold this module to); only the empty tree differs from Go's, whose root is 32 zero bytes: here it is
SHA-256(""), as RFC 9162 says.

Why a port rather than a library: the algorithms are fifty lines over a store of our own (Redis, SQLite), and the
PyPI Merkle-tree packages keep the leaves in memory, which is what this module exists to avoid.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from fairdeal.core.merkle import EMPTY_ROOT, node_hash

HashReader = Callable[[Sequence[int]], Sequence[bytes]]  # stored-hash indexes -> their 32-byte hashes, in order


def stored_hash_index(level: int, n: int) -> int:
    """Where the hash of the complete subtree (level, n) is stored: leaves [n * 2^level, (n + 1) * 2^level)."""
    # level L's n-th hash is written right after level L-1's (2n+1)-th; level 0's n-th at n + n/2 + n/4 + ...
    m = ((n + 1) << level) - 1
    return 2 * m - bin(m).count("1") + level


def split_stored_hash_index(index: int) -> tuple[int, int]:
    """The (level, n) stored at `index` (the inverse of stored_hash_index)."""
    n = index // 2  # stored_hash_index(0, n) <= 2n: the leaf sought is in [index / 2, index / 2 + log2]
    at = stored_hash_index(0, n)
    while True:
        nxt = at + 1 + _trailing_zeros(n + 1)  # leaf n stores 1 + trailing_zeros(n + 1) hashes
        if nxt > index:
            break
        n, at = n + 1, nxt
    level = index - at
    return level, n >> level


def stored_hash_count(n: int) -> int:
    """How many hashes a log of n leaves has stored: 2n - popcount(n)."""
    return 2 * n - bin(n).count("1")


def leaves_of_count(count: int) -> int:
    """The size of the log that has stored exactly `count` hashes, or the largest one with fewer."""
    lo, hi = 0, count
    while lo < hi:  # stored_hash_count grows with n: the largest n with stored_hash_count(n) <= count
        mid = (lo + hi + 1) // 2
        if stored_hash_count(mid) <= count:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _trailing_zeros(x: int) -> int:
    return (x & -x).bit_length() - 1


def _maxpow2(n: int) -> tuple[int, int]:
    """The largest power of two smaller than n, and its log2."""
    level = (n - 1).bit_length() - 1
    return 1 << level, level


# ------------------------------------------------------------------------------------------------ appending


def append_indexes(n: int) -> list[int]:
    """The stored hashes appending leaf n reads: the left siblings of the subtrees it completes, in order."""
    m = _trailing_zeros(n + 1)
    return [stored_hash_index(i, (n >> i) - 1) for i in reversed(range(m))]


def hashes_for_append(n: int, leaf: bytes, read: HashReader) -> list[bytes]:
    """The hashes to store when leaf n (hash `leaf`) is appended to a log of n leaves: the leaf's own and those of
    the subtrees it completes, in stored order (they go at stored_hash_count(n) onwards)."""
    old = list(read(append_indexes(n))) if n & 1 else []
    out, h = [leaf], leaf
    for sibling in reversed(old):
        h = node_hash(sibling, h)
        out.append(h)
    return out


class Appender:
    """Hashes for a run of appends after n leaves: reads the right edge of the tree once (one batched read) and
    keeps only the right edge (O(log n) hashes) after that, every later sibling being one it made itself.
    `hashes` are the new stored hashes, from stored_hash_count(start) (a bulk writer may take them as it goes)."""

    def __init__(self, n: int, read: HashReader):
        self.start = self.n = n
        edge = subtree_indexes(0, n)
        self._edge = (
            dict(zip(edge, read(edge), strict=True)) if edge else {}
        )  # stored index -> hash of each edge subtree
        self.hashes: list[bytes] = []

    def _take(self, indexes: Sequence[int]) -> list[bytes]:
        return [self._edge.pop(i) for i in indexes]  # merged into the new subtree: off the edge

    def append(self, leaf: bytes) -> None:
        new = hashes_for_append(self.n, leaf, self._take)
        self._edge[stored_hash_count(self.n) + len(new) - 1] = new[-1]  # the subtree the leaf completes
        self.hashes += new
        self.n += 1


# ------------------------------------------------------------------------------------------------ reading


def subtree_indexes(lo: int, hi: int, need: list[int] | None = None) -> list[int]:
    """The stored hashes that make up the hash of leaves [lo, hi): its maximal complete subtrees, left first."""
    need = [] if need is None else need
    while lo < hi:
        k, level = _maxpow2(hi - lo + 1)
        need.append(stored_hash_index(level, lo >> level))
        lo += k
    return need


def _subtree_hash(lo: int, hi: int, hashes: list[bytes], at: int) -> tuple[bytes, int]:
    """MTH(D[lo:hi]) from the hashes subtree_indexes(lo, hi) named, found at hashes[at:]; and the next `at`."""
    count = 0
    while lo < hi:
        k, _ = _maxpow2(hi - lo + 1)
        count += 1
        lo += k
    h = hashes[at + count - 1]
    for i in range(at + count - 2, at - 1, -1):
        h = node_hash(hashes[i], h)
    return h, at + count


def _checked(read: HashReader, indexes: list[int]) -> list[bytes]:
    got = list(read(indexes)) if indexes else []
    if len(got) != len(indexes) or any(not isinstance(h, (bytes, bytearray)) or len(h) != 32 for h in got):
        raise ValueError("the store did not give back every stored hash asked for")
    return got


def root_indexes(n: int) -> list[int]:
    return subtree_indexes(0, n)


def root_from(n: int, hashes: list[bytes], at: int = 0) -> tuple[bytes, int]:
    return (EMPTY_ROOT, at) if n == 0 else _subtree_hash(0, n, hashes, at)


def tree_hash(n: int, read: HashReader) -> bytes:
    """MTH of the first n leaves."""
    return root_from(n, _checked(read, root_indexes(n)))[0]


def inclusion_indexes(index: int, size: int, need: list[int] | None = None) -> list[int]:
    if not 0 <= index < size:
        raise ValueError(f"leaf {index} is not in a tree of {size} leaves")
    need = [] if need is None else need
    lo, hi, path = 0, size, []
    while hi - lo > 1:  # walk down toward the leaf; each side not taken is one subtree hash
        k, _ = _maxpow2(hi - lo)
        if index < lo + k:
            path.append((lo + k, hi))
            hi = lo + k
        else:
            path.append((lo, lo + k))
            lo += k
    for a, b in reversed(path):  # RFC 9162 order: the hash nearest the leaf first
        subtree_indexes(a, b, need)
    return need


def inclusion_from(index: int, size: int, hashes: list[bytes], at: int = 0) -> tuple[list[bytes], int]:
    lo, hi, path = 0, size, []
    while hi - lo > 1:
        k, _ = _maxpow2(hi - lo)
        if index < lo + k:
            path.append((lo + k, hi))
            hi = lo + k
        else:
            path.append((lo, lo + k))
            lo += k
    proof = []
    for a, b in reversed(path):
        h, at = _subtree_hash(a, b, hashes, at)
        proof.append(h)
    return proof, at


def inclusion_proof(index: int, size: int, read: HashReader) -> list[bytes]:
    """PATH(index, D[size]) of RFC 9162 2.1.3.1."""
    return inclusion_from(index, size, _checked(read, inclusion_indexes(index, size)))[0]


def _consistency_ranges(first: int, second: int) -> list[tuple[int, int]]:
    """The subtrees of PROOF(first, D[second]) (RFC 9162 2.1.4.1), in the proof's order."""
    lo, hi, whole = 0, second, True
    tail: list[tuple[int, int]] = []
    while True:
        if first == hi:
            head = [] if whole else [(lo, hi)]
            return head + list(reversed(tail))
        k, _ = _maxpow2(hi - lo)
        if first <= lo + k:
            tail.append((lo + k, hi))
            hi = lo + k
        else:
            tail.append((lo, lo + k))
            lo, whole = lo + k, False


def consistency_indexes(first: int, second: int, need: list[int] | None = None) -> list[int]:
    if not 0 <= first <= second:
        raise ValueError(f"a tree of {first} leaves is not a prefix of one of {second}")
    need = [] if need is None else need
    if 0 < first < second:
        for a, b in _consistency_ranges(first, second):
            subtree_indexes(a, b, need)
    return need


def consistency_from(first: int, second: int, hashes: list[bytes], at: int = 0) -> tuple[list[bytes], int]:
    if first == 0 or first == second:
        return [], at
    proof = []
    for a, b in _consistency_ranges(first, second):
        h, at = _subtree_hash(a, b, hashes, at)
        proof.append(h)
    return proof, at


def consistency_proof(first: int, second: int, read: HashReader) -> list[bytes]:
    """PROOF(first, D[second]) of RFC 9162 2.1.4.1 (empty when first is 0 or equal to second)."""
    return consistency_from(first, second, _checked(read, consistency_indexes(first, second)))[0]
