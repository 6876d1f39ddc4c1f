"""Spades (`spades`; every rule and choice is written in docs/rules/spades.md).

Four players in partnerships (0 & 2 against 1 & 3), 13 cards each, spades always trump, aces high. Each hand:
one bid per player from the dealer's left (0 is nil), then 13 tricks; the deal passes left.

The module has four parts, each usable alone:
- `score_team`: the score table of one team for one hand, a pure function (bags and the ten-bag penalty too);
- `legal_cards` / `why_not_card`: who may play what, from a hand, the current trick and "spades broken" — the
  state and the bots both use them, so a bot sees exactly the rules the table enforces;
- `suggested_bid`, `safe_card`, `bot_card`: the table's pencil tick, the timeout card and the bot, each a pure
  function of one seat's view; `safe_card_of` / `bot_card_of` decide from the facts they read (`_Seen`), made from
  the view (the general path) or from the state (SpadesState's fast path for the audit);
- `SpadesState` / `SpadesRules`: the game on the shared interface of fairdeal.core.games.base.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from fairdeal.core.cards import PACK_52, PACK_PLACE, SUIT_NAMES, Card, card_from_str, cards_of_texts
from fairdeal.core.fastpath import fast_path
from fairdeal.core.games.base import Chance, GameState, Move, Rng, Rules
from fairdeal.core.games.seats import Sides, left_of
from fairdeal.core.games.tricks import TrickPlay, trick_winner

PLAYERS = 4
HAND_SIZE = 13
TARGET = 500  # a team at 500 or more after a hand ends the game
FLOOR = -200  # a team at -200 or less after a hand ends the game
BAG_LIMIT = 10  # each time a team reaches 10 bags: -100 and those 10 are crossed out
BAG_PENALTY = 100
NIL_POINTS = 100
SPADE = "S"


# ------------------------------------------------------------------------------------------- scoring


@dataclass(frozen=True)
class TeamHand:
    """One team's result of one hand: the score table applied, with everything a summary shows."""

    contract: int  # the two bids added (nil counts 0)
    tricks: int  # tricks that count toward the contract (a nil bidder's never do)
    made: bool  # contract made (a team whose partners both bid nil always makes its 0)
    nils: tuple[tuple[int, bool], ...]  # (seat, made?) for each nil bidder of the team
    contract_points: int  # +10 a trick bid when made, -10 a trick bid when set
    bag_points: int  # +1 a bag, only when the contract is made
    nil_points: int  # +100 / -100 per nil
    bags: int  # bags taken this hand (extra tricks and a lost nil's tricks)
    penalties: int  # how many times the team reached 10 bags this hand
    points: int  # the hand's total, penalties included
    bags_after: int  # the team's bag count after crossing out
    score_after: int

    def to_json(self) -> dict[str, Any]:
        return {
            "contract": self.contract,
            "tricks": self.tricks,
            "made": self.made,
            "nils": [{"seat": s, "made": ok} for s, ok in self.nils],
            "contract_points": self.contract_points,
            "bag_points": self.bag_points,
            "nil_points": self.nil_points,
            "bags": self.bags,
            "penalties": self.penalties,
            "points": self.points,
            "bags_after": self.bags_after,
            "score": self.score_after,
        }


def score_team(
    bids: Mapping[int, int], tricks: Mapping[int, int], score_before: int = 0, bags_before: int = 0
) -> TeamHand:
    """The score table for one team and one hand. `bids` and `tricks` map each partner's seat to their bid and
    the tricks they took; `score_before` / `bags_before` are the team's running totals."""
    seats = sorted(bids)
    contract = sum(bids[s] for s in seats)
    counted = sum(tricks[s] for s in seats if bids[s] != 0)
    nils = tuple((s, tricks[s] == 0) for s in seats if bids[s] == 0)
    nil_bags = sum(tricks[s] for s in seats if bids[s] == 0)
    made = counted >= contract
    extra = counted - contract if made else 0
    bags = extra + nil_bags  # a lost nil's tricks are bags, made or set
    contract_points = 10 * contract if made else -10 * contract
    bag_points = bags if made else 0  # +1 a bag only when the contract is made
    nil_points = sum(NIL_POINTS if ok else -NIL_POINTS for _, ok in nils)
    penalties, bags_after = divmod(bags_before + bags, BAG_LIMIT)
    points = contract_points + bag_points + nil_points - BAG_PENALTY * penalties
    return TeamHand(
        contract,
        counted,
        made,
        nils,
        contract_points,
        bag_points,
        nil_points,
        bags,
        penalties,
        points,
        bags_after,
        score_before + points,
    )


