"""The table's suggestion, the bot and the timeout policy of 120s: pure functions of one seat's view.

One hand evaluation serves all three (docs/rules/120s-auction.md "The suggestion, the bots and the timeout policy"):
`suit_values`/`hand_ceiling` estimate the points the bidding side takes with this hand as the bidder (the hand's own
cards, plus a fixed share for the partner and for the kitty and the draw), under the best trump suit. The bid the
table suggests is the *lowest* bid the seat may make that the value covers (open at 15, keeping 20 and 25 for
outbidding somebody); 30 only for a hand of five trumps holding the 5, the J and the ace of hearts. The bot says
what the suggestion says, except that it never bids 30 (nor takes a 30 with Mine). Both play as a partnership at a
4-player table: neither outbids nor takes ("Mine", dealer-can-take-it) the partner's standing bid, it passes instead
(the timeout too, which bids as the suggestion). In play the bot never
overtakes or trumps a trick its partner is winning unless the rules force it, except with its own top card of the
plain suit led when an opponent is still to play (see `support_card`); the bidder leads trumps (`lead_card`).
Nothing here counts cards still out (120s-auction's bots do not count the drumpfs still out).

The decisions read a `Position` (the facts of one seat's position, as Cards; fairdeal.core.games.base.Position),
never the view itself: made from the seat's view (`Position.of_view`, a `ViewPosition`: the general path, the
rules' bot_move, timeout_move and suggest) or from the engine's own objects (`Position.of_state`, a
`StatePosition`: the fast path GameState.bot_move / timeout_move give the audit). The decisions exist once; the
conformance suite (tests/games/conformance/test_policies.py) holds the two paths' answers equal at every decision.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any, NamedTuple

from fairdeal.core.cards import PACK_52, SUITS, Card, card, card_from_str, cards_of_texts
from fairdeal.core.fastpath import fast_path
from fairdeal.core.games.base import Move, Rng
from fairdeal.core.games.base import Position as BasePosition

from .bidding import Options
from .moves import MINE_MOVE, PASS_MOVE, REDEAL_MOVE, bid_move, trump_move
from .ranks import ACE_OF_HEARTS, TRUMP_BASE, is_trump, make_beaters, make_winner, plain_order, power_table
from .variant import Variant

# What one card is worth, in points the bidder's side can expect, when its suit is trump (by trump place).
TOP_VALUES = {5: 9.0, 11: 6.0}  # the 5 and the J of trumps
ACE_OF_HEARTS_VALUE = 5.0
TRUMP_ACE_VALUE = 4.0
KING_VALUE, QUEEN_VALUE, SMALL_TRUMP_VALUE = 3.0, 2.5, 1.5
PLAIN_TOP_VALUE = 2.0  # the best card of a plain suit (the ace; the king with plain aces low)
PARTNER_AND_KITTY = 7.0  # the partner's share and the help of the kitty and the draw
ALONE_AND_KITTY = 4.0  # 120s-house with two or three players: no partner


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


def card_values_one_by_one(trump: str, aces_low: bool) -> dict[Card, float]:
    """{c: card_value(c, trump, aces_low) for c in PACK_52}: card_values' general form (made anew each call)."""
    return {c: card_value(c, trump, aces_low) for c in PACK_52}


@cache
@fast_path(general=card_values_one_by_one)
def card_values(trump: str, aces_low: bool) -> dict[Card, float]:
    """card_value(c, trump, aces_low) of every card, made once: a hand is valued under each suit at every bid."""
    return {c: card_value(c, trump, aces_low) for c in PACK_52}


@cache
def suit_value_rows(aces_low: bool) -> dict[Card, tuple[float, ...]]:
    """card -> its card_values under each suit, in SUITS order, made once: a hand's values under the four suits
    are then the sums of its cards' rows, column by column, in the hand's order."""
    tables = [card_values(s, aces_low) for s in SUITS]
    return {c: tuple(t[c] for t in tables) for c in PACK_52}


