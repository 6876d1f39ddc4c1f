"""Twenty Down (Zwanzig ab), `twenty-down`: docs/rules/twenty-down.md has every choice beside its rule.

Four players on their own, each from 20 down to zero. A deal: a first packet each (two, or three with "three first
cards"), trumps named by the trump maker (the dealer's left), a second packet each, then exchanging and staying in
or dropping out (in either order), then five tricks by those still in.

Phases, in order (one of them is skipped where the table has no such decision):
  "blind"    three first cards only: the trump maker chooses blind trumps (trump "blind") or looks (pass); their
             view hides their cards until they have looked or named trumps.
  "trump"    the trump maker names a suit, or "next", or demands a new deal ("newdeal").
  "exchange" / "stay"   each in turn from the dealer's left (stay first with "drop out first").
  "play"     five tricks; the trump maker leads.
  "over"     the game has ended.

The bot, the timeout move and the table's suggestion decide from `Seen`, the facts they read, made from a seat's
view (the general path: TwentyDownRules.bot_move / timeout_move / suggest) or from the state (the fast path the
audit replays with: TwentyDownState._bot_move / _timeout_move); tests hold the two equal at every decision.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from fairdeal.core.cards import PACK_32, SUIT_NAMES, Card, card_from_str, cards_of_texts
from fairdeal.core.fastpath import fast_path
from fairdeal.core.games.base import Chance, FirstChoiceRng, GameState, IllegalMove, Move, Rng, Rules, Setting
from fairdeal.core.games.seats import clockwise_from, left_of
from fairdeal.core.games.tricks import Trick, TrickPlay, rank_table
from fairdeal.core.games.twenty_down_end import winners_after_deal

SUITS = ("C", "D", "H", "S")
START_SCORE = 20
TRICKS = 5
HAND_SIZE = 5
MAX_THROW = 3
ENDGAME_AFTER = 8  # "after eight deals": from deal 9 on, hearts and nobody drops
NO_TRICK_PENALTY = 5  # "adds 5 points"

PLAIN_ORDER = (14, 10, 13, 12, 11, 9, 8, 7)  # A 10 K Q J 9 8 7
STANDARD_ORDER = (14, 13, 12, 11, 10, 9, 8, 7)  # A K Q J 10 9 8 7 (variant "standard order")
JASS_TRUMP_ORDER = (11, 9, 14, 10, 13, 12, 8, 7)  # J 9 A 10 K Q 8 7 (variant "Jass order", trumps only)
TRUMP_BONUS = 100  # a trump's strength is above every plain card's

_ON_OFF = (False, True)
# the policies' word moves, made once (a Move never changes)
_PASS, _NEWDEAL, _STAY, _DROP = (Move(k) for k in ("pass", "newdeal", "stay", "drop"))
_KEEP_ALL = Move.throw(())


# ------------------------------------------------------------------------------------------ card order

_ORDER_TABLES: dict[tuple, tuple[dict, dict, dict]] = {}


class Order:
    """The table's card order: plain suits and the trump suit (which differ only with Jass order)."""

    def __init__(self, settings: Mapping[str, Any]):
        self.plain_ranks = STANDARD_ORDER if settings["standard_order"] else PLAIN_ORDER
        self.trump_ranks = JASS_TRUMP_ORDER if settings["jass_order"] else self.plain_ranks
        self.plain = rank_table(self.plain_ranks)
        self.trump = rank_table(self.trump_ranks)
        # per trump suit, made when first asked and shared by every table of the same order (a replay makes a
        # table a game): the card values, the view's hand order and the trick strength
        self._values: dict[str | None, dict[Card, int]]
        self._values, self._sort_keys, self._strengths = _ORDER_TABLES.setdefault(
            (self.plain_ranks, self.trump_ranks), ({}, {}, {})
        )

    def value(self, card: Card, trump: str | None) -> int:
        """Rank within its own suit's order, trumps above everything."""
        if card.suit == trump:
            return TRUMP_BONUS + self.trump[card.rank]
        return self.plain[card.rank]

    def values(self, trump: str | None) -> Mapping[Card, int]:
        """value(card, trump) of every card of the pack, worked out once a trump suit (the trick strength, the
        view's hand order and the policies read it at every card)."""
        table = self._values.get(trump)
        if table is None:
            table = self._values[trump] = {c: self.value(c, trump) for c in PACK_32}
        return table

    def strength(self, trump: str | None):
        """The trick strength with `trump` (one function a trump suit, made once)."""
        strength = self._strengths.get(trump)
        if strength is None:
            value = self.values(trump).__getitem__

            def strength(card: Card, led: Card) -> int:
                if card.suit == trump or card.suit == led.suit:
                    return value(card)
                return -1

            self._strengths[trump] = strength
        return strength

    def sort_key(self, trump: str | None):
        """The hand's order in a view: by suit (C D H S), highest first."""
        key = self._sort_keys.get(trump)
        if key is None:
            keys = {c: (SUITS.index(c.suit), -v) for c, v in self.values(trump).items()}
            key = self._sort_keys[trump] = keys.__getitem__
        return key


