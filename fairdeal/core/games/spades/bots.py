"""The table's pencil tick, the timeout card and the bot of Spades (docs/rules/spades.md), each a pure function of
one seat's view: `safe_card_of` / `bot_card_of` decide from the facts they read (`SpadesPosition`), made from the
view (the general path) or from the state (the fast path for the audit)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fairdeal.core.cards import PACK_52, Card, card_from_str, cards_of_texts
from fairdeal.core.games.base import Position, Rng
from fairdeal.core.games.seats import Sides

from .follow import HAND_SIZE, SPADE, legal_cards, sort_cards, strength, winner_of

if TYPE_CHECKING:
    from .state import SpadesState


def suggested_bid(hand: Sequence[Card]) -> int:
    """What the hand is worth in tricks (docs/rules/spades.md, "The suggested bid"). Never nil: at least 1."""
    by_suit: dict[str, list[int]] = {"C": [], "D": [], "H": [], "S": []}  # each suit's ranks held
    for c in hand:
        by_suit[c.suit].append(c.rank)
    spades = by_suit[SPADE]
    worth = 0.0
    # Spades: A always, K with another spade, Q with two others; every spade past the third is a long trump.
    honours = sum(1 for r, need in ((14, 1), (13, 2), (12, 3)) if r in spades and len(spades) >= need)
    spade_tricks = honours + max(0, len(spades) - 3)
    worth += spade_tricks
    spare_spades = len(spades) - spade_tricks
    for suit in "CDH":
        ranks = by_suit[suit]
        n = len(ranks)
        if 14 in ranks:
            worth += 1 if n <= 5 else 0.5  # a long suit's ace may be trumped
        if 13 in ranks and 2 <= n <= 4:
            worth += 1 if 14 in ranks else 0.5  # a king behind the ace is good; alone, a guess
        if 12 in ranks and 3 <= n <= 4 and 14 in ranks and 13 in ranks:
            worth += 0.5
        # Short side suits ruff with spades the count above did not already use.
        ruffs = 2 if n == 0 else 1 if n == 1 else 0
        used = min(ruffs, spare_spades)
        worth += used
        spare_spades -= used
    return max(1, min(HAND_SIZE, int(worth + 0.5)))


@dataclass(slots=True, eq=False)
class SpadesPosition(Position):
    """The facts the bid, the timeout and bot cards are chosen from: one seat's, each parsed once (in the bidding,
    only the hand is read: the trick and the legal cards are empty).

    Two makers, one decision (fairdeal.core.games.base.Position): `of_view(view)` reads the seat's view (the
    general path: SpadesRules.bot_move / timeout_move, a pure function of the view) and `of_state(state, seat)`
    reads the engine's own objects (the fast path GameState.bot_move / timeout_move take, which the audit replays
    with; no card text is written or read back). tests/games/spades/test_policy_input.py and
    tests/games/conformance/test_positions.py hold the two makers' facts equal, and
    tests/games/conformance/test_policies.py the moves chosen from them, at every decision of whole games."""

    phase: str  # "bid", else a card decision
    seat: int
    hand: list[Card]  # in the view's order (sort_cards)
    trick: list[tuple[int, Card]]  # the trick in progress, (seat, card) in play order
    legal: list[Card]  # the cards legal_cards allows, in the hand's order
    bids: list[int | None]
    taken: list[int]  # tricks taken this hand, by seat
    played_of: Callable[[], set[Card]] = field(compare=False, repr=False)  # makes `played`, within the call
    # worked out once from `trick` (every legal card is asked whether it beats the trick so far):
    win: tuple[int, Card] | None = field(init=False)  # the seat and card taking the trick, None when leading
    _to_beat: int = field(init=False, compare=False, repr=False)  # the strength of win's card
    _known: set[Card] | None = field(init=False, default=None, compare=False, repr=False)
    _tops: dict[str, int] | None = field(init=False, default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        trick = self.trick
        if trick:
            self.win = winner_of(trick)
            self._to_beat = strength(self.win[1], trick[0][1])
        else:
            self.win, self._to_beat = None, -1

    @classmethod
    def of_view(cls, view: Mapping[str, Any]) -> SpadesPosition:
        """From the seat's view: the general path."""
        hand = cards_of_texts(view["hand"])
        if view["phase"] == "bid":
            return cls("bid", view["seat"], hand, [], [], list(view["bids"]), list(view["tricks_taken"]), set)
        trick = [(s, card_from_str(c)) for s, c in view["trick"]["plays"]]
        legal = legal_cards(hand, [c for _, c in trick], view["spades_broken"])

        def played() -> set[Card]:
            done = cards_of_texts([c for t in view["tricks"] for _, c in t["plays"]])
            return set(done) | {c for _, c in trick}

        return cls(
            view["phase"], view["seat"], hand, trick, legal, list(view["bids"]), list(view["tricks_taken"]), played
        )

    @classmethod
    def of_state(cls, state: SpadesState, seat: int) -> SpadesPosition:  # type: ignore[override]
        """From the engine's state, as `of_view(state.view(seat))` makes them: the fast path. The lists are copies
        (the state is never changed); `played` reads the state, so it is asked before the state moves on (within
        the same policy call, as the view's). The state keeps each hand in the pack's order, the view's
        (sort_cards): the hand is a copy, not sorted again; and the set of the cards played (a copy: no list of the
        tricks)."""
        play = state.play
        hand = list(state.hands[seat])
        if play is None:
            return cls("bid", seat, hand, [], [], list(state.bids), state._tricks_taken(), set)
        trick = list(play.current.plays)
        legal = legal_cards(hand, [c for _, c in trick], state.spades_broken)
        played = state._played
        return cls(state.phase, seat, hand, trick, legal, list(state.bids), state._tricks_taken(), lambda: set(played))

    def facts(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "seat": self.seat,
            "hand": self.hand,
            "trick": self.trick,
            "legal": self.legal,
            "bids": self.bids,
            "taken": self.taken,
            "played": self.played(),
        }

    def played(self) -> set[Card]:
        """Every card played this hand, current trick included: made when asked (only the test for a master card
        asks, through `known`), so most moves never read the completed tricks."""
        return self.played_of()

    def known(self) -> set[Card]:
        """The cards no other hand holds: this hand and every card played (made once, when first asked)."""
        if self._known is None:
            self._known = self.played() | set(self.hand)
        return self._known

    def top_unknown(self, suit: str) -> int:
        """The highest rank of `suit` some other hand may hold (in no hand: 1), worked out once a suit."""
        tops = self._tops
        if tops is None:
            tops = self._tops = {}
        top = tops.get(suit)
        if top is None:
            known, top = self.known(), 14
            while (top, suit) in known:  # a Card is its (rank, suit) tuple
                top -= 1
            tops[suit] = top
        return top

    def beats(self, card: Card) -> bool:
        """Whether `card` would take the trick as it stands (any card does when leading)."""
        return self.win is None or strength(card, self.trick[0][1]) > self._to_beat


