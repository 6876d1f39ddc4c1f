"""The table's suggestion, the bot and the timeout policy of 120s: pure functions of one seat's view.

One hand evaluation serves all three (docs/rules/120s-auction.md "The suggestion, the bots and the timeout policy"):
`suit_values`/`hand_ceiling` estimate the points the bidding side takes with this hand as the bidder (the hand's own cards,
plus a fixed share for the partner and for the kitty and the draw), under the best trump suit. The bid the table
suggests is the *lowest* bid the seat may make that the value covers (open at 15, keeping 20 and 25 for outbidding
somebody); 30 only for a hand of five trumps holding the 5, the J and the ace of hearts.
The bot says what the suggestion says, except that it never bids 30 (nor takes a 30 with Mine).
Both play as a partnership at a 4-player table: neither outbids nor takes ("Mine", dealer-can-take-it) the
partner's standing bid, it passes instead (the timeout too, which bids as the suggestion). In play the bot never
overtakes or trumps a trick its partner is winning unless the rules force it, except with its own top card of the
plain suit led when an opponent is still to play (see `support_card`); the bidder leads trumps (`lead_card`).
Nothing here counts cards still out (120s-auction's bots do not count the drumpfs still out).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Mapping, Sequence

from fairdeal.verifier.cards import PACK_52, SUITS, Card, card, card_from_str, cards_of_texts
from fairdeal.verifier.games.base import Move, Rng

from .ranks import ACE_OF_HEARTS, TRUMP_BASE, make_strength, plain_order, power_table
from .variant import Variant

# What one card is worth, in points the bidder's side can expect, when its suit is trump (by trump place).
TOP_VALUES = {5: 9.0, 11: 6.0}          # the 5 and the J of trumps
ACE_OF_HEARTS_VALUE = 5.0
TRUMP_ACE_VALUE = 4.0
KING_VALUE, QUEEN_VALUE, SMALL_TRUMP_VALUE = 3.0, 2.5, 1.5
PLAIN_TOP_VALUE = 2.0                   # the best card of a plain suit (the ace; the king with plain aces low)
PARTNER_AND_KITTY = 7.0                 # the partner's share and the help of the kitty and the draw
ALONE_AND_KITTY = 4.0                   # 120s-house with two or three players: no partner


def card_value(c: Card, trump: str, aces_low: bool) -> float:
    if c.suit == trump:
        if c.rank in TOP_VALUES:
            return TOP_VALUES[c.rank]
        if c.rank == 14:
            return ACE_OF_HEARTS_VALUE if trump == "H" else TRUMP_ACE_VALUE
        return {13: KING_VALUE, 12: QUEEN_VALUE}.get(c.rank, SMALL_TRUMP_VALUE)
    if c == ACE_OF_HEARTS:
        return ACE_OF_HEARTS_VALUE
    top = 13 if aces_low else 14
    return PLAIN_TOP_VALUE if c.rank == top else 0.0


@lru_cache(maxsize=None)
def card_values(trump: str, aces_low: bool) -> dict[Card, float]:
    """card_value(c, trump, aces_low) of every card, made once: a hand is valued under each suit at every bid."""
    return {c: card_value(c, trump, aces_low) for c in PACK_52}


def suit_values(hand: Sequence[Card], v: Variant) -> dict[str, float]:
    extra = PARTNER_AND_KITTY if v.sides.partners else ALONE_AND_KITTY
    values = {}
    for s in SUITS:
        value = card_values(s, v.aces_low)
        values[s] = extra + sum(value[c] for c in hand)
    return values


def best_suits(hand: Sequence[Card], v: Variant) -> list[str]:
    values = suit_values(hand, v)
    top = max(values.values())
    return [s for s in SUITS if values[s] == top]


def sees_every_trick(hand: Sequence[Card], trump: str) -> bool:
    """A 30 hand: five trumps with the 5, the J and the ace of hearts."""
    from .ranks import is_trump
    return (len(hand) == 5 and all(is_trump(c, trump) for c in hand)
            and {(5, trump), (11, trump), (14, "H")} <= {(c.rank, c.suit) for c in hand})


def hand_ceiling(hand: Sequence[Card], v: Variant) -> int:
    """The highest bid this hand is worth (0: none)."""
    values = suit_values(hand, v)
    value = max(values.values())
    if ACE_OF_HEARTS in hand and any(sees_every_trick(hand, s) for s in SUITS):   # a 30 hand holds it
        return 30
    fits = [b for b in v.bids if b <= value and b < 30]
    return fits[-1] if fits else 0


def _hand(view: Mapping[str, Any]) -> list[Card]:
    return cards_of_texts(view["hand"])


def partner_holds_bid(view: Mapping[str, Any], v: Variant) -> bool:
    """The standing bid is this seat's partner's (only at a 4-player table: with 2 or 3 everyone is alone)."""
    holder, seat = view["bidding"]["holder"], view["seat"]
    return v.sides.partners and holder is not None and holder != seat and v.sides.same_side(holder, seat)


def bid_choice(view: Mapping[str, Any], v: Variant, allow_thirty: bool) -> Move:
    opts = view["options"]
    if opts["pass"] and partner_holds_bid(view, v):
        return Move.pass_()                       # never outbid or take the partner's bid: the side has it already
    ceiling = hand_ceiling(_hand(view), v)
    if not allow_thirty:
        ceiling = min(ceiling, 25)
    high = view["bidding"]["high"]
    if opts["mine"] and high is not None and high <= ceiling:
        return Move("mine")                       # taking at the same amount is the smallest step there is
    fits = [b for b in opts["bids"] if b <= ceiling]
    if fits:
        return Move.bid(min(fits))
    if opts["pass"]:
        return Move.pass_()
    if opts["redeal"]:
        return Move("redeal")
    return Move.bid(min(opts["bids"]))          # stuck: the one bid left


def throw_choice(view: Mapping[str, Any], v: Variant) -> Move:
    """Keep the trumps and the best card of each plain suit, strongest first, as many as five; throw the rest,
    within the number the seat must or may throw."""
    hand = _hand(view)
    power = power_table(view["trump"], v.aces_low)
    opts = view["options"]
    lo, hi = opts["throw_min"], opts["throw_max"]

    def keep_score(c: Card) -> int:
        p = power[c]
        return p if p > TRUMP_BASE else (50 if c == plain_top(c.suit, v.aces_low) else p)

    ranked = sorted(hand, key=lambda c: (keep_score(c), c.suit, c.rank))      # weakest first
    keepers = sum(1 for c in hand if keep_score(c) >= 50)
    count = min(max(len(hand) - keepers, lo), hi)
    return Move.throw(ranked[:count])


@lru_cache(maxsize=None)
def plain_top(suit: str, aces_low: bool) -> Card:
    """The best plain card of a suit: its ace (the king in hearts, whose ace is a trump; the king with plain aces
    low). It can lose a trick only to a trump. Whatever the trump suit, this card is plain unless `suit` is trump."""
    ranks = [r for r in plain_order(suit, aces_low) if card(r, suit) != ACE_OF_HEARTS]
    return card(ranks[0], suit)


def _low_key(power: Mapping[Card, int]):
    # The cheapest card to give up: plain cards before trumps, each by its place.
    return lambda c: (power[c], c.suit, c.rank)


def lead_card(view: Mapping[str, Any], legal: Sequence[Card], power: Mapping[Card, int]) -> Card:
    """The bidder holding two or more trumps leads its highest trump, to pull the others' trumps; everyone else
    (and the bidder with one trump) leads its best plain card; a hand of trumps only leads its highest."""
    trumps = [c for c in legal if power[c] > TRUMP_BASE]
    plain = [c for c in legal if power[c] < TRUMP_BASE]
    if view["seat"] == view["bidder"] and len(trumps) >= 2:
        return max(trumps, key=power.__getitem__)
    if plain:
        return max(plain, key=lambda c: (power[c], c.suit, c.rank))
    return max(trumps, key=power.__getitem__)


def support_card(legal: Sequence[Card], win_card: Card, led: Card, opponent_after: bool, power: Mapping[Card, int],
                 aces_low: bool) -> Card:
    """The partner is winning the trick: play the lowest card, never a trump or a higher card over it — except
    when an opponent is still to play and the partner's card is a plain card below the top of its suit: then the
    bot plays the top card of the suit led if it holds it (only a trump can beat that card), else its lowest."""
    low = min(legal, key=_low_key(power))
    if not opponent_after or power[win_card] > TRUMP_BASE or power[led] > TRUMP_BASE:
        return low
    top = plain_top(led.suit, aces_low)
    if win_card != top and top in legal:
        return top
    return low


def play_choice(view: Mapping[str, Any], v: Variant, safe: bool) -> Move:
    """The bot's card (safe=False) or the timeout's safe card (safe=True): see docs/rules/120s-auction.md."""
    trump = view["trump"]
    power = power_table(trump, v.aces_low)
    legal = cards_of_texts(view["options"]["cards"])
    low = min(legal, key=_low_key(power))
    if safe:
        return Move.play(low)
    trick = view["trick"]
    seat = view["seat"]
    plays = [(s, card_from_str(c)) for s, c in trick["plays"]]
    if not plays:
        return Move.play(lead_card(view, legal, power))
    strength = make_strength(trump, v.aces_low)
    led = plays[0][1]
    win_seat, win_card = plays[0]
    for s, c in plays[1:]:
        if strength(c, led) > strength(win_card, led):
            win_seat, win_card = s, c
    if v.sides.partners and v.sides.same_side(win_seat, seat):
        # Seats still to play after this one: at a partnership table the next seat is always an opponent.
        opponent_after = len(plays) + 1 < v.players
        return Move.play(support_card(legal, win_card, led, opponent_after, power, v.aces_low))
    beat = [c for c in legal if strength(c, led) > strength(win_card, led)]
    if beat:
        return Move.play(min(beat, key=_low_key(power)))
    return Move.play(low)


def suggest(view: Mapping[str, Any], v: Variant) -> Move | None:
    if view.get("options") is None:
        return None
    if view["phase"] == "bidding":
        return bid_choice(view, v, allow_thirty=True)
    if view["phase"] == "trump":
        return Move.trump(best_suits(_hand(view), v)[0])
    return None


def bot_move(view: Mapping[str, Any], v: Variant, rng: Rng) -> Move:
    phase = view["phase"]
    if phase == "bidding":
        return bid_choice(view, v, allow_thirty=False)
    if phase == "trump":
        ties = best_suits(_hand(view), v)
        return Move.trump(ties[rng.randbelow(len(ties))] if len(ties) > 1 else ties[0])
    if phase in ("kitty", "throw"):
        return throw_choice(view, v)
    return play_choice(view, v, safe=False)


def timeout_move(view: Mapping[str, Any], v: Variant) -> Move:
    phase = view["phase"]
    if phase == "bidding":
        return bid_choice(view, v, allow_thirty=True)
    if phase == "trump":
        return Move.trump(best_suits(_hand(view), v)[0])
    if phase in ("kitty", "throw"):
        return throw_choice(view, v)
    return play_choice(view, v, safe=True)
