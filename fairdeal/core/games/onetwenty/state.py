"""One game of 120s on the shared interface (fairdeal.core.games.base), for every rule set: the Variant decides.

Phases of a hand: the deal (a chance event: Chance.deck(deal index), never a move) -> "bidding" -> "trump" ->
(120s-house only: "kitty", the bidder throws back three) -> "throw" (throw and be dealt back up, in turn from the
dealer's left) -> "play" -> hand end (scored at once) -> the next deal, or "over".

Hands are kept sorted by (suit, rank) so a throw's cards come out in Move.throw's canonical order. The pack is
stored bottom first, so its top card is pack[-1] and drawing is a pop().
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any, NamedTuple

from fairdeal.core.cards import PACK_52, PACK_PLACE, SUITS, Card, cards_to_str
from fairdeal.core.fastpath import fast_path
from fairdeal.core.games.base import Chance, GameState, Move
from fairdeal.core.games.tricks import Trick, TrickPlay

from .bidding import Bidding
from .follow import Following, card_name, following, why_not_card
from .moves import BID_MOVES, MINE_MOVE, PASS_MOVE, PLAY_MOVES, REDEAL_MOVE, TRUMP_MOVES
from .ranks import make_strength, make_winner
from .scoring import HandScore, points_taken, score_hand
from .variant import Variant

HAND = 5
TRICKS = 5


def _sort_key(c: Card) -> tuple[str, int]:
    return (c.suit, c.rank)


# PACK_52 is in (suit, rank) order, so a pack card's place in it is its sort key as one int (ints compare faster
# than tuples; hands are sorted at every deal and draw).
_PLACE = PACK_PLACE
assert sorted(PACK_52, key=_sort_key) == list(PACK_52)
_place = _PLACE.__getitem__


def sort_hand(cards: list[Card]) -> None:
    """cards.sort(key=_sort_key), in place. A card outside the pack (only a Chance outside its contract could
    deal one) makes the quick key fail before anything moved; the list is then sorted by _sort_key as before."""
    try:
        cards.sort(key=_place)
    except KeyError:
        cards.sort(key=_sort_key)


def sorted_cards(cards) -> list[Card]:
    """sorted(cards, key=_sort_key), as sort_hand does it."""
    out = list(cards)
    sort_hand(out)
    return out


_rank = attrgetter("rank")


PHASE_VERB = {
    "bidding": "bid",
    "trump": "name the {w} suit",
    "kitty": "throw three cards",
    "throw": "throw and draw",
    "play": "play a card",
}


KITTY = -1


def deal_plan(v: Variant, dealer: int) -> list[int]:
    """Where each card of the deck goes, in deal order: deck[i] goes to seat plan[i], or to the kitty (KITTY);
    deck[len(plan):] is the pack, deck[len(plan)] its top card. 120s-auction deals a kitty card after each of the
    first four rounds; 120s-house and 120s-traditional deal five each and then the kitty (docs/rules/<id>.md
    "Deal layout", docs/rules/explicit-decks.md)."""
    n = v.players
    order = [(dealer + 1 + i) % n for i in range(n)]  # the dealer's left first, the dealer last
    plan: list[int] = []
    for rnd in range(HAND):
        plan += order
        if v.deal == "auction" and rnd < v.kitty_size:
            plan.append(KITTY)
    if v.deal != "auction":
        plan += [KITTY] * v.kitty_size
    return plan


def deck_from_hands(
    v: Variant, dealer: int, hands: dict[int, list[Card]], kitty: list[Card], pack: list[Card] = ()
) -> list[Card]:
    """The explicit deck order that deals exactly these hands and kitty (kitty in the order dealt, so its last
    card is the teaser), followed by `pack` from its top; the rest of the pack follows in canonical order."""
    feeds = {s: list(h) for s, h in hands.items()}
    kit = list(kitty)
    out = []
    for to in deal_plan(v, dealer):
        out.append(kit.pop(0) if to == KITTY else feeds[to].pop(0))
    out += list(pack)
    seen = set(out)
    if len(seen) != len(out):
        raise ValueError("a card is named twice in an explicit deck")
    return out + [c for c in PACK_52 if c not in seen]


class HandFacts(NamedTuple):
    """What the summary of a played-out hand is written from (a NamedTuple: cheap to make at every hand's end)."""

    hand_number: int
    dealer: int
    bidder: int
    bid: int
    trump: str
    points: list[int]  # per side
    ten_trick: int  # the index of the trick worth 5 more
    tricks: list[Trick]  # the hand's completed tricks, never changed again
    score: HandScore


class _Dealing:
    """A deal plan read by destination: the deck places of each seat's cards and of the kitty's, in deal order."""

    __slots__ = ("plan", "seats", "kitty", "order")

    def __init__(self, plan: list[int], players: int):
        self.plan = tuple(plan)
        self.order = tuple(plan[:players])  # the seats from the dealer's left to the dealer
        self.seats = tuple(tuple(i for i, to in enumerate(plan) if to == s) for s in range(players))
        self.kitty = tuple(i for i, to in enumerate(plan) if to == KITTY)


# (players, deal, kitty size) -> {dealer: _Dealing}: the few plans every game of one deal shape deals by, made once
# (a replay starts a game per transcript; deal_plan reads only these three of the Variant).
_PLANS: dict[tuple[int, str, int], dict[int, _Dealing]] = {}


def _deal_shape(v: Variant) -> tuple[int, str, int]:
    return v.players, v.deal, v.kitty_size


BIDDING_KINDS = ("bid", "pass", "mine", "redeal")
KIND_WORDS = {
    "trump": "name the {w} suit",
    "throw": "throw cards",
    "play": "play a card",
    "stay": "stay",
    "drop": "drop out",
    "newdeal": "ask for a new deal",
}


class OneTwentyState(GameState):
    def __init__(self, rules, chance: Chance, scores=None, made_bid=None):
        """`scores` / `made_bid` (per side) start a game from a position other than 0-0: for analysis and for
        scenario tests of the endgame. A game the service runs always starts from 0-0."""
        super().__init__(rules, chance)
        self.v: Variant = rules.variant
        v = self.v
        self.scores = list(scores) if scores is not None else [0] * v.sides.count
        self.made_bid = list(made_bid) if made_bid is not None else [False] * v.sides.count
        self.dealer = chance.first_dealer(v.players)
        self.hands_played = 0
        self.last_hand = None
        self.winners: list[int] | None = None
        self._trick_rules: dict[str, tuple] = {}  # trump -> (Following, strength, winner), looked up once
        self._seats = tuple(range(v.players))
        self._plans = _PLANS.setdefault(_deal_shape(v), {})  # dealer -> where the cards go (read only)
        self._deal()

    # ------------------------------------------------------------------------------------- the deal
    def _deal(self) -> None:
        v = self.v
        n = v.players
        deck = self._shuffled_deck(self.dealer, PACK_52)
        plan = self._plans.get(self.dealer)
        if plan is None:
            plan = self._plans[self.dealer] = _Dealing(deal_plan(v, self.dealer), n)
        pos = len(plan.plan)
        if len(deck) >= pos:
            take = deck.__getitem__
            hands = [sorted_cards(map(take, places)) for places in plan.seats]
            kitty = list(map(take, plan.kitty))
        else:  # a short deck (a Chance outside the contract): dealt as far as it goes
            hands = [[] for _ in range(n)]
            kitty = []
            for c, to in zip(deck, plan.plan, strict=False):
                (kitty if to == KITTY else hands[to]).append(c)
            for h in hands:
                sort_hand(h)
        self.hands = hands
        self.kitty = kitty
        self.teaser = kitty[-1] if v.teaser else None  # the last card dealt to the kitty lies on top
        self.pack = deck[: pos - 1 : -1]  # deck[pos:] bottom first: pack[-1] is the top card
        self.thrown: list[Card] = []
        self.start_scores = list(self.scores)
        if v.min_bid_from_90:
            min_bid = [20 if self.scores[v.sides.side_of(s)] >= 90 else v.lowest_bid for s in range(n)]
        else:
            min_bid = [v.lowest_bid] * n
        has_five = [5 in map(_rank, h) for h in hands]
        self.bidding = Bidding(v, self.dealer, min_bid, has_five)
        self.phase = "bidding"
        self.trump: str | None = None
        self.bidder: int | None = None
        self.bid: int | None = None
        self.kitty_cards: list[Card] = []  # what the bidder took from the kitty (shown to them until they throw)
        self.throw_order: list[int] = []
        self.throws: list[tuple[int, int, int]] = []  # (seat, threw, drew): counts only are public
        self.play: TrickPlay | None = None
        self.first_lead_trump = False  # True until the first card of a hand bid at 30 (it must be a trump)
        self._follow: Following | None = None  # the following rules under this hand's trump suit
        self._playable_key: tuple | None = None
        self._playable: list[Card] = []

    # ------------------------------------------------------------------------------------- last hand
    @property
    def last_hand(self) -> dict[str, Any] | None:
        """The last hand's summary (None until a hand is played out or thrown in). A played-out hand's summary
        is made when first read, from the facts _end_hand kept: the same whenever it is made."""
        facts = self._last_facts
        if facts is not None:
            self._last_facts = None
            hs = facts.score
            self._last_hand = {
                "hand_number": facts.hand_number,
                "dealer": facts.dealer,
                "thrown_in": False,
                "bidder": facts.bidder,
                "bid": facts.bid,
                "trump": facts.trump,
                "points": facts.points,
                "ten_trick": facts.ten_trick,
                "ten_card": str(facts.tricks[facts.ten_trick].winning_card),
                "made": hs.made,
                "changes": list(hs.changes),
                "scores": list(hs.scores),
                "tricks": [t.to_json() for t in facts.tricks],
            }
        return self._last_hand

    @last_hand.setter
    def last_hand(self, value: dict[str, Any] | None) -> None:
        self._last_hand = value
        self._last_facts = None

    # ------------------------------------------------------------------------------------- turn
    @property
    def to_move(self) -> int | None:
        ph = self.phase
        if ph == "play":  # the usual case first
            return self.play.to_move
        if ph == "bidding":
            return self.bidding.turn
        if ph == "trump" or ph == "kitty":
            return self.bidder
        if ph == "throw":
            return self.throw_order[0]
        return None

    @property
    def result(self) -> dict[str, Any] | None:
        if self.winners is None:
            return None
        v = self.v
        out: dict[str, Any] = {
            "scores": list(self.scores),
            "winners": sorted(s for side in self.winners for s in v.sides.seats_of(side)),
        }
        if v.sides.partners:
            out["sides"] = v.sides.to_json()
        return out

    # ------------------------------------------------------------------------------------- legality
    def _throw_bounds(self, seat: int) -> tuple[int, int]:
        held = len(self.hands[seat])
        if self.phase == "kitty":
            return self.v.kitty_size, self.v.kitty_size
        return max(0, held - HAND), held

    def playable(self, seat: int) -> list[Card]:
        """The cards `seat` may play now (kept for the current position: legal_moves and the view's options both
        ask)."""
        p = self.play
        key = (seat, len(p.done), len(p.current.plays))
        if self._playable_key != key:
            self._playable_key = key
            self._playable = self.playable_now(seat)
        return self._playable

    def playable_now(self, seat: int) -> list[Card]:
        """playable(seat) worked out anew, as a new list (_bot_move's position asks once a position, so
        keeping it would only cost)."""
        plays = self.play.current.plays
        return self._follow.legal(self.hands[seat], plays[0][1] if plays else None, self.first_lead_trump)

    def _legal_moves(self, seat: int) -> list[Move]:
        ph = self.phase
        if ph == "play":
            return [PLAY_MOVES[c] for c in self.playable(seat)]
        if ph == "bidding":
            o = self.bidding.options(seat)
            out = [BID_MOVES[b] for b in o.bids]
            if o.can_pass:
                out.append(PASS_MOVE)
            if o.can_mine:
                out.append(MINE_MOVE)
            if o.can_redeal:
                out.append(REDEAL_MOVE)
            return out
        if ph == "trump":
            return list(TRUMP_MOVES)
        lo, hi = self._throw_bounds(seat)
        return Move.throws(self.hands[seat], range(lo, hi + 1))

    def _task(self) -> str:
        return PHASE_VERB[self.phase].format(w=self.v.trump_word)

    def _why_not(self, seat: int, move: Move) -> str | None:
        ph, kind = self.phase, move.kind
        if ph == "play":  # the usual case first: a card to the trick
            if kind != "play":
                return "It is time to play a card to the trick."
            plays = self.play.current.plays
            led = plays[0][1] if plays else None
            hand = self.hands[seat]
            if self._follow.allows(hand, move.card, led, self.first_lead_trump):
                return None
            v = self.v
            return why_not_card(
                hand,
                move.card,
                led,
                self.trump,
                v.trump_word,
                void_must_trump=v.void_must_trump,
                aces_low=v.aces_low,
                lead_trump=self.first_lead_trump,
            )
        v = self.v
        if ph == "bidding":
            if kind not in BIDDING_KINDS:
                doing = KIND_WORDS.get(kind, kind).format(w=v.trump_word)
                return f"It is time to bid: bid, pass{self._extra_bid_words()}, not {doing}."
            return self.bidding.why_not(seat, kind, move.value)
        if ph == "trump":
            if kind != "trump":
                return f"You won the bidding: name the {v.trump_word} suit first."
            if move.value not in SUITS:
                return f"Name the {v.trump_word} suit as one of C, D, H or S."
            return None
        # "kitty" (120s-house: the bidder throws back to five, no draw) or "throw" (throw and be dealt back up)
        lo, hi = self._throw_bounds(seat)
        if kind != "throw":
            if ph == "kitty":
                return f"It is time to throw away {lo} cards to come back to five."
            if lo:  # the bidder (120s-auction: nine cards, 120s-traditional: eight) cannot throw nothing
                return f"It is time to throw away at least {lo} cards and be dealt back up to five."
            return "It is time to throw away cards (possibly none) and be dealt back up to five."
        hand = self.hands[seat]
        for c in move.cards:
            if c not in hand:
                return f"You do not hold {card_name(c, self.trump, v.trump_word)}."
        n = len(move.cards)
        if ph == "kitty" and n != lo:
            return f"You hold {len(hand)} cards with the kitty: throw exactly {lo} to come back to five."
        if n < lo:
            return f"You hold {len(hand)} cards and must throw at least {lo} to come back down to five."
        return None

    def _extra_bid_words(self) -> str:
        v = self.v
        return (" or Mine" if v.dealer_mine else "") + (" or redeal" if v.all_pass == "dealer-picks" else "")

    # ------------------------------------------------------------------------------------- the step
    @fast_path(general=GameState.apply_refused_first, changes_state=True)
    def apply(self, seat: int, move: Move) -> None:
        """GameState.apply with the phase looked at once: a card to the trick (most moves of a hand), a bidding
        move or a throw checked and made by that phase's branch of _why_not and _push, without _push's dispatch
        (and, for a card or a bid, to_move's). Any other move (naming the trump), and any move refused, goes
        through GameState.apply."""
        if move.__class__ is Move and seat.__class__ is int:
            ph, kind = self.phase, move.kind
            if ph == "play":
                p = self.play
                if kind == "play" and seat == p.to_move:
                    plays = p.current.plays
                    card = move.card
                    if self._follow.allows(
                        self.hands[seat], card, plays[0][1] if plays else None, self.first_lead_trump
                    ):
                        self._play_card(seat, card)
                        return
            elif ph == "bidding":
                b = self.bidding
                if seat == b.turn and kind in BIDDING_KINDS and b.why_not(seat, kind, move.value) is None:
                    self._bid(seat, move)
                    return
            elif ph == "kitty" or ph == "throw":
                if kind == "throw" and seat == self.to_move and self._why_not(seat, move) is None:
                    self._throw(seat, move.cards)
                    return
        GameState.apply(self, seat, move)

    def _push(self, seat: int, move: Move) -> None:
        ph = self.phase
        if ph == "play":
            self._play_card(seat, move.card)
        elif ph == "bidding":
            self._bid(seat, move)
        elif ph == "trump":
            self._name_trump(move.value)
        else:
            self._throw(seat, move.cards)

    def _play_card(self, seat: int, card: Card) -> None:
        self.first_lead_trump = False  # the hand's first card is down
        p = self.play
        if p.play(seat, card) is not None and p.to_move is None:  # the hand's last trick
            self._end_hand()

    def _bid(self, seat: int, move: Move) -> None:
        b = self.bidding
        b.apply(seat, move.kind, move.value)
        if b.won is not None:
            self.bidder, self.bid = b.won
            self.phase = "trump"
        elif b.all_passed:
            self._all_passed(redeal_call=move.kind == "redeal")

    def _all_passed(self, redeal_call: bool) -> None:
        v = self.v
        moves_on = v.all_pass == "next-dealer"
        self.last_hand = {
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "thrown_in": True,
            "redeal_called": redeal_call,
            "bidder": None,
            "bid": None,
            "changes": [0] * v.sides.count,
            "scores": list(self.scores),
        }
        if moves_on:
            self.dealer = (self.dealer + 1) % v.players
        self._deal()

    def _name_trump(self, suit: str) -> None:
        v = self.v
        self.trump = suit
        bidder = self.bidder
        # Trump first, then the kitty (all three rule sets): the bidder picks it up.
        self.kitty_cards = sorted_cards(self.kitty)
        self.hands[bidder].extend(self.kitty)
        sort_hand(self.hands[bidder])
        self.kitty = []
        order = list(self._plans[self.dealer].order)
        if v.bidder_discards_first:
            self.phase = "kitty"
            self.throw_order = [s for s in order if s != bidder] if v.others_draw else []
        else:
            self.phase = "throw"
            self.throw_order = order

    def _throw(self, seat: int, cards: tuple[Card, ...]) -> None:
        hand = self.hands[seat]
        for c in cards:
            hand.remove(c)
        if seat == self.bidder:
            self.kitty_cards = []
        if self.phase == "kitty":  # 120s-house: the bidder throws back to five; no draw
            self.thrown.extend(cards)
            self.throws.append((seat, len(cards), 0))
            self._after_throws()
            return
        if cards and self.v.reshuffle_thrown:
            back = self.chance.reshuffle(self.hand_number, len(self.throws), list(cards))
            self.pack[0:0] = back[::-1]  # under the pack; back[0] is the first of them to be dealt
        else:
            self.thrown.extend(cards)
        drew = HAND - len(hand)
        pack = self.pack
        if 0 < drew <= len(pack):
            hand += pack[-drew:]  # the top cards (sorted just below, so their order here does not matter)
            del pack[-drew:]
        else:
            for _ in range(drew):
                hand.append(pack.pop())
        sort_hand(hand)
        self.throws.append((seat, len(cards), drew))
        self.throw_order.pop(0)
        self._after_throws()

    def _after_throws(self) -> None:
        if self.phase == "kitty":
            self.phase = "throw"
        if self.throw_order:
            return
        v = self.v
        self.phase = "play"
        leader = self.bidder if v.bidder_leads else (self.bidder + 1) % v.players
        self.first_lead_trump = v.thirty_leads_trump and self.bid == 30
        rules = self._trick_rules.get(self.trump)
        if rules is None:  # the following rules, strength and winner functions under this trump suit
            t = self.trump
            rules = self._trick_rules[t] = (
                following(t, v.void_must_trump, v.aces_low),
                make_strength(t, v.aces_low),
                make_winner(t, v.aces_low),
            )
        self._follow = rules[0]
        self.play = TrickPlay(self.hands, self._seats, leader, rules[1], TRICKS, rules[2])  # hands: by seat

    def _end_hand(self) -> None:
        v = self.v
        p = self.play
        done = p.done
        points, ten = points_taken([t.winner for t in done], [t.winning_card for t in done], self._follow.power, v)
        hs = score_hand(v, self.scores, self.made_bid, v.sides.side[self.bidder], self.bid, points)
        # The last hand's summary is written when somebody first reads it (a replay never does): its facts
        # never change (hs is frozen, completed tricks are never touched again).
        self._last_hand = None
        self._last_facts = HandFacts(
            self.hand_number, self.dealer, self.bidder, self.bid, self.trump, points, ten, p.done, hs
        )
        self.scores = list(hs.scores)
        self.made_bid = list(hs.made_bid)
        self.hands_played += 1
        if hs.winners:
            self.winners = list(hs.winners)
            self.phase = "over"
            return
        self.dealer = (self.dealer + 1) % v.players
        self._deal()

    # ------------------------------------------------------------------------------------- views
    def options(self, seat: int) -> dict[str, Any] | None:
        """What `seat` may do now, in the view's JSON form (None when it is not their turn)."""
        if seat != self.to_move:
            return None
        ph = self.phase
        if ph == "bidding":
            return self.bidding.options(seat).to_json()
        if ph == "trump":
            return {"suits": list(SUITS)}
        if ph in ("kitty", "throw"):
            lo, hi = self._throw_bounds(seat)
            return {"throw_min": lo, "throw_max": hi}
        return {"cards": cards_to_str(self.playable(seat))}

    def _trick_play(self) -> TrickPlay | None:
        return self.play if self.phase == "play" else None

    def _shown_hand(self, seat: int) -> list[Card]:
        return self.hands[seat]  # kept sorted

    OWN_VIEW = {
        "start_scores": lambda st, seat: list(st.start_scores),
        "made_bid": lambda st, seat: list(st.made_bid),
        "target": lambda st, seat: st.v.target,
        "bidding": lambda st, seat: st.bidding.to_json(),
        "bidder": lambda st, seat: st.bidder,
        "bid": lambda st, seat: st.bid,
        "teaser": lambda st, seat: str(st.teaser) if st.teaser is not None else None,
        "kitty_count": lambda st, seat: len(st.kitty),
        "kitty": lambda st, seat: (
            cards_to_str(st.kitty_cards) if seat is not None and seat == st.bidder and st.kitty_cards else None
        ),
        "pack_count": lambda st, seat: len(st.pack),
        "throws": lambda st, seat: [{"seat": s, "threw": t, "drew": d} for s, t, d in st.throws],
        "options": lambda st, seat: st.options(seat) if seat is not None and st.phase != "over" else None,
    }

    # ------------------------------------------------------------------------------------- audit
    def all_cards(self) -> list[Card]:
        """Every card somewhere (hands, kitty, pack, thrown, played): for the conservation checks."""
        out = [c for h in self.hands for c in h] + list(self.kitty) + list(self.pack) + list(self.thrown)
        if self.play is not None:
            out += self.play.played_cards()
        return out