# A card's four values (SUITS order) packed into one int, in half points, _FIELD bits each: every value is a whole
# number of halves from 0 to 18, so the sums of a whole pack's values fit each field with room to spare, and
# summing a hand's codes sums its four columns at once, exactly.
assert len(SUITS) == 4
_FIELD = 16
_MASK = (1 << _FIELD) - 1


@cache
def suit_value_codes(aces_low: bool) -> dict[Card, int]:
    """card -> its suit_value_rows row packed into one int (see _FIELD), made once."""
    out = {}
    for c, row in suit_value_rows(aces_low).items():
        halves = [int(x * 2) for x in row]
        assert [h / 2 for h in halves] == list(row) and max(halves) * len(PACK_52) <= _MASK
        out[c] = sum(h << (_FIELD * i) for i, h in enumerate(halves))
    return out


@fast_path(general=lambda hand, v: suit_sums_by_rows(hand, v))
def _suit_sums(hand: Sequence[Card], v: Variant) -> list[float]:
    """sum(card_values(s, v.aces_low)[c] for c in hand) for each suit s of SUITS: the sums of suit_value_rows'
    columns (suit_sums_by_rows), read from the sum of the hand's packed codes."""
    total = sum(map(suit_value_codes(v.aces_low).__getitem__, hand))
    return [
        (total & _MASK) / 2,
        (total >> _FIELD & _MASK) / 2,
        (total >> 2 * _FIELD & _MASK) / 2,
        (total >> 3 * _FIELD) / 2,
    ]


def suit_sums_by_rows(hand: Sequence[Card], v: Variant) -> list[float]:
    """_suit_sums column by column from suit_value_rows (the general form; the tests hold the two equal)."""
    rows = suit_value_rows(v.aces_low)
    return [sum(column) for column in zip(*map(rows.__getitem__, hand), strict=True)] or [0.0] * len(SUITS)


def _extra(v: Variant) -> float:
    return PARTNER_AND_KITTY if v.sides.partners else ALONE_AND_KITTY


def suit_values(hand: Sequence[Card], v: Variant) -> dict[str, float]:
    """The points the hand is worth to the bidding side under each trump suit (see the module doc)."""
    extra = _extra(v)
    return {s: extra + x for s, x in zip(SUITS, _suit_sums(hand, v), strict=True)}


def best_suits(hand: Sequence[Card], v: Variant) -> list[str]:
    """The suits of the highest suit_values, in SUITS order. The values are sums of halves, exact in floating
    point, so comparing the sums before the same `extra` is added compares the values."""
    sums = _suit_sums(hand, v)
    top = max(sums)
    return [s for s, x in zip(SUITS, sums, strict=True) if x == top]


def sees_every_trick(hand: Sequence[Card], trump: str) -> bool:
    """A 30 hand: five trumps with the 5, the J and the ace of hearts."""
    return (
        len(hand) == 5
        and all(is_trump(c, trump) for c in hand)
        and {(5, trump), (11, trump), (14, "H")} <= {(c.rank, c.suit) for c in hand}
    )


def hand_ceiling(hand: Sequence[Card], v: Variant) -> int:
    """The highest bid this hand is worth (0: none)."""
    value = _extra(v) + max(_suit_sums(hand, v))  # max(suit_values(hand, v).values()), as best_suits
    if ACE_OF_HEARTS in hand and any(sees_every_trick(hand, s) for s in SUITS):  # a 30 hand holds it
        return 30
    fits = [b for b in v.bids if b <= value and b < 30]
    return fits[-1] if fits else 0


