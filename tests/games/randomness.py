"""The games tests' randomness, in one place: a seeded Rng for the bots, an Rng that always picks the same place,
and a seeded random Chance. Tests only: the service's and verifier's own are fairdeal.core.fairness's
SeedChance and DerivedRng."""

from __future__ import annotations

import random
from collections.abc import Sequence

from fairdeal.core.cards import Card


class SeededRng:
    """A bot's Rng drawing from random.Random: built from a seed, or sharing a Random the test already draws from."""

    def __init__(self, seed: int | random.Random):
        self.r = seed if isinstance(seed, random.Random) else random.Random(seed)

    def randbelow(self, n: int) -> int:
        return self.r.randrange(n)


class PickRng:
    """An Rng that always picks place `pick` (bounded by n - 1; -1 is always the last), to see a bot's tie-break."""

    def __init__(self, pick: int):
        self.pick = pick

    def randbelow(self, n: int) -> int:
        return n - 1 if self.pick < 0 else min(self.pick, n - 1)


class RandomChance:
    """A seeded random Chance: shuffles the pack for every deal and every reshuffle from one random.Random."""

    def __init__(self, seed: int):
        self.r = random.Random(seed)

    def first_dealer(self, players: int) -> int:
        return self.r.randrange(players)

    def deck(self, hand: int, pack: Sequence[Card]) -> list[Card]:
        d = list(pack)
        self.r.shuffle(d)
        return d

    def reshuffle(self, hand: int, round: int, cards: Sequence[Card]) -> list[Card]:
        c = list(cards)
        self.r.shuffle(c)
        return c
