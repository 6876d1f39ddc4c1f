"""The Merkle tree of RFC 9162 (Certificate Transparency 2.0, section 2.1), over SHA-256: pure, stdlib only.

  leaf hash   SHA-256(0x00 || leaf bytes)
  node hash   SHA-256(0x01 || left || right)
  MTH({})     SHA-256("")            the empty tree
  MTH(D[n])   for n > 1: k = the largest power of two < n, node_hash(MTH(D[0:k]), MTH(D[k:n]))

`Tree` holds the leaf hashes of an append-only log and remembers the hash of every complete, aligned subtree
it has computed (a subtree of 2^j leaves starting at a multiple of 2^j): in an append-only log those never
change, and every left branch of the recursion is one, so a root or a proof costs O(log n) hashes once the
tree has been walked. Proofs are made and checked as RFC 9162 sections 2.1.3 and 2.1.4 say.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

EMPTY_ROOT = hashlib.sha256(b"").digest()
MEMO_MIN = 2  # subtrees of at least this many leaves are remembered (a leaf's hash is in the list already)


def leaf_hash(data: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def split(n: int) -> int:
    """The largest power of two smaller than n (n > 1)."""
    return 1 << ((n - 1).bit_length() - 1)


class Tree:
    """The tree over a growing list of leaf hashes (append only: a hash, once added, never changes)."""

    def __init__(self, leaf_hashes: Iterable[bytes] = ()):
        self.leaves: list[bytes] = []
        self._memo: dict[tuple[int, int], bytes] = {}
        self.extend(leaf_hashes)

    def __len__(self) -> int:
        return len(self.leaves)

    def extend(self, leaf_hashes: Iterable[bytes]) -> None:
        for h in leaf_hashes:
            if not isinstance(h, (bytes, bytearray)) or len(h) != 32:
                raise ValueError("a leaf hash is 32 bytes")
            self.leaves.append(bytes(h))

    def _size(self, size: int | None) -> int:
        n = len(self.leaves) if size is None else size
        if type(n) is not int or not 0 <= n <= len(self.leaves):
            raise ValueError(f"the tree has {len(self.leaves)} leaves, not {size!r}")
        return n

    def hash(self, lo: int, hi: int) -> bytes:
        """MTH(D[lo:hi])."""
        n = hi - lo
        if n == 0:
            return EMPTY_ROOT
        if n == 1:
            return self.leaves[lo]
        perfect = n & (n - 1) == 0 and lo % n == 0
        if perfect and n >= MEMO_MIN:
            got = self._memo.get((lo, n))
            if got is not None:
                return got
        k = split(n)
        h = node_hash(self.hash(lo, lo + k), self.hash(lo + k, hi))
        if perfect and n >= MEMO_MIN:
            self._memo[(lo, n)] = h
        return h

    def root(self, size: int | None = None) -> bytes:
        return self.hash(0, self._size(size))

    def inclusion_proof(self, index: int, size: int | None = None) -> list[bytes]:
        """PATH(index, D[size]) of RFC 9162 2.1.3.1."""
        n = self._size(size)
        if type(index) is not int or not 0 <= index < n:
            raise ValueError(f"leaf {index!r} is not in a tree of {n} leaves")
        return self._path(index, 0, n)

    def _path(self, m: int, lo: int, hi: int) -> list[bytes]:
        n = hi - lo
        if n == 1:
            return []
        k = split(n)
        if m < k:
            return self._path(m, lo, lo + k) + [self.hash(lo + k, hi)]
        return self._path(m - k, lo + k, hi) + [self.hash(lo, lo + k)]

    def consistency_proof(self, first: int, second: int | None = None) -> list[bytes]:
        """PROOF(first, D[second]) of RFC 9162 2.1.4.1 (empty when first is 0 or equal to second)."""
        n = self._size(second)
        if type(first) is not int or not 0 <= first <= n:
            raise ValueError(f"a tree of {first!r} leaves is not a prefix of one of {n}")
        if first == 0 or first == n:
            return []
        return self._subproof(first, 0, n, True)

    def _subproof(self, m: int, lo: int, hi: int, whole: bool) -> list[bytes]:
        n = hi - lo
        if m == n:
            return [] if whole else [self.hash(lo, hi)]
        k = split(n)
        if m <= k:
            return self._subproof(m, lo, lo + k, whole) + [self.hash(lo + k, hi)]
        return self._subproof(m - k, lo + k, hi, False) + [self.hash(lo, lo + k)]


def _lsb(x: int) -> int:
    return x & 1


def _up_the_right_edge(fn: int, sn: int) -> tuple[int, int]:
    """RFC 9162's step for a node on the right edge of its subtree: shift both until fn is odd or 0."""
    while not _lsb(fn) and fn != 0:
        fn >>= 1
        sn >>= 1
    return fn, sn


def root_from_inclusion(leaf: bytes, index: int, size: int, proof: Sequence[bytes]) -> bytes | None:
    """The root an inclusion proof leads to (RFC 9162 2.1.3.2), or None when the proof cannot be one for this
    index and size (too long, too short)."""
    if type(index) is not int or type(size) is not int or not 0 <= index < size:
        return None
    fn, sn, r = index, size - 1, leaf
    for p in proof:
        if sn == 0:
            return None
        if _lsb(fn) or fn == sn:
            r = node_hash(p, r)
            fn, sn = _up_the_right_edge(fn, sn)
        else:
            r = node_hash(r, p)
        fn >>= 1
        sn >>= 1
    return r if sn == 0 else None


def verify_inclusion(leaf: bytes, index: int, size: int, proof: Sequence[bytes], root: bytes) -> bool:
    return root_from_inclusion(leaf, index, size, proof) == root


def verify_consistency(first: int, second: int, first_root: bytes, second_root: bytes, proof: Sequence[bytes]) -> bool:
    """Whether `proof` shows the tree of `second` leaves with `second_root` extends the one of `first` leaves
    with `first_root` (RFC 9162 2.1.4.2). A tree of 0 leaves is a prefix of every tree (with an empty proof)."""
    if type(first) is not int or type(second) is not int or not 0 <= first <= second:
        return False
    if first == second:
        return not proof and first_root == second_root
    if first == 0:
        return not proof and first_root == EMPTY_ROOT
    if not proof:
        return False
    path = list(proof)
    if first & (first - 1) == 0:  # an exact power of two: the proof leaves out the first tree's root
        path.insert(0, first_root)
    fn, sn = first - 1, second - 1
    while _lsb(fn):
        fn >>= 1
        sn >>= 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if _lsb(fn) or fn == sn:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
            fn, sn = _up_the_right_edge(fn, sn)
        else:
            sr = node_hash(sr, c)
        fn >>= 1
        sn >>= 1
    return fr == first_root and sr == second_root and sn == 0
