"""A deterministic uniformity check of the derived shuffle: chi-square of (position, card) counts over many
shuffles under fixed seeds. The correct rejection-sampling shuffle passes; the same shuffle with the classic
modulo bias (j = byte % (i + 1), no rejection), written here as the counter-example, fails the same bound."""

from __future__ import annotations

import math

from fairdeal.core.fairness import DerivedRng, game_seed, shuffle

SHUFFLES = 20000
GS = game_seed(bytes(32), [None, None, None, None])


def modulo_biased_shuffle(seed: bytes, label: str, cards):
    deck, rng = list(cards), DerivedRng(seed, label)
    for i in range(len(deck) - 1, 0, -1):
        j = rng.read(1)[0] % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def chi_square(shuffler, m: int) -> float:
    counts = [[0] * m for _ in range(m)]
    cards = list(range(m))
    for k in range(SHUFFLES):
        for position, card in enumerate(shuffler(GS, f"deal/{k}", cards)):
            counts[position][card] += 1
    expected = SHUFFLES / m
    return sum((x - expected) ** 2 / expected for row in counts for x in row)


def bound(m: int) -> float:
    """(m-1)^2 degrees of freedom; mean + 4 standard deviations (a correct shuffle exceeds it ~1 in 30000)."""
    dof = (m - 1) ** 2
    return dof + 4 * math.sqrt(2 * dof)


def test_derived_52_card_shuffles_are_uniform_and_the_modulo_biased_ones_are_not():
    assert chi_square(shuffle, 52) < bound(52)
    assert chi_square(modulo_biased_shuffle, 52) > bound(52)


def test_randbelow_values_are_uniform_where_modulo_bias_is_largest():
    # n = 200: byte % 200 would give 0..55 twice the chance of 56..199
    n, draws = 200, 40000
    limit = (n - 1) + 4 * math.sqrt(2 * (n - 1))

    def chi(draw) -> float:
        counts = [0] * n
        for _ in range(draws):
            counts[draw()] += 1
        expected = draws / n
        return sum((c - expected) ** 2 / expected for c in counts)

    rng, biased = DerivedRng(GS, "bot/1"), DerivedRng(GS, "bot/1")
    assert chi(lambda: rng.randbelow(n)) < limit
    assert chi(lambda: biased.read(1)[0] % n) > limit
