"""The general forms the 120s fast paths are held to, shared by the tests that compare them (a helper module:
test modules import from here, never from each other)."""

from fairdeal.core.games.onetwenty.ranks import make_strength


def general_beaters(trump, aces_low):
    """make_beaters as it reads from the strength function, one call per card."""
    strength = make_strength(trump, aces_low)
    return lambda cards, best, led: [c for c in cards if strength(c, led) > strength(best, led)]