def _suit_to_play(hand: Sequence[Card], plays: Sequence[tuple[int, Card]], trump: str | None) -> str | None:
    """The one rule of a card played to a trick holding `plays`: follow suit; void: trump if able; else any card.
    The suit the card must be of, or None: any held card."""
    if not plays:
        return None
    led, trumps = plays[0][1].suit, False
    for c in hand:
        suit = c.suit
        if suit == led:
            return led
        if suit == trump:
            trumps = True
    return trump if trumps else None


def may_play_by_refusal(hand: Sequence[Card], plays: Sequence[tuple[int, Card]], trump: str | None, card: Card) -> bool:
    """play_refusal(hand, plays, trump, card) is None: may_play's general form."""
    return play_refusal(hand, plays, trump, card) is None


@fast_path(general=may_play_by_refusal)
def may_play(hand: Sequence[Card], plays: Sequence[tuple[int, Card]], trump: str | None, card: Card) -> bool:
    """play_refusal(hand, plays, trump, card) is None, without the sentence nor the list of the hand's suits: the
    one card a replay checks at every play (tests/games/twenty_down/test_play_and_scoring.py holds it to
    play_refusal)."""
    if card not in hand:
        return False
    if not plays:
        return True
    led, suit = plays[0][1].suit, card.suit
    if suit == led:
        return True
    for c in hand:
        if c.suit == led:
            return False  # they must follow
    if suit == trump:
        return True
    for c in hand:
        if c.suit == trump:
            return False  # void in the suit led: they must trump
    return True


def play_refusal(hand: Sequence[Card], plays: Sequence[tuple[int, Card]], trump: str | None, card: Card) -> str | None:
    """None when `card` may be played (_suit_to_play), else the sentence."""
    if card not in hand:
        return f"You do not hold {card}."
    must = _suit_to_play(hand, plays, trump)
    if must is None or card.suit == must:
        return None
    led = plays[0][1].suit
    if must == led:
        return f"You must follow {SUIT_NAMES[led]}."
    return f"You must play a trump: you have no {SUIT_NAMES[led]}."


def legal_plays(hand: Sequence[Card], plays: Sequence[tuple[int, Card]], trump: str | None) -> list[Card]:
    """The held cards play_refusal allows, in the hand's order (the same rule, looked up once)."""
    must = _suit_to_play(hand, plays, trump)
    return list(hand) if must is None else [c for c in hand if c.suit == must]


# ------------------------------------------------------------------------------------------- the rules