class Position(BasePosition):
    """What the policies read of one seat's position (the seat to move): its phase, seat, trump suit (None before
    it is named) and bidder, and the facts only some phases read, each made only when asked (a property: the
    decisions ask each at most once), so a card play never pays for the bidding: `hand` (its cards, sorted as the
    view lists them), `legal` (the cards it may play), `plays` (the trick's (seat, Card) so far), `bid_options`,
    `high` / `holder` (the standing bid and whose it is) and `throw_bounds` ((least, most) cards to throw). The
    decisions only read them (never change a list: a StatePosition's are the state's own).

    Two makers: `of_view`, a `ViewPosition` (from the seat's view: the general path) and `of_state`, a
    `StatePosition` (from the engine's own objects: the fast path). Two positions are equal when their facts for
    the phase are: the two makers agree at every decision of whole games (tests/games/onetwenty/
    test_policy_positions.py, tests/games/conformance/test_positions.py), and so do the moves chosen from them
    (tests/games/conformance/test_policies.py)."""

    phase: str
    seat: int
    trump: str | None
    bidder: int | None
    hand: Sequence[Card]
    legal: Sequence[Card]
    plays: Sequence[tuple[int, Card]]
    bid_options: Options
    high: int | None
    holder: int | None
    throw_bounds: tuple[int, int]

    PHASE_FACTS = {
        "bidding": ("hand", "bid_options", "high", "holder"),
        "trump": ("hand",),
        "kitty": ("hand", "throw_bounds"),
        "throw": ("hand", "throw_bounds"),
        "play": ("legal", "plays"),
    }

    @classmethod
    def of_view(cls, view: Mapping[str, Any]) -> ViewPosition:
        return ViewPosition(view)

    @classmethod
    def of_state(cls, state: Any, seat: int) -> StatePosition:
        return StatePosition(state, seat)

    def facts(self) -> dict[str, Any]:
        """Every fact a policy may read in this phase (reading them all: for comparing positions)."""
        out = {"phase": self.phase, "seat": self.seat, "trump": self.trump, "bidder": self.bidder}
        for name in self.PHASE_FACTS.get(self.phase, ()):
            out[name] = getattr(self, name)
        return out


class ViewPosition(Position):
    """A Position read from the seat's view (the general path: a pure function of the view, as the verifier and
    the clients have it): card texts parsed back into Cards. Each fact is read from the view when asked (the
    decisions ask each at most once; a LazyView makes its entries once)."""

    def __init__(self, view: Mapping[str, Any]):
        self.view = view
        self.phase, self.seat = view["phase"], view["seat"]

    @property
    def trump(self) -> str | None:
        return self.view["trump"]

    @property
    def bidder(self) -> int | None:
        return self.view["bidder"]

    @property
    def hand(self) -> list[Card]:
        return cards_of_texts(self.view["hand"])

    @property
    def legal(self) -> list[Card]:
        return cards_of_texts(self.view["options"]["cards"])

    @property
    def plays(self) -> list[tuple[int, Card]]:
        return [(s, card_from_str(c)) for s, c in self.view["trick"]["plays"]]

    @property
    def bid_options(self) -> Options:
        o = self.view["options"]
        return Options(list(o["bids"]), o["pass"], o["mine"], o["redeal"])

    @property
    def high(self) -> int | None:
        return self.view["bidding"]["high"]

    @property
    def holder(self) -> int | None:
        return self.view["bidding"]["holder"]

    @property
    def throw_bounds(self) -> tuple[int, int]:
        o = self.view["options"]
        return o["throw_min"], o["throw_max"]


class StatePosition(Position):
    """A Position read from OneTwentyState's own objects (_bot_move's fast path, which the audit replays with: no view,
    no card texts). The facts are the state's own lists, read only, each read from the state when asked. Ask it before
    the state changes."""

    def __init__(self, state: Any, seat: int):
        self.state = state
        self.phase, self.seat, self.trump, self.bidder = state.phase, seat, state.trump, state.bidder

    @property
    def hand(self) -> list[Card]:
        return self.state.hands[self.seat]

    @property
    def legal(self) -> list[Card]:
        return self.state.playable_now(self.seat)

    @property
    def plays(self) -> list[tuple[int, Card]]:
        return self.state.play.current.plays

    @property
    def bid_options(self) -> Options:
        return self.state.bidding.options(self.seat)

    @property
    def high(self) -> int | None:
        return self.state.bidding.high

    @property
    def holder(self) -> int | None:
        return self.state.bidding.holder

    @property
    def throw_bounds(self) -> tuple[int, int]:
        return self.state._throw_bounds(self.seat)


