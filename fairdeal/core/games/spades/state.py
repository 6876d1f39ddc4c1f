"""One game of Spades on the shared interface (fairdeal.core.games.base)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fairdeal.core.cards import PACK_52, PACK_PLACE, Card
from fairdeal.core.games.base import Chance, GameState, Move, Rules
from fairdeal.core.games.seats import left_of
from fairdeal.core.games.tricks import TrickPlay

from .follow import HAND_SIZE, PLAYERS, SPADE, legal_cards, may_play, sort_cards, strength, why_not_card, winner_of
from .scoring import FLOOR, TARGET, game_ends, score_team


class SpadesState(GameState):
    trump = SPADE  # spades are always trump

    def __init__(self, rules: Rules, chance: Chance):  # SpadesRules: state reads only the base's sides
        super().__init__(rules, chance)
        self.scores = [0, 0]
        self.bags = [0, 0]
        self.dealer = chance.first_dealer(PLAYERS) - 1  # _deal moves it on to the first dealer
        self.tie_pending = False
        self.over = False
        self.last_hand: dict[str, Any] | None = None
        self.history: list[dict[str, Any]] = []
        self._deal()

    # --- the flow of a game -------------------------------------------------------------------------
    def _deal(self) -> None:
        self.dealer = left_of(self.dealer, PLAYERS)
        deck = self._shuffled_deck(self.dealer, PACK_52)
        self.hands: dict[int, list[Card]] = {s: [] for s in range(PLAYERS)}
        for k in range(PLAYERS):  # one at a time from the dealer's left: the k-th seat takes every 4th card
            held = self.hands[left_of(self.dealer, PLAYERS, 1 + k)]
            held.extend(deck[k : PLAYERS * HAND_SIZE : PLAYERS])
            held.sort(key=PACK_PLACE.__getitem__)  # kept in the pack's order (a play only takes a card out)
        self.bids: list[int | None] = [None] * PLAYERS
        self.play: TrickPlay | None = None
        # Kept as each trick completes (every play's legality, view and policy reads them): this hand's tricks
        # taken by seat, and whether a completed trick held a spade (docs/rules/spades.md "Leading spades").
        self._taken = [0] * PLAYERS
        self._broken = False
        self._played: set[Card] = set()  # this hand's cards played so far (the bot's master cards read it)

    @property
    def phase(self) -> str:
        if self.over:
            return "over"
        return "bid" if self.play is None else "play"

    @property
    def spades_broken(self) -> bool:
        """A spade was played on an earlier trick of this hand (docs/rules/spades.md "Leading spades"). A trick
        holding a spade is won by a spade, so each completed trick's winning card is enough (_push keeps it)."""
        return self._broken

    @property
    def to_move(self) -> int | None:
        if self.over:
            return None
        if self.play is None:
            return left_of(self.dealer, PLAYERS, 1 + sum(b is not None for b in self.bids))
        return self.play.to_move

    def _end_hand(self) -> None:
        assert self.play is not None
        taken = self._tricks_taken()
        teams = []
        for t, side in enumerate(self.rules.sides.groups):
            res = score_team({s: self.bids[s] for s in side}, {s: taken[s] for s in side}, self.scores[t], self.bags[t])
            self.scores[t], self.bags[t] = res.score_after, res.bags_after
            teams.append(res.to_json())
        self.last_hand = {
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "bids": list(self.bids),
            "tricks_taken": taken,
            "teams": teams,
            "scores": list(self.scores),
        }
        self.history.append(self.last_hand)
        if game_ends(self.scores, self.tie_pending):
            self.over = True  # the last hand's tricks stay on view
            return
        if self.scores[0] == self.scores[1] and any(s >= TARGET or s <= FLOOR for s in self.scores):
            self.tie_pending = True
        self._deal()

    # --- moves -------------------------------------------------------------------------------------
    def _task(self) -> str:
        return "bid" if self.play is None else "play a card"

    def _why_not(self, seat: int, move: Move) -> str | None:
        if self.play is None:
            if move.kind != "bid":
                return "It is time to bid: say how many tricks you expect to take, 0 (nil) to 13."
            if not 0 <= move.value <= HAND_SIZE:
                return "A bid is a whole number of tricks from 0 (nil) to 13."
            return None
        if move.kind != "play":
            return "The bidding is over: play a card."
        plays, hand = self.play.current.plays, self.hands[seat]
        if may_play(hand, move.card, plays, self._broken):
            return None  # the usual case, answered without the trick's list of cards
        return why_not_card(hand, move.card, [c for _, c in plays], self._broken)

    def _legal_moves(self, seat: int) -> list[Move]:
        if self.play is None:
            return [Move.bid(v) for v in range(HAND_SIZE + 1)]
        trick = [c for _, c in self.play.current.plays]
        return [Move.play(c) for c in sort_cards(legal_cards(self.hands[seat], trick, self.spades_broken))]

    def _push(self, seat: int, move: Move) -> None:
        if self.play is None:
            self.bids[seat] = move.value
            if all(b is not None for b in self.bids):
                self.play = TrickPlay(
                    self.hands, list(range(PLAYERS)), left_of(self.dealer, PLAYERS), strength, HAND_SIZE, winner_of
                )
            return
        done = self.play.play(seat, move.card)
        self._played.add(move.card)
        if done is not None:
            self._taken[done.winner] += 1
            self._broken = self._broken or done.winning_card.suit == SPADE  # a spade wins a trick holding one
        if self.play.finished:
            self._end_hand()

    # --- what a seat sees ----------------------------------------------------------------------------
    def _tricks_taken(self) -> list[int]:
        return list(self._taken)  # a copy: the view's and the policy's own

    def _trick_play(self) -> TrickPlay | None:
        return self.play  # the last hand's tricks stay on view once the game is over

    def all_cards(self) -> list[Card]:
        return [c for s in range(PLAYERS) for c in self.hands[s]] + (self.play.played_cards() if self.play else [])

    def _shown_hand(self, seat: int) -> list[Card]:
        return sort_cards(self.hands[seat])

    OWN_VIEW = {
        "bids": lambda st, seat: list(st.bids),
        "tricks_taken": lambda st, seat: st._tricks_taken(),
        "spades_broken": lambda st, seat: st.spades_broken,
        "bags": lambda st, seat: list(st.bags),
        "tie_pending": lambda st, seat: st.tie_pending,
    }
    _WITH_LEGAL: dict[str, Any] | None = None

    def _view_table(self, seat: int | None) -> Mapping[str, Any]:
        """The seat to move also sees its legal moves ("legal")."""
        table = super()._view_table(seat)
        if seat is None or seat != self.to_move:
            return table
        cls = type(self)
        if cls._WITH_LEGAL is None:
            cls._WITH_LEGAL = {**table, "legal": lambda st, seat: [m.to_json() for m in st.legal_moves(seat)]}
        return cls._WITH_LEGAL

    @property
    def result(self) -> dict[str, Any] | None:
        if not self.over:
            return None
        sides = self.rules.sides
        best = 0 if self.scores[0] > self.scores[1] else 1
        return {"scores": list(self.scores), "sides": sides.to_json(), "winners": list(sides.seats_of(best))}