class TwentyDownRules(Rules):
    id = "twenty-down"
    title = "Twenty Down"
    version = 2  # 2: the last deals end every game (twenty_down_end); 1 still replays as it was
    versions = (1, 2)
    table_sizes = (4,)
    SETTINGS = (
        Setting("jass_order", False, _ON_OFF, "Jass order in trumps (J 9 A 10 K Q 8 7)"),
        Setting("three_first_cards", False, _ON_OFF, "Three first cards (next, blind, new deal)"),
        Setting("drop_out_first", False, _ON_OFF, "Drop out first, then only those in exchange"),
        Setting("clubs_force_stay", False, _ON_OFF, "Clubs instead of diamonds force everyone to stay in"),
        Setting("at_least_two", False, _ON_OFF, "At least two players in each deal (the dealer stays)"),
        Setting("no_drop_twice", False, _ON_OFF, "No dropping out twice in a row nor at 5 or less"),
        Setting("no_endgame", False, _ON_OFF, "No endgame (no eight-deal rule)"),
        Setting("standard_order", False, _ON_OFF, "Standard order A K Q J 10 9 8 7"),
    )

    def __init__(self, settings: Mapping[str, Any] | None = None, players: int = 4, version: int | None = None):
        super().__init__(settings, players, version)
        self.order = Order(self.settings)

    @property
    def force_suit(self) -> str:
        """The trump suit that keeps everyone in."""
        return "C" if self.settings["clubs_force_stay"] else "D"

    @property
    def deal_layout(self) -> str:
        """ "twenty-down-2-3" (packets of two, then three) or "twenty-down-3-2" (three first cards):
        docs/rules/twenty-down.md, "Deal layout"."""
        return "twenty-down-3-2" if self.settings["three_first_cards"] else "twenty-down-2-3"

    def new_game(self, chance: Chance) -> TwentyDownState:
        return TwentyDownState(self, chance)

    def describe(self) -> str:
        s = self.settings
        order = "A K Q J 10 9 8 7" if s["standard_order"] else "A 10 K Q J 9 8 7"
        trump_order = "; trumps J 9 A 10 K Q 8 7" if s["jass_order"] else ""
        first = (
            "three first cards each, then two; the trump maker may name trumps, say next (fourth card face "
            "up names trumps), choose blind before looking (scores double), or with only 7s and 8s demand "
            "a new deal"
            if s["three_first_cards"]
            else "two cards each, the trump maker (dealer's left) names trumps, then three more each"
        )
        order_of = (
            "stay in or drop out, then those in exchange up to three cards"
            if s["drop_out_first"]
            else "exchange up to three cards, then stay in or drop out"
        )
        extra = []
        if s["at_least_two"]:
            extra.append("at least two players in each deal (the dealer stays in if all others drop)")
        if s["no_drop_twice"]:
            extra.append("no dropping out twice in a row nor at 5 or less")
        endgame = "no endgame" if s["no_endgame"] else "after eight deals hearts are trumps and nobody may drop out"
        return (
            f"Twenty Down for 4: 32 cards, order {order}{trump_order}; start at 20; {first}; {order_of}; "
            f"the trump maker always stays in, {SUIT_NAMES[self.force_suit]} trumps keep everyone in"
            + "".join(f"; {e}" for e in extra)
            + "; follow suit, else trump, else any card; -1 a trick, +5 for staying in without a trick, "
            f"hearts double; {endgame}; first to zero or less wins (lowest wins a tie)."
        )

    # --- table advice and policies (pure functions of a seat's view) -----------------------------------
    def suggest(self, view: Mapping[str, Any]) -> Move | None:
        if view.get("seat") is None or view.get("to_move") != view.get("seat"):
            return None
        return self.bot_decision(Seen.of(view), FirstChoiceRng())

    def bot_move(self, view: Mapping[str, Any], rng: Rng) -> Move:
        return self.bot_decision(Seen.of(view), rng)

    def timeout_move(self, view: Mapping[str, Any]) -> Move:
        return self.timeout_decision(Seen.of(view))

    def timeout_decision(self, seen: Seen) -> Move:
        """The safe move: look rather than go blind, the suggested trump (never next nor a new deal), keep every
        card, stay or drop as the table suggests, play the lowest legal card."""
        phase, hand = seen.phase, seen.hand
        if phase == "play":  # asked first: most decisions are cards
            legal = legal_plays(hand, seen.plays, seen.trump)
            value = self.order.values(seen.trump)
            return Move.play(min(legal, key=lambda c: (value[c], SUITS.index(c.suit))))
        if phase == "blind":
            return _PASS
        if phase == "trump":
            return Move.trump(self._trump_choice(hand, FirstChoiceRng()))
        if phase == "exchange":
            return _KEEP_ALL
        if phase == "stay":
            return self._stay_choice(seen)
        raise IllegalMove("There is nothing to decide now.")

    def bot_decision(self, seen: Seen, rng: Rng) -> Move:
        """The bot's move (and the table's suggestion): the seed's tips for beginners, made exact."""
        phase, hand = seen.phase, seen.hand
        if phase == "play":  # asked first: most decisions are cards
            return Move.play(self._play_choice(seen, rng))
        if phase == "blind":
            return _PASS  # a bot always looks
        if phase == "trump":
            if seen.newdeal_allowed:
                return _NEWDEAL  # only 7s and 8s: ask for a new deal
            return Move.trump(self._trump_choice(hand, rng))
        if phase == "exchange":
            return Move.throw(self._throw_choice(hand, seen.trump))
        if phase == "stay":
            return self._stay_choice(seen)
        raise IllegalMove("There is nothing to decide now.")

    def _trump_choice(self, hand: Sequence[Card], rng: Rng) -> str:
        """'With two cards of one suit, or an Ace, name that suit': most cards, then an Ace, then the best card;
        a hidden (blind) hand names spades, which neither doubles nor keeps everyone in."""
        if not hand:
            return "S"

        def key(suit: str) -> tuple:
            own = [c for c in hand if c.suit == suit]
            return (len(own), any(c.rank == 14 for c in own), max(self.order.trump[c.rank] for c in own))

        held = sorted({c.suit for c in hand}, key=SUITS.index)
        best = max(key(s) for s in held)
        tied = [s for s in held if key(s) == best]
        return _pick(tied, rng)

    def _is_low_side_card(self, card: Card, trump: str) -> bool:
        """'Low cards in side suits': a non-trump below the top three of its suit's order."""
        return card.suit != trump and self.order.plain[card.rank] <= len(self.order.plain_ranks) - 3

    def _throw_choice(self, hand: Sequence[Card], trump: str) -> list[Card]:
        low = [c for c in hand if self._is_low_side_card(c, trump)]
        value = self.order.values(trump)
        low.sort(key=lambda c: (value[c], SUITS.index(c.suit)))
        return low[:MAX_THROW]

    def hand_strength(self, hand: Sequence[Card], trump: str) -> float:
        """Expected tricks, roughly: a top-three trump 1, any other trump 1/2, a side Ace (top card) 3/4."""
        total = 0.0
        top_trumps = set(self.order.trump_ranks[:3])
        for c in hand:
            if c.suit == trump:
                total += 1.0 if c.rank in top_trumps else 0.5
            elif c.rank == self.order.plain_ranks[0]:
                total += 0.75
        return total

    def _stay_choice(self, seen: Seen) -> Move:
        """'Drop out with a weak hand': stay with about one trick (one and a half with hearts, which doubles)."""
        if not seen.may_drop:
            return _STAY
        need = 1.5 if seen.trump == "H" else 1.0
        return _STAY if self.hand_strength(seen.hand, seen.trump) >= need else _DROP

    def _play_choice(self, seen: Seen, rng: Rng) -> Card:
        """Lead a side Ace, else the highest trump, else the lowest card; follow with the cheapest card that
        wins, else the cheapest legal card."""
        trump, plays = seen.trump, seen.plays
        legal = legal_plays(seen.hand, plays, trump)
        value = self.order.values(trump).__getitem__
        if not plays:
            ace = self.order.plain_ranks[0]
            aces = [c for c in legal if c.suit != trump and c.rank == ace]
            trumps = [c for c in legal if c.suit == trump]
            if aces:
                return _pick(aces, rng)
            if trumps:
                return max(trumps, key=value)
            low = min(value(c) for c in legal)
            lows = [c for c in legal if value(c) == low]
            return _pick(lows, rng)
        strength = self.order.strength(trump)
        led = plays[0][1]
        best = max(strength(c, led) for _, c in plays)
        winners = [c for c in legal if strength(c, led) > best]
        pool = winners or legal
        if len(pool) == 1:
            return pool[0]
        return min(pool, key=lambda c: (strength(c, led), value(c), SUITS.index(c.suit)))


