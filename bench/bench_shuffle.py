"""Derived shuffles per second (fairdeal.verifier.fairness.shuffle) against a naive baseline, measured in the same run.

The baseline is the obvious first implementation: one HMAC-SHA256 call per random byte (the same one-shot
C-accelerated hmac.digest the real code uses, so the comparison is about the algorithm) and `byte % n`, which
is also biased. The real shuffle draws 32 bytes per HMAC block, reads them from a buffer and rejects the few
biased values. Target: at least 5x the baseline's shuffles per second, for 52 and for 32 cards.

Run: python bench/bench_shuffle.py   (about 12 s)
"""
from __future__ import annotations

import hmac
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from fairdeal.verifier.cards import PACK_32, PACK_52  # noqa: E402
from fairdeal.verifier.fairness import game_seed, shuffle  # noqa: E402

TARGET = 5.0
SECONDS = 1.0  # per measurement; each is repeated 3 times and the best kept


def naive_shuffle(seed: bytes, label: str, cards):
    """Per-byte HMAC draws with modulo: one HMAC call per swap, j = first byte % (i + 1)."""
    deck = list(cards)
    prefix = label.encode("ascii") + b"\x00"
    counter = 0
    for i in range(len(deck) - 1, 0, -1):
        byte = hmac.digest(seed, prefix + counter.to_bytes(4, "big"), "sha256")[0]
        counter += 1
        j = byte % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def rate(fn, seed: bytes, pack) -> float:
    """Shuffles per second over SECONDS, a new label every shuffle."""
    n, start = 0, time.perf_counter()
    deadline = start + SECONDS
    while True:
        for k in range(n, n + 500):
            fn(seed, f"deal/{k}", pack)
        n += 500
        now = time.perf_counter()
        if now >= deadline:
            return n / (now - start)


def best_rates(seed: bytes, pack) -> tuple[float, float]:
    """The best of three rounds for each, the two measured alternately so that machine load hits both alike."""
    fast = naive = 0.0
    for _ in range(3):
        fast = max(fast, rate(shuffle, seed, pack))
        naive = max(naive, rate(naive_shuffle, seed, pack))
    return fast, naive


def main() -> int:
    seed = game_seed(bytes(range(32)), ["alice", None, "bob", None])
    ok = True
    print(f"{'pack':>6} {'derived shuffles/s':>20} {'naive shuffles/s':>18} {'ratio':>7}  target >= {TARGET:g}x")
    for name, pack in (("52", PACK_52), ("32", PACK_32)):
        fast, naive = best_rates(seed, pack)
        ratio = fast / naive
        ok &= ratio >= TARGET
        print(f"{name:>6} {fast:20,.0f} {naive:18,.0f} {ratio:6.1f}x  {'ok' if ratio >= TARGET else 'BELOW TARGET'}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
