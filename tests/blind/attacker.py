"""The attacker of the attacker test: it holds every message a running blind table's store, feed and log hold
before any card is played (commits, shuffles, locks, releases) and the secrets of the seats it controls (the
server's bots), and tries to name every other seat's cards.

Its search: every known scalar it can make (1, the mask and locks of its seats and their inverses, for each
final-deck position the product of every lock it holds or can unseal) times every card point, against every
element it holds. Where that names a card it says so; elsewhere it guesses uniformly among the cards it does not
know to be elsewhere. Chance is what the guessing alone would score.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence

from fairdeal.core.blind import derive, release
from fairdeal.core.blind.deal import card_by_point, initial_deck
from fairdeal.core.blind.group import element_from_hex, inverse, mul, mul_many, product


def attack(
    game: str,
    deal: int,
    messages: Sequence[dict],
    holders: Sequence[int],
    pack: Sequence[str],
    known: Mapping[int, bytes],
    rng: random.Random,
    targets: set[int],
    box: Mapping[int, int] | None = None,
) -> tuple[dict[int, str], float]:
    """(a guess for every position held by a target seat, the expected hits of pure guessing). known: the seat
    secrets it holds; box: box scalars it holds besides (a leaked box key)."""
    boxes = {s: derive.box_scalar(secret) for s, secret in known.items()} | dict(box or {})
    seats = len({m["seat"] for m in messages})
    by_point = card_by_point(pack)
    points = initial_deck(pack)
    commits = {m["seat"]: m for m in messages if m["type"] == "commit"}
    releases = {m["seat"]: m for m in messages if m["type"] == "release" and m["deal"] == deal}
    decks = [m["deck"] for m in messages if m["type"] in ("shuffle", "lock") and m["deal"] == deal]
    final = [element_from_hex(x) for x in decks[-1]]
    named: dict[int, str] = {}

    # 1. every element of every deck against the card points under every deck-wide scalar it knows
    scalars = [1]
    for secret in known.values():
        a = derive.shuffle_scalar(secret, deal)
        scalars += [a, inverse(a)]
    table: dict[bytes, str] = {}
    for k in scalars:
        for x, p in zip(mul_many(k, points), points, strict=False):
            table[x] = by_point[p]
    for j, x in enumerate(final):
        if x in table:
            named[j] = table[x]
    for deck in decks[:-1]:  # an element of an earlier deck that shows a card names no final position
        assert not any(element_from_hex(x) in table for x in deck) or known, "a card point in the clear"

    # 2. each final position unlocked with every lock it holds or can unseal (releases sealed to a known seat)
    for j, h in enumerate(holders):
        locks = []
        for s in range(seats):
            if s in known:
                locks.append(derive.lock_scalar(known[s], deal, j))
            elif s != h and (h in boxes or s in boxes):  # x(e_s·E_h) = x(e_h·E_s): either box key opens it
                e, other = (boxes[h], s) if h in boxes else (boxes[s], h)
                value = releases[s]["keys"][str(h)][str(j)]
                shared = release.shared_secret(e, element_from_hex(commits[other]["box_key"]))
                locks.append(release.unseal(value, release.pad(shared, game, deal, s, h, j)))
        if len(locks) == seats:
            card = by_point.get(mul(inverse(product(locks)), final[j]))
            if card is not None:
                named[j] = card

    # 3. the guesses: what was named, else uniform among the cards not known elsewhere
    own = {named[j] for j, h in enumerate(holders) if h not in targets and j in named}
    guesses, chance = {}, 0.0
    for j, h in enumerate(holders):
        if h not in targets:
            continue
        if j in named:
            guesses[j] = named[j]
        else:
            pool = [c for c in pack if c not in own]
            guesses[j] = rng.choice(pool)
        chance += 1 / len([c for c in pack if c not in own])
    return guesses, chance


def above_chance(hits: int, chance: float, guesses: int) -> bool:
    """Whether `hits` is beyond what guessing scores: more than the mean plus five standard deviations."""
    p = chance / guesses
    return hits > chance + 5 * math.sqrt(guesses * p * (1 - p)) + 1