def _pick(items: Sequence[Any], rng: Rng) -> Any:
    """A tie-break: the rng is asked only when there is a real choice."""
    return items[rng.randbelow(len(items))] if len(items) > 1 else items[0]


def _trick_plays(view: Mapping[str, Any]) -> list[tuple[int, Card]]:
    trick = view.get("trick")
    return [(s, card_from_str(c)) for s, c in trick["plays"]] if trick else []


@dataclass(slots=True)
class Seen:
    """The facts the bot, the timeout and the suggestion decide from: one seat's, each read once.

    Two makers, one decision (TwentyDownRules.bot_decision / timeout_decision): `of(view)` reads the seat's view
    (the general path: the rules' bot_move / timeout_move / suggest, pure functions of the view) and
    `of_state(state, seat)` reads the engine's own objects (the fast path: TwentyDownState._bot_move /
    _timeout_move, which the audit replays with; no card text written or read back).
    tests/games/twenty_down/test_policy_input.py holds the two makers' facts equal, and
    tests/games/conformance/test_policies.py the moves chosen from them, at every decision of whole games."""

    phase: str
    hand: list[Card]  # as the view lists them; [] while the hand is hidden
    trump: str | None
    plays: list[tuple[int, Card]]  # the trick in progress; [] outside the play
    may_drop: bool
    newdeal_allowed: bool

    @staticmethod
    def of(view: Mapping[str, Any]) -> Seen:
        """From the seat's view: the general path."""
        return Seen(
            view["phase"],
            cards_of_texts(view["hand"] or []),
            view["trump"],
            _trick_plays(view),
            bool(view.get("may_drop")),
            bool(view.get("newdeal_allowed")),
        )

    @staticmethod
    def of_state(state: TwentyDownState, seat: int) -> Seen:
        """From the engine's state, as `of(state.view(seat))` makes them (the same methods make the view's
        entries): the fast path (_bot_move). Every list is a copy: the state is never changed."""
        state._check_seat(seat)
        play = state._trick_play()
        return Seen(
            state.phase,
            state._shown_hand(seat) or [],
            state.trump,
            list(play.current.plays) if play is not None else [],
            state._may_drop(seat),
            state._may_demand_newdeal(seat),
        )