def game_ends(scores: Sequence[int], tie_pending: bool) -> bool:
    """After a hand: over when a team is at 500+ or -200 or less (or a tie is being played off) and the
    scores differ; an exact tie plays one more hand."""
    if scores[0] == scores[1]:
        return False
    return tie_pending or any(s >= TARGET or s <= FLOOR for s in scores)


# ------------------------------------------------------------------------------------------ legality


def strength(card: Card, led: Card) -> int:
    """Trick strength: any spade beats every other card; otherwise only the led suit can win."""
    if card.suit == SPADE:
        return 100 + card.rank
    if card.suit == led.suit:
        return card.rank
    return -1


def winner_by_strength(plays: Sequence[tuple[int, Card]]) -> tuple[int, Card]:
    """trick_winner(plays, strength): winner_of's general form."""
    return trick_winner(plays, strength)


@fast_path(general=winner_by_strength)
def winner_of(plays: Sequence[tuple[int, Card]]) -> tuple[int, Card]:
    """trick_winner(plays, strength), card by card without the strength call: the card taking the trick so far
    is of the suit led or a spade, so a card beats it when of its suit and higher, or a spade over a non-spade
    (tests/games/spades/test_legal_cards.py holds it to trick_winner)."""
    best = plays[0]
    best_suit, best_rank = best[1].suit, best[1].rank
    for play in plays[1:]:
        card = play[1]
        suit = card.suit
        if suit == best_suit:
            if card.rank > best_rank:
                best, best_rank = play, card.rank
        elif suit == SPADE:
            best, best_suit, best_rank = play, SPADE, card.rank
    return best[0], best[1]


def _restriction(hand: Sequence[Card], trick: Sequence[Card], spades_broken: bool) -> tuple[str, bool] | None:
    """The one rule that limits which held card may be played to a trick holding `trick` (cards in play order):
    (suit, True) only that suit (follow it), (suit, False) anything but that suit (spades not broken), or None:
    any held card."""
    if not trick:
        if not spades_broken:
            for c in hand:
                if c.suit != SPADE:
                    return SPADE, False
        return None
    led = trick[0].suit
    for c in hand:
        if c.suit == led:
            return led, True
    return None


def why_not_card(hand: Sequence[Card], card: Card, trick: Sequence[Card], spades_broken: bool) -> str | None:
    """None if `card` may be played to a trick holding `trick` (cards in play order), else the sentence."""
    if card not in hand:
        return f"You do not hold {card.name()}."
    rule = _restriction(hand, trick, spades_broken)
    if rule is None or (card.suit == rule[0]) == rule[1]:
        return None
    return f"You must follow {SUIT_NAMES[rule[0]]}." if rule[1] else "Spades are not broken yet."


def may_play_by_refusal(
    hand: Sequence[Card], card: Card, plays: Sequence[tuple[int, Card]], spades_broken: bool
) -> bool:
    """why_not_card(hand, card, [c for _, c in plays], spades_broken) is None: may_play's general form."""
    return why_not_card(hand, card, [c for _, c in plays], spades_broken) is None


@fast_path(general=may_play_by_refusal)
def may_play(hand: Sequence[Card], card: Card, plays: Sequence[tuple[int, Card]], spades_broken: bool) -> bool:
    """why_not_card(hand, card, [c for _, c in plays], spades_broken) is None, from the trick's (seat, card)
    plays as they lie and without the sentence: the one card a replay checks at every play. Plain loops, no
    generators (tests/games/spades/test_legal_cards.py holds it to why_not_card)."""
    if card not in hand:
        return False
    suit = card.suit
    if plays:
        led = plays[0][1].suit
        if suit == led:
            return True
        for c in hand:
            if c.suit == led:
                return False  # they can follow the suit led
        return True
    if spades_broken or suit != SPADE:
        return True
    for c in hand:
        if c.suit != SPADE:
            return False  # a spade led before spades are broken by one who holds another suit
    return True


def legal_cards(hand: Sequence[Card], trick: Sequence[Card], spades_broken: bool) -> list[Card]:
    """The held cards why_not_card allows, in the hand's order (the same rule, looked up once)."""
    rule = _restriction(hand, trick, spades_broken)
    if rule is None:
        return list(hand)
    suit, only = rule
    return [c for c in hand if (c.suit == suit) == only]


def sort_cards(cards: Sequence[Card]) -> list[Card]:
    """Cards of the pack by suit, then rank: the pack's own order (C D H S, 2 to A), looked up."""
    return sorted(cards, key=PACK_PLACE.__getitem__)


# ---------------------------------------------------------------------------- suggestion, timeout, bot


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