def partner_holds_bid(pos: Position, v: Variant) -> bool:
    """The standing bid is this seat's partner's (only at a 4-player table: with 2 or 3 everyone is alone)."""
    if not v.sides.partners:
        return False
    holder, seat = pos.holder, pos.seat
    return holder is not None and holder != seat and v.sides.same_side(holder, seat)


def bid_choice(pos: Position, v: Variant, allow_thirty: bool) -> Move:
    opts = pos.bid_options
    if opts.can_pass and partner_holds_bid(pos, v):
        return PASS_MOVE  # never outbid or take the partner's bid: the side has it already
    ceiling = hand_ceiling(pos.hand, v)
    if not allow_thirty:
        ceiling = min(ceiling, 25)
    if opts.can_mine:
        high = pos.high
        if high is not None and high <= ceiling:
            return MINE_MOVE  # taking at the same amount is the smallest step there is
    fits = [b for b in opts.bids if b <= ceiling]
    if fits:
        return bid_move(min(fits))
    if opts.can_pass:
        return PASS_MOVE
    if opts.can_redeal:
        return REDEAL_MOVE
    return bid_move(min(opts.bids))  # stuck: the one bid left


def throw_choice(pos: Position, v: Variant) -> Move:
    """Keep the trumps and the best card of each plain suit, strongest first, as many as five; throw the rest,
    within the number the seat must or may throw."""
    hand = pos.hand
    order = keep_order(pos.trump, v.aces_low)
    lo, hi = pos.throw_bounds
    ranked = sorted(hand, key=order.__getitem__)  # weakest first (a new list: the hand is not changed)
    keepers = sum(1 for c in hand if order[c][0] >= KEEP)
    count = min(max(len(hand) - keepers, lo), hi)
    return Move.throw(ranked[:count])


KEEP = 50  # a keeper's score: above every plain card's power, below every trump's


@cache
def keep_order(trump: str, aces_low: bool) -> dict[Card, tuple[int, str, int]]:
    """card -> its place in the throw's order, weakest first: (keep score, suit, rank), the keep score being a
    trump's power, KEEP for the top card of a plain suit, else the plain card's power. Made once per trump suit."""
    power = power_table(trump, aces_low)

    def score(c: Card) -> int:
        p = power[c]
        return p if p > TRUMP_BASE else (KEEP if c == plain_top(c.suit, aces_low) else p)

    return {c: (score(c), c.suit, c.rank) for c in PACK_52}


@cache
def plain_top(suit: str, aces_low: bool) -> Card:
    """The best plain card of a suit: its ace (the king in hearts, whose ace is a trump; the king with plain aces
    low). It can lose a trick only to a trump. Whatever the trump suit, this card is plain unless `suit` is trump."""
    ranks = [r for r in plain_order(suit, aces_low) if card(r, suit) != ACE_OF_HEARTS]
    return card(ranks[0], suit)


class PlayTables(NamedTuple):
    """What the play reads under one trump suit, looked up once a decision (play_tables)."""

    power: Mapping[Card, int]  # ranks.power_table
    give_up: Mapping[Card, tuple[int, str, int]]  # the cheapest card to give up first: min by this
    winner: Callable[[Sequence[tuple[int, Card]]], tuple[int, Card]]  # ranks.make_winner
    beaters: Callable[[Sequence[Card], Card, Card], list[Card]]  # ranks.make_beaters


@cache
def play_tables(trump: str, aces_low: bool) -> PlayTables:
    """The tables of the play under this trump suit, made once. `give_up`: card -> (power, suit, rank), plain
    cards before trumps, each by its place (a king is a king in every suit, so ties go by suit and rank)."""
    power = power_table(trump, aces_low)
    return PlayTables(
        power,
        {c: (power[c], c.suit, c.rank) for c in PACK_52},
        make_winner(trump, aces_low),
        make_beaters(trump, aces_low),
    )


