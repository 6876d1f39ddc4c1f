"""Derived shuffles per second (fairdeal.core.fairness.shuffle) against a fair baseline, measured in the same run.

The baseline does the same work in its plainest fair form: the label's HMAC-SHA256 stream (docs/fairness.md: block
i is HMAC(seed, label || 0x00 || i as 4 bytes big-endian)) read byte by byte from a generator, each draw below n
made by rejection sampling (a byte at or above n * (256 // n) is thrown away), Fisher-Yates from the last card
down. It deals exactly the decks `shuffle` deals (checked before timing), so the two differ only in how the
stream is produced and read: the real shuffle fetches the blocks a shuffle needs up front and reads them from a
buffer with the rejection limits precomputed. Target: at least 5x the baseline's shuffles per CPU second, for 52
and for 32 cards (median of the per-round ratios).

Timing as bench/measure.py says: CPU time, 7 alternating rounds, median and spread, load before and after.

Run: python bench/bench_shuffle.py   (about 15 s)
"""

from __future__ import annotations

import hmac
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import measure as ms  # noqa: E402

from fairdeal.core.cards import PACK_32, PACK_52  # noqa: E402
from fairdeal.core.fairness import game_seed, shuffle  # noqa: E402

TARGET = 5.0
ROUNDS = 7
SHUFFLES = 4000  # per round and measurement


def hmac_stream(seed: bytes, label: str):
    """The label's bytes, one HMAC block after another."""
    prefix = label.encode("ascii") + b"\x00"
    block = 0
    while True:
        yield from hmac.digest(seed, prefix + block.to_bytes(4, "big"), "sha256")
        block += 1


def fair_stream_shuffle(seed: bytes, label: str, cards):
    """Fisher-Yates with every index drawn without bias from the label's HMAC stream by rejection sampling."""
    deck = list(cards)
    stream = hmac_stream(seed, label)
    for i in range(len(deck) - 1, 0, -1):
        n = i + 1
        limit = n * (256 // n)
        x = next(stream)
        while x >= limit:
            x = next(stream)
        j = x % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def per_draw_shuffle(seed: bytes, label: str, cards):
    """The same Fisher-Yates without bias, one HMAC call a drawn byte (block i gives byte i's draw): what a first
    fair implementation that does not buffer the stream does. Other decks than `shuffle` (another stream); for
    information beside the target's baseline."""
    deck = list(cards)
    prefix = label.encode("ascii") + b"\x00"
    counter = 0
    for i in range(len(deck) - 1, 0, -1):
        n = i + 1
        limit = n * (256 // n)
        while True:
            x = hmac.digest(seed, prefix + counter.to_bytes(4, "big"), "sha256")[0]
            counter += 1
            if x < limit:
                break
        j = x % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def run(fn, seed: bytes, pack) -> float:
    """CPU seconds for SHUFFLES shuffles, a new label each."""
    start = ms.cpu()
    for k in range(SHUFFLES):
        fn(seed, f"deal/{k}", pack)
    return ms.cpu() - start


def main() -> int:
    seed = game_seed(bytes(range(32)), ["alice", None, "bob", None])
    print(f"{ms.load()} before the run; {ROUNDS} alternating rounds of {SHUFFLES} shuffles each, CPU time")
    results = []
    for name, pack in (("52", PACK_52), ("32", PACK_32)):
        for k in range(200):
            if shuffle(seed, f"deal/{k}", pack) != fair_stream_shuffle(seed, f"deal/{k}", pack):
                raise SystemExit("the baseline deals other decks: it would not be the same work")
        fast = ms.Series(f"{name} cards: derived shuffle", SHUFFLES)
        fair = ms.Series(f"{name} cards: fair HMAC stream (baseline)", SHUFFLES)
        draw = ms.Series(f"{name} cards: one HMAC a draw (information)", SHUFFLES)
        ms.alternate(
            ROUNDS,
            [
                # ms.alternate calls them within this iteration; the defaults bind this pack all the same
                lambda fast=fast, pack=pack: fast.add(run(shuffle, seed, pack)),
                lambda fair=fair, pack=pack: fair.add(run(fair_stream_shuffle, seed, pack)),
                lambda draw=draw, pack=pack: draw.add(run(per_draw_shuffle, seed, pack)),
            ],
        )
        results.append((fast, fair, draw))
    print(f"{ms.load()} after the run")
    print()
    print(ms.header() + "   (shuffles per CPU second)")
    for fast, fair, draw in results:
        print(ms.row(fast.name, fast))
        print(ms.row(fair.name, fair))
        print(ms.row(draw.name, draw))
    print()
    for fast, fair, draw in results:
        print(ms.verdict(fast.name, fast.ratio_to(fair), "the fair HMAC stream", TARGET)[0])
        print(ms.verdict(fast.name, fast.ratio_to(draw), "one HMAC a draw", None)[0])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