# ------------------------------------------------------------------------------------------- the state

_PHASE_TASK = {
    "blind": 'choose blind trumps (trump "blind") or look at your cards (pass)',
    "trump": "name trumps",
    "exchange": "throw up to three cards (or none)",
    "stay": "stay in or drop out",
    "play": "play a card",
}
_PHASE_KINDS = {
    "blind": {"pass", "trump"},
    "trump": {"trump", "newdeal"},
    "exchange": {"throw"},
    "stay": {"stay", "drop"},
    "play": {"play"},
}


class TwentyDownState(GameState):
    def __init__(self, rules: TwentyDownRules, chance: Chance):
        super().__init__(rules, chance)
        self.n = rules.players
        self.scores = [START_SCORE] * self.n
        self.dealer = chance.first_dealer(self.n)
        self.deal_no = 0  # counted deals (a new-deal demand does not count)
        self.dropped_last = [False] * self.n
        self._last_hand: dict[str, Any] | None = None  # last_hand, but for its "tricks"
        self._last_tricks: Sequence[Trick] | None = None  # the tricks last_hand is still to write, if any
        self.winners: list[int] | None = None
        self._start_deal(counted=True)

    # --- the deal ---------------------------------------------------------------------------------
    @property
    def trump_maker(self) -> int:
        return left_of(self.dealer, self.n)

    @property
    def endgame(self) -> bool:
        return not self.rules.settings["no_endgame"] and self.deal_no > ENDGAME_AFTER

    @property
    def first_packet(self) -> int:
        return 3 if self.rules.settings["three_first_cards"] else 2

    def _start_deal(self, counted: bool) -> None:
        if counted:
            self.deal_no += 1
        self.deck = self._shuffled_deck(self.dealer, PACK_32)
        self.hands: dict[int, list[Card]] = {s: [] for s in range(self.n)}
        self.pos = 0  # next card of the deck to deal; after the deal the stock starts here
        self._deal_packets(self.first_packet)
        self.trump: str | None = None
        self.blind = False
        self.turned_up: Card | None = None
        self.looked = True  # False while the trump maker may still choose blind
        self.status: list[str | None] = [None] * self.n  # "in" / "out" / None (not yet decided)
        self.forced = [False] * self.n
        self.exchanged: list[int | None] = [None] * self.n
        self.discards: list[Card] = []
        self.tricks: TrickPlay | None = None
        self.order_left: list[int] = []  # who is still to decide in this phase, in turn
        if self.endgame:
            self._name_trump("H")
        elif self.rules.settings["three_first_cards"]:
            self.looked = False
            self.phase = "blind"
        else:
            self.phase = "trump"

    def _deal_packets(self, size: int) -> None:
        """One packet each, from the dealer's left round to the dealer."""
        for s in clockwise_from(self.trump_maker, self.n):
            self.hands[s].extend(self.deck[self.pos : self.pos + size])
            self.pos += size

    def _name_trump(self, suit: str) -> None:
        self.trump = suit
        self.looked = True
        if self.turned_up is None:
            self._deal_packets(HAND_SIZE - self.first_packet)
        self.status[self.trump_maker] = "in"
        self.forced[self.trump_maker] = True
        if self.rules.settings["drop_out_first"]:
            self._begin_stay()
        else:
            self._begin_exchange()

    @property
    def stock(self) -> list[Card]:
        return self.deck[self.pos :] if self.trump is not None else []

    def _begin_exchange(self) -> None:
        self.phase = "exchange"
        self.order_left = [s for s in clockwise_from(self.trump_maker, self.n) if self.status[s] != "out"]

    def _begin_stay(self) -> None:
        self.phase = "stay"
        self.order_left = [s for s in clockwise_from(self.trump_maker, self.n) if self.status[s] is None]
        self._skip_forced()

    def _skip_forced(self) -> None:
        """Those who may not drop out are not asked: they stay in (a forced stay)."""
        while self.order_left and self._drop_forbidden(self.order_left[0]):
            s = self.order_left.pop(0)
            self.status[s] = "in"
            self.forced[s] = True
        if not self.order_left:
            self._after_stay()

    def _after_stay(self) -> None:
        if all(self.status[s] == "out" for s in range(self.n) if s != self.trump_maker):
            self._end_deal(walkover=True)
        elif self.rules.settings["drop_out_first"]:
            self._begin_exchange()
        else:
            self._begin_play()

    def _after_exchange(self) -> None:
        if self.rules.settings["drop_out_first"]:
            self._begin_play()
        else:
            self._begin_stay()

    def _begin_play(self) -> None:
        self.phase = "play"
        seats = [s for s in clockwise_from(self.trump_maker, self.n) if self.status[s] == "in"]
        self.tricks = TrickPlay(self.hands, seats, self.trump_maker, self.rules.order.strength(self.trump), TRICKS)

    @property
    def multiplier(self) -> int:
        return (2 if self.trump == "H" else 1) * (2 if self.blind else 1)

    def _end_deal(self, walkover: bool = False) -> None:
        won = [0] * self.n
        if walkover:
            won[self.trump_maker] = TRICKS
        else:
            for t in self.tricks.done:
                won[t.winner] += 1
        change = [0] * self.n
        multiplier = self.multiplier
        for s in range(self.n):
            if self.status[s] == "in":
                change[s] = multiplier * (-won[s] if won[s] else NO_TRICK_PENALTY)
        before = list(self.scores)
        self.scores = [a + b for a, b in zip(self.scores, change)]
        self._last_hand = {
            "hand_number": self.hand_number,
            "counted_deal": self.deal_no,
            "dealer": self.dealer,
            "trump_maker": self.trump_maker,
            "trump": self.trump,
            "blind": self.blind,
            "turned_up": str(self.turned_up) if self.turned_up else None,
            "stayed": [s for s in range(self.n) if self.status[s] == "in"],
            "dropped": [s for s in range(self.n) if self.status[s] == "out"],
            "walkover": walkover,
            "tricks_won": won,
            "multiplier": multiplier,
            "scores_before": before,
            "changes": change,
            "scores": list(self.scores),
        }  # and "tricks", last: written when first read (last_hand)
        self._last_tricks = self.tricks.done if self.tricks else ()
        self.dropped_last = [st == "out" for st in self.status]
        winners = winners_after_deal(self.scores, self.deal_no, self.rules.version)
        if winners is not None:
            self.winners = winners
            self.phase = "over"
            self.order_left = []
            self.tricks = None
            return
        self.dealer = left_of(self.dealer, self.n)
        self._start_deal(counted=True)

    @property
    def last_hand(self) -> dict[str, Any] | None:
        """The summary of the deal that ended last (None before the first). Its "tricks" (each trick's JSON) are
        written when it is first read, not at every deal's end: the audit's replay never reads it. A completed
        trick never changes, so they are the same whenever written; the same dict is handed out every time."""
        tricks = self._last_tricks
        if tricks is not None:
            self._last_hand["tricks"] = [t.to_json() for t in tricks]
            self._last_tricks = None
        return self._last_hand

    # --- whose turn -------------------------------------------------------------------------------
    @property
    def to_move(self) -> int | None:
        if self.phase == "over":
            return None
        if self.phase in ("blind", "trump"):
            return self.trump_maker
        if self.phase == "play":
            return self.tricks.to_move
        return self.order_left[0]

    @property
    def result(self) -> dict[str, Any] | None:
        if self.winners is None:
            return None
        return {"scores": list(self.scores), "winners": list(self.winners)}

    # --- legality ---------------------------------------------------------------------------------
    def _drop_forbidden(self, seat: int) -> str | None:
        """Why `seat` may not drop out of this deal (None: it may, if asked)."""
        s = self.rules.settings
        if self.endgame:
            return "After eight deals nobody may drop out."
        if seat == self.trump_maker:
            return "The trump maker must stay in."
        if self.trump is not None and self.trump == self.rules.force_suit:
            return f"With {SUIT_NAMES[self.trump]} trumps everyone stays in."
        if s["no_drop_twice"]:
            if self.dropped_last[seat]:
                return "You dropped out last deal: you may not drop out twice in a row."
            if self.scores[seat] <= 5:
                return "With 5 points or less you may not drop out."
        if (
            s["at_least_two"]
            and seat == self.dealer
            and self.status[self.dealer] is None
            and all(self.status[o] == "out" for o in range(self.n) if o not in (self.dealer, self.trump_maker))
        ):
            return "There must be at least two players in each deal: the dealer must stay in."
        return None

    def _may_drop(self, seat: int | None) -> bool:
        """The view's "may_drop": `seat` is asked to stay in or drop out now, and may drop out."""
        return bool(
            seat is not None and self.phase == "stay" and self.to_move == seat and self._drop_forbidden(seat) is None
        )

    def _may_demand_newdeal(self, seat: int | None) -> bool:
        """The view's "newdeal_allowed": `seat` names trumps now and may demand a new deal instead."""
        return bool(seat is not None and self.phase == "trump" and self.to_move == seat and self.newdeal_allowed)

    @property
    def newdeal_allowed(self) -> bool:
        return (
            self.phase == "trump"
            and self.rules.settings["three_first_cards"]
            and not self.blind
            and all(c.rank in (7, 8) for c in self.hands[self.trump_maker])
        )

    def _standing_refusal(self, seat: int, move: Move) -> str | None:
        """A player who may not drop out is told why, whoever's turn it is."""
        return self._drop_forbidden(seat) if move.kind == "drop" else None

    def _task(self) -> str:
        return _PHASE_TASK[self.phase]

    def _why_not(self, seat: int, move: Move) -> str | None:
        if (
            self.phase == "play"
            and move.kind == "play"
            and may_play(self.hands[seat], self.tricks.current.plays, self.trump, move.card)
        ):
            return None  # the usual case: a card the seat may play (nothing below refuses it)
        reason = self._standing_refusal(seat, move)
        if reason is not None:
            return reason
        if move.kind not in _PHASE_KINDS[self.phase]:
            return f"Now you {_PHASE_TASK[self.phase]}."
        return self._REFUSE[self.phase](self, seat, move)

    def _refuse_blind(self, seat: int, move: Move) -> str | None:
        if move.kind == "trump" and move.value != "blind":
            return 'Before naming trumps, choose blind (trump "blind") or look at your cards (pass).'
        return None

    def _refuse_trump(self, seat: int, move: Move) -> str | None:
        three = self.rules.settings["three_first_cards"]
        if move.kind == "newdeal":
            if not three:
                return "A new deal may only be demanded with three first cards."
            if self.blind:
                return "With blind trumps there is no new deal."
            if not self.newdeal_allowed:
                return "You may demand a new deal only when your three first cards are all 7s and 8s."
            return None
        if move.value == "next":
            if not three:
                return '"Next" is only played with three first cards.'
            if self.blind:
                return "With blind trumps there is no next."
            return None
        if move.value == "blind":
            if not three:
                return "Blind trumps are only played with three first cards."
            return (
                "You chose blind: now name the suit."
                if self.blind
                else "Blind trumps are chosen before looking at your cards."
            )
        if move.value not in SUITS:
            return "Name trumps as C, D, H or S" + (", or next." if three and not self.blind else ".")
        return None

    def _refuse_exchange(self, seat: int, move: Move) -> str | None:
        if len(move.cards) > MAX_THROW:
            return "You may throw at most three cards."
        for c in move.cards:
            if c not in self.hands[seat]:
                return f"You do not hold {c}."
        return None

    def _refuse_stay(self, seat: int, move: Move) -> str | None:
        return None  # a forbidden drop was refused above; a stay is always allowed when asked

    def _refuse_play(self, seat: int, move: Move) -> str | None:
        return play_refusal(self.hands[seat], self.tricks.current.plays, self.trump, move.card)

    # each phase's own refusals (_why_not reads them by phase, as a table: no method name to make at each move)
    _REFUSE = {
        "blind": _refuse_blind,
        "trump": _refuse_trump,
        "exchange": _refuse_exchange,
        "stay": _refuse_stay,
        "play": _refuse_play,
    }

    def _legal_moves(self, seat: int) -> list[Move]:
        hand = self.hands[seat]
        if self.phase == "blind":
            cands = [Move("pass"), Move.trump("blind")]
        elif self.phase == "trump":
            cands = [Move.trump(s) for s in SUITS] + [Move.trump("next"), Move("newdeal")]
        elif self.phase == "exchange":
            cands = [Move.throw(combo) for k in range(MAX_THROW + 1) for combo in combinations(hand, k)]
        elif self.phase == "stay":
            cands = [Move("stay"), Move("drop")]
        else:
            cands = [Move.play(c) for c in hand]
        return [m for m in cands if self._why_not(seat, m) is None]

    # --- the step ---------------------------------------------------------------------------------
    def _push(self, seat: int, move: Move) -> None:
        if self.phase == "play":
            self._push_play(seat, move)  # most moves: without making the method's name
        else:
            self._STEP[self.phase](self, seat, move)

    def _push_blind(self, seat: int, move: Move) -> None:
        if move.kind == "trump":
            self.blind = True  # trumps are named next, still without looking
        else:
            self.looked = True
        self.phase = "trump"

    def _push_trump(self, seat: int, move: Move) -> None:
        if move.kind == "newdeal":
            self._start_deal(counted=False)  # same dealer, new shuffle, not one of the eight
            return
        if move.value == "next":
            self.turned_up = self.deck[self.pos]  # the trump maker's fourth card: first of their second packet
            self._deal_packets(HAND_SIZE - self.first_packet)
            self._name_trump(self.turned_up.suit)
            return
        self._name_trump(move.value)

    def _push_exchange(self, seat: int, move: Move) -> None:
        cards = list(move.cards)
        for c in cards:
            self.hands[seat].remove(c)
        self.discards.extend(cards)
        self.hands[seat].extend(self.deck[self.pos : self.pos + len(cards)])
        self.pos += len(cards)
        self.exchanged[seat] = len(cards)
        self.order_left.pop(0)
        if not self.order_left:
            self._after_exchange()

    def _push_stay(self, seat: int, move: Move) -> None:
        self.status[seat] = "in" if move.kind == "stay" else "out"
        self.order_left.pop(0)
        self._skip_forced()

    def _push_play(self, seat: int, move: Move) -> None:
        self.tricks.play(seat, move.card)
        if self.tricks.finished:
            self._end_deal()

    # each phase's step but the play's (_push reads them by phase, as _why_not its refusals)
    _STEP = {"blind": _push_blind, "trump": _push_trump, "exchange": _push_exchange, "stay": _push_stay}

    # --- the policies: the fast path ----------------------------------------------------------------
    @fast_path(general=GameState._bot_move_from_view, consumes=("rng",))
    def _bot_move(self, seat: int, rng: Rng) -> Move:
        """The fast path of GameState.bot_move for the seat to move: rules.bot_move(view(seat), rng), answered from the engine's own objects (Seen.of_state: no view made
        nor read back); the same decision as the view's, so the same move for every Rng."""
        return self.rules.bot_decision(Seen.of_state(self, seat), rng)

    @fast_path(general=GameState._timeout_move_from_view)
    def _timeout_move(self, seat: int) -> Move:
        """The fast path of GameState.timeout_move: rules.timeout_move(view(seat)), from the engine's own objects."""
        return self.rules.timeout_decision(Seen.of_state(self, seat))

    # --- views ------------------------------------------------------------------------------------
    def _hand_hidden(self, seat: int) -> bool:
        return not self.looked and seat == self.trump_maker

    def _trick_play(self) -> TrickPlay | None:
        return self.tricks if self.phase == "play" else None

    def all_cards(self) -> list[Card]:
        cards = [c for s in range(self.n) for c in self.hands[s]] + self.deck[self.pos :] + self.discards
        return cards + (self.tricks.played_cards() if self.tricks else [])

    def _shown_hand(self, seat: int) -> list[Card] | None:
        if self._hand_hidden(seat):
            return None  # the trump maker has not looked (three first cards: blind or not)
        return sorted(self.hands[seat], key=self.rules.order.sort_key(self.trump))

    OWN_VIEW = {
        "trump_maker": lambda st, seat: st.trump_maker,
        "counted_deal": lambda st, seat: st.deal_no,
        "endgame": lambda st, seat: st.endgame,
        "blind": lambda st, seat: st.blind,
        "looked": lambda st, seat: st.looked,
        "turned_up": lambda st, seat: str(st.turned_up) if st.turned_up else None,
        "hand_hidden": lambda st, seat: seat is not None and st._hand_hidden(seat),
        "seats": lambda st, seat: [
            {
                "seat": s,
                "score": st.scores[s],
                "cards": len(st.hands[s]),
                "status": st.status[s],
                "forced": st.forced[s],
                "exchanged": st.exchanged[s],
                "tricks": st.tricks.tricks_won(s) if st.tricks else 0,
            }
            for s in range(st.n)
        ],
        "stock": lambda st, seat: len(st.stock),
        "may_drop": lambda st, seat: st._may_drop(seat),
        "newdeal_allowed": lambda st, seat: st._may_demand_newdeal(seat),
    }