def lead_card(
    pos: Position, legal: Sequence[Card], power: Mapping[Card, int], order: Mapping[Card, tuple[int, str, int]]
) -> Card:
    """The bidder holding two or more trumps leads its highest trump, to pull the others' trumps; everyone else
    (and the bidder with one trump) leads its best plain card; a hand of trumps only leads its highest."""
    trumps = [c for c in legal if power[c] > TRUMP_BASE]
    plain = [c for c in legal if power[c] < TRUMP_BASE]
    if pos.seat == pos.bidder and len(trumps) >= 2:
        return max(trumps, key=power.__getitem__)
    if plain:
        return max(plain, key=order.__getitem__)
    return max(trumps, key=power.__getitem__)


def support_card(
    legal: Sequence[Card],
    low: Card,
    win_card: Card,
    led: Card,
    opponent_after: bool,
    power: Mapping[Card, int],
    aces_low: bool,
) -> Card:
    """The partner is winning the trick: play the lowest card, never a trump or a higher card over it — except
    when an opponent is still to play and the partner's card is a plain card below the top of its suit: then the
    bot plays the top card of the suit led if it holds it (only a trump can beat that card), else its lowest
    (`low`, the cheapest legal card to give up)."""
    if not opponent_after or power[win_card] > TRUMP_BASE or power[led] > TRUMP_BASE:
        return low
    top = plain_top(led.suit, aces_low)
    if win_card != top and top in legal:
        return top
    return low


def play_choice(pos: Position, v: Variant, safe: bool) -> Move:
    """The bot's card (safe=False) or the timeout's safe card (safe=True): see docs/rules/120s-auction.md."""
    aces_low = v.aces_low
    tables = play_tables(pos.trump, aces_low)
    order = tables.give_up
    legal = pos.legal
    cheapest = order.__getitem__
    if safe or not legal:  # the cheapest card (no card: min's own error, before anything else is read)
        return Move.play(min(legal, key=cheapest))
    power = tables.power
    plays = pos.plays
    if not plays:
        return Move.play(lead_card(pos, legal, power, order))
    low = min(legal, key=cheapest)  # (before the trick is read: a card outside the tables fails here first)
    led = plays[0][1]
    win_seat, win_card = tables.winner(plays)  # trick_winner under make_strength, at once
    sides = v.sides
    if sides.partners and sides.same_side(win_seat, pos.seat):
        # Seats still to play after this one: at a partnership table the next seat is always an opponent.
        opponent_after = len(plays) + 1 < v.players
        return Move.play(support_card(legal, low, win_card, led, opponent_after, power, aces_low))
    beat = tables.beaters(legal, win_card, led)  # the cards whose strength beats win_card's
    return Move.play(min(beat, key=cheapest) if beat else low)


def suggest(view: Mapping[str, Any], v: Variant) -> Move | None:
    """The table's suggestion: a function of the seat's view (the clients ask it), through its ViewPosition."""
    if view.get("options") is None:
        return None
    phase = view["phase"]
    if phase == "bidding":
        return bid_choice(ViewPosition(view), v, allow_thirty=True)
    if phase == "trump":
        return trump_move(best_suits(ViewPosition(view).hand, v)[0])
    return None


def bot_choice(pos: Position, v: Variant, rng: Rng) -> Move:
    """The bot's move at this position (either maker's: the decision is the same)."""
    phase = pos.phase
    if phase == "bidding":
        return bid_choice(pos, v, allow_thirty=False)
    if phase == "trump":
        ties = best_suits(pos.hand, v)
        return trump_move(ties[rng.randbelow(len(ties))] if len(ties) > 1 else ties[0])
    if phase in ("kitty", "throw"):
        return throw_choice(pos, v)
    return play_choice(pos, v, safe=False)


def timeout_choice(pos: Position, v: Variant) -> Move:
    """The timeout's move at this position (either maker's)."""
    phase = pos.phase
    if phase == "bidding":
        return bid_choice(pos, v, allow_thirty=True)
    if phase == "trump":
        return trump_move(best_suits(pos.hand, v)[0])
    if phase in ("kitty", "throw"):
        return throw_choice(pos, v)
    return play_choice(pos, v, safe=True)
