"""One game of Twenty Down on the shared interface (fairdeal.core.games.base)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any, Protocol

from fairdeal.core.cards import PACK_32, SUIT_NAMES, Card
from fairdeal.core.games.base import Chance, GameState, Move
from fairdeal.core.games.seats import clockwise_from, left_of
from fairdeal.core.games.tricks import Trick, TrickPlay

from .follow import HAND_SIZE, MAX_THROW, TRICKS, may_play, play_refusal
from .ranks import SUITS, Order
from .scoring import NO_TRICK_PENALTY, START_SCORE, winners_after_deal


class TwentyDownTable(Protocol):
    """What the state reads of its rules (TwentyDownRules): a Protocol, so that state.py need not import rules.py,
    which imports it."""

    @property
    def players(self) -> int: ...

    @property
    def settings(self) -> Mapping[str, Any]: ...

    @property
    def version(self) -> int: ...

    @property
    def order(self) -> Order: ...

    @property
    def force_suit(self) -> str: ...


ENDGAME_AFTER = 8  # "after eight deals": from deal 9 on, hearts and nobody drops

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
    def __init__(self, rules: TwentyDownTable, chance: Chance):
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
        self.scores = [a + b for a, b in zip(self.scores, change, strict=True)]
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