@dataclass(slots=True)
class _Seen:
    """The facts the timeout and bot cards are chosen from: one seat's, at a card decision, each parsed once.

    Two makers, one decision: `of(view)` reads the seat's view (the general path: SpadesRules.bot_move /
    timeout_move, a pure function of the view) and `of_state(state, seat)` reads the engine's own objects (the
    fast path: SpadesState._bot_move / _timeout_move, which the audit replays with; no card text is written or read
    back). tests/games/spades/test_policy_input.py holds the two makers' facts equal, and
    tests/games/conformance/test_policies.py the moves chosen from them, at every decision of whole games."""

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

    @staticmethod
    def of(view: Mapping[str, Any]) -> _Seen:
        """From the seat's view: the general path."""
        hand = cards_of_texts(view["hand"])
        trick = [(s, card_from_str(c)) for s, c in view["trick"]["plays"]]
        legal = legal_cards(hand, [c for _, c in trick], view["spades_broken"])

        def played() -> set[Card]:
            done = cards_of_texts([c for t in view["tricks"] for _, c in t["plays"]])
            return set(done) | {c for _, c in trick}

        return _Seen(view["seat"], hand, trick, legal, list(view["bids"]), list(view["tricks_taken"]), played)

    @staticmethod
    def of_state(state: SpadesState, seat: int) -> _Seen:
        """From the engine's state, as `of(state.view(seat))` makes them: the fast path. The lists are copies (the
        state is never changed); `played` reads the state, so it is asked before the state moves on (within the
        same policy call, as the view's). The state keeps each hand in the pack's order, the view's (sort_cards):
        the hand is a copy, not sorted again; and the set of the cards played (a copy: no list of the tricks).
        SpadesState._bot_move reads it."""
        play = state.play
        assert play is not None, "a card decision is made while tricks are played"
        hand = list(state.hands[seat])
        trick = list(play.current.plays)
        legal = legal_cards(hand, [c for _, c in trick], state.spades_broken)
        played = state._played
        return _Seen(seat, hand, trick, legal, list(state.bids), state._tricks_taken(), lambda: set(played))

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


def _pick(cards: Sequence[Card], key, rng: Rng | None, highest: bool = False) -> Card:
    """The card with the lowest (or highest) key; among equal keys the first by suit, or rng's tie-break."""
    keys = list(map(key, cards))
    best = (max if highest else min)(keys)
    if keys.count(best) == 1:
        return cards[keys.index(best)]
    tied = sort_cards([c for c, k in zip(cards, keys) if k == best])
    return tied[rng.randbelow(len(tied))] if rng is not None else tied[0]


def _duck(seen: _Seen, rng: Rng | None) -> Card:
    """The highest card that does not take the trick so far (non-spades first); if every legal card takes it,
    or when leading, the lowest card."""
    losers = [c for c in seen.legal if not seen.beats(c)] if seen.trick else []
    if losers:
        return _pick(losers, _duck_key, rng, highest=True)
    return _pick(seen.legal, _low_key, rng)


def _cheapest_winner(seen: _Seen, rng: Rng | None) -> Card | None:
    """The lowest legal card that takes the trick as it stands (None when leading or when none does)."""
    winners = [c for c in seen.legal if seen.beats(c)] if seen.trick else []
    return _pick(winners, lambda c: strength(c, seen.trick[0][1]), rng) if winners else None


def safe_card(view: Mapping[str, Any], sides: Sides, rng: Rng | None = None) -> Card:
    """The timeout card (docs/rules/spades.md, "The safe card"), from the seat's view."""
    return safe_card_of(_Seen.of(view), sides, rng)


def safe_card_of(seen: _Seen, sides: Sides, rng: Rng | None = None) -> Card:
    """The timeout card, from the facts it reads (either path's: _Seen)."""
    seat = seen.seat
    if seen.bids[seat] == 0:
        return _duck(seen, rng)
    win = seen.win
    partner = sides.partner_of(seat)
    if win is not None and win[0] == partner and seen.bids[partner] != 0:
        return _pick(seen.legal, _low_key, rng)
    return _cheapest_winner(seen, rng) or _pick(seen.legal, _low_key, rng)


def _is_master(card: Card, seen: _Seen) -> bool:
    """True when no unplayed card of the suit outside this hand ranks above `card`."""
    return seen.top_unknown(card.suit) <= card.rank


def bot_card(view: Mapping[str, Any], sides: Sides, rng: Rng) -> Card:
    """The bot's card (docs/rules/spades.md, "The bot"), from the seat's view."""
    return bot_card_of(_Seen.of(view), sides, rng)