# Each card's key for _pick, looked up (a policy asks it of every legal card):
# lowest first, a spade only when nothing else is left (spades are worth keeping);
_low_key = {c: (c.suit == SPADE, c.rank) for c in PACK_52}.__getitem__
# for ducking, the highest: a non-spade above every spade.
_duck_key = {c: (c.suit != SPADE, c.rank) for c in PACK_52}.__getitem__


def _pick(cards: Sequence[Card], key: Callable[[Card], Any], rng: Rng | None, highest: bool = False) -> Card:
    """The card with the lowest (or highest) key; among equal keys the first by suit, or rng's tie-break."""
    keys = list(map(key, cards))
    best = (max if highest else min)(keys)
    if keys.count(best) == 1:
        return cards[keys.index(best)]
    tied = sort_cards([c for c, k in zip(cards, keys, strict=True) if k == best])
    return tied[rng.randbelow(len(tied))] if rng is not None else tied[0]


def _duck(seen: SpadesPosition, rng: Rng | None) -> Card:
    """The highest card that does not take the trick so far (non-spades first); if every legal card takes it,
    or when leading, the lowest card."""
    losers = [c for c in seen.legal if not seen.beats(c)] if seen.trick else []
    if losers:
        return _pick(losers, _duck_key, rng, highest=True)
    return _pick(seen.legal, _low_key, rng)


