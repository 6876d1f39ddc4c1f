"""The bot, the timeout move and the table's suggestion of Twenty Down: the seed's tips for beginners, made exact
(docs/rules/twenty-down.md). They decide from `TwentyDownPosition`, the facts they read, made from a seat's view
(the general path: TwentyDownRules.bot_move / timeout_move / suggest) or from the state (the fast path the audit
replays with: GameState.bot_move / timeout_move); tests hold the two equal at every decision."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from fairdeal.core.cards import Card, card_from_str, cards_of_texts
from fairdeal.core.games.base import FirstChoiceRng, IllegalMove, Move, Position, Rng

from .follow import MAX_THROW, legal_plays
from .ranks import SUITS, Order

if TYPE_CHECKING:
    from .state import TwentyDownState

# the policies' word moves, made once (a Move never changes)
_PASS, _NEWDEAL, _STAY, _DROP = (Move(k) for k in ("pass", "newdeal", "stay", "drop"))
_KEEP_ALL = Move.throw(())


def timeout_decision(order: Order, seen: TwentyDownPosition) -> Move:
    """The safe move: look rather than go blind, the suggested trump (never next nor a new deal), keep every
    card, stay or drop as the table suggests, play the lowest legal card."""
    phase, hand = seen.phase, seen.hand
    if phase == "play":  # asked first: most decisions are cards
        legal = legal_plays(hand, seen.plays, seen.trump)
        value = order.values(seen.trump)
        return Move.play(min(legal, key=lambda c: (value[c], SUITS.index(c.suit))))
    if phase == "blind":
        return _PASS
    if phase == "trump":
        return Move.trump(_trump_choice(order, hand, FirstChoiceRng()))
    if phase == "exchange":
        return _KEEP_ALL
    if phase == "stay":
        return _stay_choice(order, seen)
    raise IllegalMove("There is nothing to decide now.")


def bot_decision(order: Order, seen: TwentyDownPosition, rng: Rng) -> Move:
    """The bot's move (and the table's suggestion): the seed's tips for beginners, made exact."""
    phase, hand = seen.phase, seen.hand
    if phase == "play":  # asked first: most decisions are cards
        return Move.play(_play_choice(order, seen, rng))
    if phase == "blind":
        return _PASS  # a bot always looks
    if phase == "trump":
        if seen.newdeal_allowed:
            return _NEWDEAL  # only 7s and 8s: ask for a new deal
        return Move.trump(_trump_choice(order, hand, rng))
    if phase == "exchange":
        return Move.throw(_throw_choice(order, hand, seen.trump))
    if phase == "stay":
        return _stay_choice(order, seen)
    raise IllegalMove("There is nothing to decide now.")


def _trump_choice(order: Order, hand: Sequence[Card], rng: Rng) -> str:
    """'With two cards of one suit, or an Ace, name that suit': most cards, then an Ace, then the best card;
    a hidden (blind) hand names spades, which neither doubles nor keeps everyone in."""
    if not hand:
        return "S"

    def key(suit: str) -> tuple[int, bool, int]:
        own = [c for c in hand if c.suit == suit]
        return (len(own), any(c.rank == 14 for c in own), max(order.trump[c.rank] for c in own))

    held = sorted({c.suit for c in hand}, key=SUITS.index)
    best = max(key(s) for s in held)
    tied = [s for s in held if key(s) == best]
    return _pick(tied, rng)


def _is_low_side_card(order: Order, card: Card, trump: str | None) -> bool:
    """'Low cards in side suits': a non-trump below the top three of its suit's order."""
    return card.suit != trump and order.plain[card.rank] <= len(order.plain_ranks) - 3


def _throw_choice(order: Order, hand: Sequence[Card], trump: str | None) -> list[Card]:
    low = [c for c in hand if _is_low_side_card(order, c, trump)]
    value = order.values(trump)
    low.sort(key=lambda c: (value[c], SUITS.index(c.suit)))
    return low[:MAX_THROW]


def hand_strength(order: Order, hand: Sequence[Card], trump: str | None) -> float:
    """Expected tricks, roughly: a top-three trump 1, any other trump 1/2, a side Ace (top card) 3/4."""
    total = 0.0
    top_trumps = set(order.trump_ranks[:3])
    for c in hand:
        if c.suit == trump:
            total += 1.0 if c.rank in top_trumps else 0.5
        elif c.rank == order.plain_ranks[0]:
            total += 0.75
    return total


