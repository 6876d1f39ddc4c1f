"""Shared helpers of the 120s tests: explicit decks from named hands, short move constructors, scripted play."""

from __future__ import annotations

from collections.abc import Sequence

from fairdeal.core.cards import PACK_52, Card, cards_from_str
from fairdeal.core.games import make_rules
from fairdeal.core.games.base import FixedChance, Move
from fairdeal.core.games.onetwenty.state import deck_from_hands
from tests.games.randomness import RandomChance, SeededRng


def cards(text: str) -> list[Card]:
    return cards_from_str(text)


def deck(rules, dealer: int, hands: dict[int, str], kitty: str = "", pack: str = "") -> list[Card]:
    """An explicit deck that deals these hands (seat -> '5H JH ...') and kitty, then `pack` from its top."""
    given = {s: cards(h) for s, h in hands.items()}
    used = {c for h in given.values() for c in h} | set(cards(kitty)) | set(cards(pack))
    spare = [c for c in PACK_52 if c not in used]
    full = {}
    for s in range(rules.players):
        h = list(given.get(s, []))
        while len(h) < 5:
            h.append(spare.pop(0))
        full[s] = h
    kit = cards(kitty)
    while len(kit) < rules.variant.kitty_size:
        kit.append(spare.pop(0))
    return deck_from_hands(rules.variant, dealer, full, kit, cards(pack))


def new_game(
    rule_set: str = "120s-auction",
    hands: dict[int, str] | None = None,
    kitty: str = "",
    pack: str = "",
    dealer: int = 0,
    settings: dict | None = None,
    players: int = 4,
    more: Sequence[list] = (),
    scores=None,
    made_bid=None,
):
    """A game whose first hand deals `hands` (unnamed cards are filled in from the canonical pack order)."""
    rules = make_rules(rule_set, settings or {}, players)
    first = deck(rules, dealer, hands or {}, kitty, pack)
    decks = [first] + [list(d) for d in more] + [list(PACK_52)] * 40
    return rules.new_game(FixedChance(decks, first_dealer=dealer), scores=scores, made_bid=made_bid)


def bid(v: int) -> Move:
    return Move.bid(v)


PASS = Move.pass_()


def trump(s: str) -> Move:
    return Move.trump(s)


def throw(text: str = "") -> Move:
    return Move.throw(cards(text))


def play(text: str) -> Move:
    return Move.play(cards(text)[0])


def run(game, *moves: tuple[int, Move]) -> None:
    for seat, move in moves:
        game.apply(seat, move)


def pass_round(game, *seats: int) -> None:
    for s in seats:
        game.apply(s, PASS)


def throw_none_all(game) -> None:
    """Everyone left in the throw phase keeps their cards (the bidder throws its lowest allowed count of the
    cards it got from the kitty)."""
    while game.phase in ("throw", "kitty"):
        seat = game.to_move
        lo = game.options(seat)["throw_min"]
        if lo:
            kit = list(game.kitty_cards) or list(game.hands[seat])
            game.apply(seat, Move.throw(kit[:lo]))
        else:
            game.apply(seat, Move.throw(()))


# Hands relative to the bidder (B), the bidder's left (L), partner (P) and right (R), with known outcomes when
# played by `play_out` (leaders play their strongest legal card, the others their weakest), hearts trump.
LAYOUTS = {
    # B's side takes every trick.
    "all": {"B": "5H JH AH KH QH", "L": "2C 3C 4C 6C 7C", "P": "2D 3D 4D 6D 7D", "R": "2S 3S 4S 6S 7S"},
    # B's side takes 15 (the 5 of trumps' trick and one more), the other side 15.
    "split": {"B": "5H JH 2D 3D 4D", "L": "AD KD QD 2S 3S", "P": "2C 3C 4C 6C 7C", "R": "4S 6S 7S 8S 9S"},
    # B's side takes 20 (the top three's tricks), the other side 10.
    "twenty": {"B": "5H JH AH 2D 3D", "L": "AD KD QD 2S 3S", "P": "2C 3C 4C 6C 7C", "R": "4S 6S 7S 8S 9S"},
    # The other side takes every trick.
    "down": {"B": "2C 3C 4C 6C 7C", "L": "5H JH AH KH QH", "P": "2D 3D 4D 6D 7D", "R": "2S 3S 4S 6S 7S"},
}
LAYOUT_KITTY = "8C 9C 10C JC"


def layout_hands(name: str, bidder: int, players: int = 4) -> dict[int, str]:
    lay = LAYOUTS[name]
    return {
        bidder: lay["B"],
        (bidder + 1) % players: lay["L"],
        (bidder + 2) % players: lay["P"],
        (bidder + 3) % players: lay["R"],
    }


def bid_and_throw(game, bidder: int, value: int, suit: str = "H") -> None:
    """One-round bidding where only `bidder` bids, then trump, then the bidder throws the kitty's cards back and
    everyone else keeps their hand."""
    while game.phase == "bidding":
        s = game.to_move
        game.apply(s, bid(value) if s == bidder else PASS)
    game.apply(bidder, trump(suit))
    throw_none_all(game)


def play_out(game) -> None:
    """Play the hand's remaining tricks: a leader plays its strongest legal card, the others their weakest."""
    from fairdeal.core.games.onetwenty.ranks import power_table

    power = power_table(game.trump, game.v.aces_low)
    start = game.hand_number
    while game.phase == "play" and game.hand_number == start:
        s = game.to_move
        legal = game.playable(s)
        lead = not game.play.current.plays
        c = max(legal, key=power.__getitem__) if lead else min(legal, key=power.__getitem__)
        game.apply(s, Move.play(c))


def layout_game(
    name: str, bidder: int, value: int = 15, scores=None, made_bid=None, settings=None, rule_set: str = "120s-auction"
):
    g = new_game(
        rule_set, layout_hands(name, bidder), kitty=LAYOUT_KITTY, settings=settings, scores=scores, made_bid=made_bid
    )
    bid_and_throw(g, bidder, value)
    return g


def play_by_policy(rules, seed, max_moves=4000):
    """A seeded game played by the bots and the timeout policy, every move (and every suggestion) checked legal."""
    g = rules.new_game(RandomChance(seed))
    rng = SeededRng(seed)
    n = 0
    while not g.is_over and n < max_moves:
        s = g.to_move
        view = g.view(s)
        m = rules.bot_move(view, rng) if (n + s) % 3 else rules.timeout_move(view)
        assert g.why_not(s, m) is None, (view, m, g.why_not(s, m))
        sugg = rules.suggest(view)
        if sugg is not None:
            assert g.why_not(s, sugg) is None
        g.apply(s, m)
        n += 1
    return g