def _cheapest_winner(seen: SpadesPosition, rng: Rng | None) -> Card | None:
    """The lowest legal card that takes the trick as it stands (None when leading or when none does)."""
    winners = [c for c in seen.legal if seen.beats(c)] if seen.trick else []
    return _pick(winners, lambda c: strength(c, seen.trick[0][1]), rng) if winners else None


def safe_card(view: Mapping[str, Any], sides: Sides, rng: Rng | None = None) -> Card:
    """The timeout card (docs/rules/spades.md, "The safe card"), from the seat's view."""
    return safe_card_of(SpadesPosition.of_view(view), sides, rng)


def safe_card_of(seen: SpadesPosition, sides: Sides, rng: Rng | None = None) -> Card:
    """The timeout card, from the facts it reads (either maker's SpadesPosition)."""
    seat = seen.seat
    if seen.bids[seat] == 0:
        return _duck(seen, rng)
    win = seen.win
    partner = sides.partner_of(seat)
    if win is not None and win[0] == partner and seen.bids[partner] != 0:
        return _pick(seen.legal, _low_key, rng)
    return _cheapest_winner(seen, rng) or _pick(seen.legal, _low_key, rng)


def _is_master(card: Card, seen: SpadesPosition) -> bool:
    """True when no unplayed card of the suit outside this hand ranks above `card`."""
    return seen.top_unknown(card.suit) <= card.rank


def bot_card(view: Mapping[str, Any], sides: Sides, rng: Rng) -> Card:
    """The bot's card (docs/rules/spades.md, "The bot"), from the seat's view."""
    return bot_card_of(SpadesPosition.of_view(view), sides, rng)


def bot_card_of(seen: SpadesPosition, sides: Sides, rng: Rng) -> Card:
    """The bot's card, from the facts it reads (either maker's SpadesPosition)."""
    seat = seen.seat
    partner = sides.partner_of(seat)
    bids = seen.bids
    mine, theirs = bids[seat], bids[partner] if partner is not None else None
    # Spades is four players in partnerships, and cards are played only once every seat has bid
    assert partner is not None and mine is not None and theirs is not None
    if bids[seat] == 0:  # keep our own nil
        return _duck(seen, rng)
    win = seen.win
    if bids[partner] == 0 and win is not None and win[0] == partner:
        # Cover the partner's nil: take the trick away from them, as cheaply as we can.
        cover = _cheapest_winner(seen, rng)
        if cover is not None:
            return cover
    taken = seen.taken
    counted = (taken[seat] if mine != 0 else 0) + (taken[partner] if theirs != 0 else 0)
    contract = mine + theirs
    if counted >= contract:  # contract in: duck to avoid bags
        return _duck(seen, rng)
    if not seen.trick:
        masters = [c for c in seen.legal if c.suit != SPADE and _is_master(c, seen)]
        if masters:
            return _pick(masters, lambda c: c.rank, rng, highest=True)
        return _pick(seen.legal, _low_key, rng)
    if win is not None and win[0] == partner and (len(seen.trick) == 3 or _is_master(win[1], seen)):
        return _pick(seen.legal, _low_key, rng)  # partner has it
    return _cheapest_winner(seen, rng) or _pick(seen.legal, _low_key, rng)
