"""The attacker test of issue 26: given everything a running blind Spades table's store, feed and log hold before
a card is played, an attacker that is no holder names a human's cards no better than chance; given one extra
secret (a human's σ, as if its client leaked it) the same count catches it at once. The same for the server's
bots: a human seat, the humans together, or a watcher name a bot's card no better than chance."""

from __future__ import annotations

import hashlib
import random

import pytest

from fairdeal.core.blind import derive
from fairdeal.core.blind.deal import spades_holders
from fairdeal.core.blind.local import run_deal
from fairdeal.core.blind.seat import BlindSeat
from tests.blind.attacker import above_chance, attack

DEALS = 30
GAME = "g-attack"


@pytest.fixture(scope="module")
def deals():
    """DEALS independent deals (fresh secrets each), as (messages, holders, seats): what the store holds."""
    out = []
    for d in range(DEALS):
        seats = [BlindSeat(GAME, s, 4, secret=hashlib.sha256(b"attack %d %d" % (d, s)).digest()) for s in range(4)]
        messages = [s.commit() for s in seats]
        holders = spades_holders(d % 4)
        messages += run_deal(seats, 0, holders)
        out.append((messages, holders, seats))
    return out


def _score(
    deals,
    bots: set[int],
    leaked: set[int] = frozenset(),
    box: set[int] = frozenset(),
    targets: set[int] | None = None,
):
    """(hits, the hits chance gives, guesses) of the attacker on the `targets`' cards (the humans' by default) over
    every deal: it holds the `bots`' secrets (the server's seats; for an attacker that is a human seat or a
    watcher: the seats it controls, maybe none), and the `leaked` seats' secrets or only their `box` keys."""
    rng = random.Random(26)
    hits = guesses = 0
    chance = 0.0
    targets = {0, 1, 2, 3} - bots if targets is None else targets
    for messages, holders, seats in deals:
        known = {s: seats[s].secret for s in bots | leaked}
        boxes = {s: derive.box_scalar(seats[s].secret) for s in box}
        guessed, expected = attack(GAME, 0, messages, holders, seats[0].pack, known, rng, targets, boxes)
        hits += sum(card == seats[holders[j]].cards[(0, j)] for j, card in guessed.items())
        guesses += len(guessed)
        chance += expected
    return hits, chance, guesses


@pytest.mark.parametrize("bots", [{3}, set()], ids=["three-humans-and-a-bot", "four-humans"])
def test_the_store_names_no_human_card_better_than_chance(deals, bots):
    hits, chance, guesses = _score(deals, bots)
    assert guesses == DEALS * 13 * (4 - len(bots))
    assert not above_chance(hits, chance, guesses), (hits, chance)
    # the same count catches an attacker that holds one human's secret too: that human's cards are all named
    leaky_hits, leaky_chance, leaky_guesses = _score(deals, bots, leaked={0})
    assert leaky_guesses == guesses
    assert leaky_hits >= DEALS * 13
    assert above_chance(leaky_hits, leaky_chance, leaky_guesses)


def test_a_leaked_box_key_alone_names_no_card(deals):
    """The holder's own lock is never released: every release to seat 0 unsealed still leaves one lock unknown."""
    hits, chance, guesses = _score(deals, {3}, box={0})
    assert not above_chance(hits, chance, guesses), (hits, chance)


@pytest.mark.parametrize("bots", [{3}, {2, 3}], ids=["three-humans-and-a-bot", "two-humans-and-two-bots"])
@pytest.mark.parametrize("attacker", ["watcher", "one-human", "every-human"])
def test_no_human_seat_or_watcher_names_a_bots_card_better_than_chance(deals, bots, attacker):
    """The server holds its bots' σ; nothing it relays lets a human seat (its own σ in hand), all the humans
    pooling theirs, or a watcher (no secret) name a bot's unplayed card: the bot's own lock of each of its
    positions is never released, as a human's is not."""
    humans = {0, 1, 2, 3} - bots
    held = {"watcher": set(), "one-human": {0}, "every-human": humans}[attacker]
    hits, chance, guesses = _score(deals, held, targets=bots)
    assert guesses == DEALS * 13 * len(bots)
    assert not above_chance(hits, chance, guesses), (hits, chance)
    # the count would see a leak: with a bot's σ (as the server has it) its cards are all named
    leaky_hits, leaky_chance, _ = _score(deals, held, leaked={min(bots)}, targets=bots)
    assert leaky_hits >= DEALS * 13 and above_chance(leaky_hits, leaky_chance, guesses)