def _stay_choice(order: Order, seen: TwentyDownPosition) -> Move:
    """'Drop out with a weak hand': stay with about one trick (one and a half with hearts, which doubles)."""
    if not seen.may_drop:
        return _STAY
    need = 1.5 if seen.trump == "H" else 1.0
    return _STAY if hand_strength(order, seen.hand, seen.trump) >= need else _DROP


def _play_choice(order: Order, seen: TwentyDownPosition, rng: Rng) -> Card:
    """Lead a side Ace, else the highest trump, else the lowest card; follow with the cheapest card that
    wins, else the cheapest legal card."""
    trump, plays = seen.trump, seen.plays
    legal = legal_plays(seen.hand, plays, trump)
    value = order.values(trump).__getitem__
    if not plays:
        ace = order.plain_ranks[0]
        aces = [c for c in legal if c.suit != trump and c.rank == ace]
        trumps = [c for c in legal if c.suit == trump]
        if aces:
            return _pick(aces, rng)
        if trumps:
            return max(trumps, key=value)
        low = min(value(c) for c in legal)
        lows = [c for c in legal if value(c) == low]
        return _pick(lows, rng)
    strength = order.strength(trump)
    led = plays[0][1]
    best = max(strength(c, led) for _, c in plays)
    winners = [c for c in legal if strength(c, led) > best]
    pool = winners or legal
    if len(pool) == 1:
        return pool[0]
    return min(pool, key=lambda c: (strength(c, led), value(c), SUITS.index(c.suit)))


_T = TypeVar("_T")


def _pick(items: Sequence[_T], rng: Rng) -> _T:
    """A tie-break: the rng is asked only when there is a real choice."""
    return items[rng.randbelow(len(items))] if len(items) > 1 else items[0]


def _trick_plays(view: Mapping[str, Any]) -> list[tuple[int, Card]]:
    trick = view.get("trick")
    return [(s, card_from_str(c)) for s, c in trick["plays"]] if trick else []


@dataclass(slots=True, eq=False)
class TwentyDownPosition(Position):
    """The facts the bot, the timeout and the suggestion decide from: one seat's, each read once.

    Two makers, one decision (bot_decision / timeout_decision; fairdeal.core.games.base.Position): `of_view(view)`
    reads the seat's view (the general path: the rules' bot_move / timeout_move / suggest, pure functions of the
    view) and `of_state(state, seat)` reads the engine's own objects (the fast path GameState.bot_move /
    timeout_move take, which the audit replays with; no card text written or read back).
    tests/games/twenty_down/test_policy_input.py and tests/games/conformance/test_positions.py hold the two makers'
    facts equal, and
    tests/games/conformance/test_policies.py the moves chosen from them, at every decision of whole games."""

    phase: str
    hand: list[Card]  # as the view lists them; [] while the hand is hidden
    trump: str | None
    plays: list[tuple[int, Card]]  # the trick in progress; [] outside the play
    may_drop: bool
    newdeal_allowed: bool

    @classmethod
    def of_view(cls, view: Mapping[str, Any]) -> TwentyDownPosition:
        """From the seat's view: the general path."""
        return cls(
            view["phase"],
            cards_of_texts(view["hand"] or []),
            view["trump"],
            _trick_plays(view),
            bool(view.get("may_drop")),
            bool(view.get("newdeal_allowed")),
        )

    @classmethod
    def of_state(cls, state: TwentyDownState, seat: int) -> TwentyDownPosition:  # type: ignore[override]
        """From the engine's state, as `of_view(state.view(seat))` makes them (the same methods make the view's
        entries): the fast path. Every list is a copy: the state is never changed."""
        state._check_seat(seat)
        play = state._trick_play()
        return cls(
            state.phase,
            state._shown_hand(seat) or [],
            state.trump,
            list(play.current.plays) if play is not None else [],
            state._may_drop(seat),
            state._may_demand_newdeal(seat),
        )

    def facts(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "hand": self.hand,
            "trump": self.trump,
            "plays": self.plays,
            "may_drop": self.may_drop,
            "newdeal_allowed": self.newdeal_allowed,
        }