def bot_card_of(seen: _Seen, sides: Sides, rng: Rng) -> Card:
    """The bot's card, from the facts it reads (either path's: _Seen)."""
    seat = seen.seat
    partner = sides.partner_of(seat)
    bids = seen.bids
    if bids[seat] == 0:  # keep our own nil
        return _duck(seen, rng)
    win = seen.win
    if bids[partner] == 0 and win is not None and win[0] == partner:
        # Cover the partner's nil: take the trick away from them, as cheaply as we can.
        cover = _cheapest_winner(seen, rng)
        if cover is not None:
            return cover
    taken = seen.taken
    counted = (taken[seat] if bids[seat] != 0 else 0) + (taken[partner] if bids[partner] != 0 else 0)
    contract = bids[seat] + bids[partner]
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


# ---------------------------------------------------------------------------------------------- state


class SpadesState(GameState):
    trump = SPADE  # spades are always trump

    def __init__(self, rules: SpadesRules, chance: Chance):
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

    # --- the policies: the fast path -------------------------------------------------------------------
    @fast_path(general=GameState._bot_move_from_view, consumes=("rng",))
    def _bot_move(self, seat: int, rng: Rng) -> Move:
        """The fast path of GameState.bot_move for the seat to move: rules.bot_move(view(seat), rng), answered from the engine's own objects (_Seen.of_state: no view made
        nor read back); the same decision functions as the view's, so the same move for every Rng."""
        return self._policy_move(seat, lambda seen: bot_card_of(seen, self.rules.sides, rng))

    @fast_path(general=GameState._timeout_move_from_view)
    def _timeout_move(self, seat: int) -> Move:
        """The fast path of GameState.timeout_move: rules.timeout_move(view(seat)), from the engine's own objects."""
        return self._policy_move(seat, lambda seen: safe_card_of(seen, self.rules.sides))

    def _policy_move(self, seat: int, card_of: Callable[[_Seen], Card]) -> Move:
        """Both policies: the suggested bid (as SpadesRules's), else the card chosen from the state's facts."""
        if self.phase == "bid":
            return Move.bid(suggested_bid(self.hands[seat]))
        return Move.play(card_of(_Seen.of_state(self, seat)))

    @property
    def result(self) -> dict[str, Any] | None:
        if not self.over:
            return None
        sides = self.rules.sides
        best = 0 if self.scores[0] > self.scores[1] else 1
        return {"scores": list(self.scores), "sides": sides.to_json(), "winners": list(sides.seats_of(best))}


# ---------------------------------------------------------------------------------------------- rules


class SpadesRules(Rules):
    id = "spades"
    title = "Spades"
    table_sizes = (4,)
    partnership_sizes = (4,)
    SETTINGS = ()  # the seed names no options; the clocks belong to the service

    deal_layout = "spades-4"  # 13 each, one at a time from the dealer's left (docs/rules/spades.md)

    def new_game(self, chance: Chance) -> SpadesState:
        return SpadesState(self, chance)

    def describe(self) -> str:
        return (
            "Spades: four players, partners sit opposite (seats 0 and 2 against 1 and 3); 52 cards, aces high, "
            "13 each, dealt one at a time from the dealer's left; the deal passes left every hand; spades are "
            "always trump. Each player bids once, 0 (nil) to 13, from the dealer's left; no blind nil. The "
            "dealer's left leads first; follow suit if you can, else play any card; the highest spade, else the "
            "highest card of the suit led, takes the trick and leads the next. No spade may be led until a "
            "spade has been played on an earlier trick, unless the hand holds only spades. A team's contract "
            "is its two bids added; made: +10 a trick bid and +1 a bag (an extra trick); set: -10 a trick bid. "
            "Nil made +100, lost -100 (its tricks are bags and do not help the partner). Every 10 bags: -100. "
            "The game ends after a hand where a team has 500 or more or -200 or less; the higher team wins; "
            "a tie plays one more hand."
        )

    def suggest(self, view: Mapping[str, Any]) -> Move | None:
        if view.get("phase") != "bid" or view.get("hand") is None:
            return None
        return Move.bid(suggested_bid(cards_of_texts(view["hand"])))

    def timeout_move(self, view: Mapping[str, Any]) -> Move:
        if view["phase"] == "bid":
            return Move.bid(suggested_bid(cards_of_texts(view["hand"])))
        return Move.play(safe_card(view, self.sides))

    def bot_move(self, view: Mapping[str, Any], rng: Rng) -> Move:
        if view["phase"] == "bid":
            return Move.bid(suggested_bid(cards_of_texts(view["hand"])))
        return Move.play(bot_card(view, self.sides, rng))
