"""Scenario helpers shared by the 120s-house and 120s-traditional tests, on top of the 120s-auction tests'
deck helpers (tests/games/onetwenty/helpers.py, imported, not copied)."""

from __future__ import annotations

import itertools

from fairdeal.core.games.base import Move
from tests.games.onetwenty.helpers import bid_and_throw, cards, new_game

SPARE_KITTY = "8C 9C 10C JC"

# The trump suit's cards, highest first, under each trump suit (the same in every 120s rule set).
TRUMPS_HIGHEST_FIRST = {
    "H": "5H JH AH KH QH 10H 9H 8H 7H 6H 4H 3H 2H",
    "D": "5D JD AH AD KD QD 10D 9D 8D 7D 6D 4D 3D 2D",
    "C": "5C JC AH AC KC QC 2C 3C 4C 6C 7C 8C 9C 10C",
    "S": "5S JS AH AS KS QS 2S 3S 4S 6S 7S 8S 9S 10S",
}


def adjacent(order: str):
    ranks = order.split()
    return list(itertools.pairwise(ranks))


def ready(
    rule_set: str,
    hands: dict[int, str],
    bidder: int = 1,
    value: int = 20,
    suit: str = "H",
    kitty: str = "",
    settings: dict | None = None,
    players: int = 4,
    scores=None,
    dealer: int = 0,
    pack: str = "",
):
    """A game at the first lead: `hands` dealt by `dealer`, `bidder` alone bids `value`, names `suit`, throws the
    kitty's cards back and nobody else changes a card."""
    size = 4 if (settings or {}).get("teaser") else 3
    kit = kitty or " ".join(SPARE_KITTY.split()[:size])
    g = new_game(
        rule_set, hands, kitty=kit, pack=pack, dealer=dealer, settings=settings, players=players, scores=scores
    )
    bid_and_throw(g, bidder, value, suit)
    return g


def trick(g, *plays: str) -> int:
    """Play one trick's cards in turn from the seat to move; the seat that won it."""
    for text in plays:
        g.apply(g.to_move, Move.play(cards(text)[0]))
    return g.play.done[-1].winner if g.phase == "play" else g.last_hand["tricks"][-1]["winner"]


def legal(g, seat: int | None = None) -> list[str]:
    """The cards the seat to move (or `seat`) may play, as strings."""
    s = g.to_move if seat is None else seat
    return sorted(str(m.card) for m in g.legal_moves(s))


def bids(g, seat: int | None = None) -> list:
    """The bidding moves the seat may make: bid values, then 'pass' / 'mine' / 'redeal'."""
    s = g.to_move if seat is None else seat
    return [m.value if m.kind == "bid" else m.kind for m in g.legal_moves(s)]


def head_to_head(rule_set: str, trump: str, high: str, low: str, settings: dict | None = None) -> int:
    """Seat 2 leads `low`, seat 3 plays `high`, seats 0 and 1 discard cards that can neither follow nor trump:
    the seat that wins the trick (3 when `high` beats `low`). Seat 1 bid 20 and named `trump`."""
    from fairdeal.core.cards import PACK_52
    from fairdeal.core.games.onetwenty.ranks import is_trump

    hi, lo = cards(high)[0], cards(low)[0]
    filler = [
        c for c in PACK_52 if c not in (hi, lo) and not is_trump(c, trump) and c.suit != lo.suit and c.suit != hi.suit
    ]
    if len(filler) < 21:  # trump and led suit the same: one more suit is free
        filler = [c for c in PACK_52 if c not in (hi, lo) and not is_trump(c, trump) and c.suit != lo.suit]
    text = [str(c) for c in filler]
    hands = {
        2: " ".join([low] + text[0:4]),
        3: " ".join([high] + text[4:8]),
        0: " ".join(text[8:13]),
        1: " ".join(text[13:18]),
    }
    g = ready(rule_set, hands, bidder=1, value=20, suit=trump, kitty=" ".join(text[18:21]), settings=settings)
    return trick(g, low, high, text[8], text[13])


def bots_play_to_the_end(rules, chance, max_moves: int = 3000):
    """Every seat a bot (FirstChoiceRng); each bot move must be legal. Returns the game when it stops."""
    from fairdeal.core.games.base import FirstChoiceRng

    g, rng = rules.new_game(chance), FirstChoiceRng()
    for _ in range(max_moves):
        if g.is_over:
            break
        s = g.to_move
        m = rules.bot_move(g.view(s), rng)
        assert g.why_not(s, m) is None
        g.apply(s, m)
    return g
