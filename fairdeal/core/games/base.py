"""The one game interface every rule set implements (in the style of python-chess and OpenSpiel).

- `Rules`: a rule set with its settings fixed at deal time and its table size. Rule sets are data: a class
  declares SETTINGS (each a `Setting` with its rule set's default) and PRESETS; `Rules(settings, players)`
  validates them and refuses anything else with `BadSettings` naming what is allowed.
- `GameState`: `to_move`, `legal_moves(seat)`, `why_not(seat, move)`, `apply(seat, move)`, `view(seat)`,
  `is_over`, `result`. Illegal input raises `IllegalMove` carrying the sentence a player needs.
- `Move`: a small immutable value with a stable JSON form.
- `Chance`: where the cards come from. Deals are chance events, never moves: a state asks its Chance for hand
  k's shuffled pack. `fairdeal.core.fairness.SeedChance` derives them from the game seed; `FixedChance` takes
  explicit deck orders (tests, analysis, replays of real-world deals; see docs/transcript.md "Explicit decks").
- Bot and timeout policies live on the Rules object and are pure functions of a seat's view (plus, for bots,
  a seed-derived `Rng`), so the verifier can recompute every bot and timeout move.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, ClassVar, NamedTuple, Protocol

from fairdeal.core.cards import PACK_52, PACK_PLACE, BadCard, Card, card_from_str, cards_to_str
from fairdeal.core.games.seats import Sides

# --------------------------------------------------------------------------------------------- errors


class GameError(Exception):
    """Base of every refusal the engine makes. `code` is a stable slug (used as the problem `type`)."""

    code = "game-error"

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class BadSettings(GameError):
    """A rule set, table size or setting that is not offered."""

    code = "bad-settings"


class MalformedMove(GameError):
    """A move that is not well formed: its JSON form is not its kind's one form, or its fields do not fit its kind
    (see MOVE_FORMS), or it is no Move at all."""

    code = "malformed-move"


class IllegalMove(GameError):
    """A well-formed move that the rules do not allow now; the message is the sentence for the player."""

    code = "illegal-move"


class NotYourTurn(IllegalMove):
    code = "not-your-turn"


class NoSuchSeat(IllegalMove):
    """A seat that is not a seat of this table (the service never sends one: seats come from the players)."""

    code = "no-such-seat"


class GameOver(IllegalMove):
    code = "game-over"


# ---------------------------------------------------------------------------------------------- moves


@dataclass(frozen=True)
class MoveForm:
    """The one JSON form of a move kind: `{"kind": ...}` and at most one more member, of one type."""

    kind: str
    member: str | None  # "card", "cards" or "value"; None: the kind has no other member
    value_type: type | None  # for "value": int (a bid) or str (a suit or a word)
    form: str  # the form as the refusals and docs/transcript.md write it
    meaning: str

    def refuse(self, problem: str) -> MalformedMove:
        return MalformedMove(f"{problem}; its form is {self.form}.")


# Each kind's form, once: Move checks its fields against it, from_json reads exactly this form, and the service,
# the verifier and docs/transcript.md ("Moves") say the same. C is a card text such as "10H".
MOVE_FORMS: dict[str, MoveForm] = {
    f.kind: f
    for f in (
        MoveForm("play", "card", None, '{"kind":"play","card":C}', "play card C to the trick"),
        MoveForm("bid", "value", int, '{"kind":"bid","value":N}', "bid N (a whole number)"),
        MoveForm(
            "pass",
            None,
            None,
            '{"kind":"pass"}',
            "pass in the bidding (Twenty Down's blind decision: look at the cards)",
        ),
        MoveForm("mine", None, None, '{"kind":"mine"}', "120s: the dealer takes the standing bid"),
        MoveForm("redeal", None, None, '{"kind":"redeal"}', "120s-auction dealer-picks: the dealer calls a redeal"),
        MoveForm(
            "trump",
            "value",
            str,
            '{"kind":"trump","value":S}',
            'name the trump suit S (C, D, H or S; Twenty Down also "next" and "blind")',
        ),
        MoveForm(
            "throw",
            "cards",
            None,
            '{"kind":"throw","cards":[C,...]}',
            "throw these cards, possibly none, in canonical order (and be dealt back)",
        ),
        MoveForm("stay", None, None, '{"kind":"stay"}', "Twenty Down: stay in"),
        MoveForm("drop", None, None, '{"kind":"drop"}', "Twenty Down: drop out"),
        MoveForm("newdeal", None, None, '{"kind":"newdeal"}', "Twenty Down: demand a new deal"),
    )
}
MOVE_KINDS = frozenset(MOVE_FORMS)
_KINDS_TEXT = ", ".join(sorted(MOVE_FORMS))
_PLACE = PACK_PLACE  # a card's place in canonical order (suit C D H S, then rank)
_place = _PLACE.__getitem__
_set = object.__setattr__


class Move:
    """One decision of one seat: a small immutable value (python-chess's Move). Its fields are checked when it is
    made, against its kind's form (MOVE_FORMS): a kind it does not know, a member its kind does not use, a card
    that is not one of the 52, cards that are not a tuple of distinct cards or a value of the wrong type raise
    MalformedMove at once. A throw's cards are kept in canonical order (they are a set), so one throw has one
    value and one JSON form."""

    __slots__ = ("kind", "card", "cards", "value")
    kind: str
    card: Card | None
    cards: tuple[Card, ...] | None
    value: int | str | None

    def __init__(
        self, kind: str, card: Card | None = None, cards: tuple[Card, ...] | None = None, value: int | str | None = None
    ):
        form = MOVE_FORMS.get(kind) if type(kind) is str else None
        if form is None:
            raise MalformedMove(f"Unknown move kind {kind!r}; the kinds are {_KINDS_TEXT}.")
        member = form.member
        if card is not None and member != "card":
            raise form.refuse(f"A {kind} move has no 'card'")
        if cards is not None and member != "cards":
            raise form.refuse(f"A {kind} move has no 'cards'")
        if value is not None and member != "value":
            raise form.refuse(f"A {kind} move has no 'value'")
        if member == "card":
            if card.__class__ is not Card or card not in _PLACE:
                raise form.refuse(f"A {kind} move's 'card' is a card, not {card!r}")
        elif member == "cards":
            if cards.__class__ is not tuple:
                raise form.refuse(f"A {kind} move's 'cards' is a tuple of cards, not {cards!r}")
            for c in cards:
                if c.__class__ is not Card or c not in _PLACE:
                    raise form.refuse(f"A {kind} move's 'cards' are cards, not {c!r}")
            if len(set(cards)) != len(cards):
                raise MalformedMove("The same card is named twice in one throw.")
            cards = tuple(sorted(cards, key=_place))
        elif member == "value" and value.__class__ is not form.value_type:
            what = "a whole number" if form.value_type is int else 'a word such as "H"'
            raise form.refuse(f"A {kind} move's 'value' is {what}, not {value!r}")
        _set(self, "kind", kind)
        _set(self, "card", card)
        _set(self, "cards", cards)
        _set(self, "value", value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a Move cannot be changed")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("a Move cannot be changed")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Move:
            return NotImplemented
        return (
            self.kind == other.kind
            and self.card == other.card
            and self.cards == other.cards
            and self.value == other.value
        )

    def __hash__(self) -> int:
        return hash((self.kind, self.card, self.cards, self.value))

    def __reduce__(self):
        return (Move, (self.kind, self.card, self.cards, self.value))

    def __repr__(self) -> str:
        member = MOVE_FORMS[self.kind].member
        return f"Move({self.kind!r}" + (f", {member}={getattr(self, member)!r})" if member else ")")

    # convenient constructors
    @staticmethod
    def play(card: Card) -> Move:
        """Move("play", card=card); a card of the pack gets its one play, made once (a Move never changes, and
        the policies name a card to play at most moves)."""
        if card.__class__ is Card:
            move = _PLAY_OF.get(card)
            if move is not None:
                return move
        return Move("play", card=card)

    @staticmethod
    def bid(value: int) -> Move:
        return Move("bid", value=value)

    @staticmethod
    def pass_() -> Move:
        return Move("pass")

    @staticmethod
    def trump(suit: str) -> Move:
        return Move("trump", value=suit)

    @staticmethod
    def throw(cards: Sequence[Card]) -> Move:
        return Move("throw", cards=tuple(cards))

    @staticmethod
    def throws(cards: Sequence[Card], sizes: Iterable[int]) -> list[Move]:
        """Every throw of `sizes` cards out of `cards`, smallest first, each combination in canonical order:
        [Move.throw(c) for k in sizes for c in combinations(cards, k)], with the cards checked once for all of
        them (a bidder's nine cards have 382 throws, listed at every throw decision)."""
        held = Move("throw", cards=tuple(cards)).cards  # checked: distinct cards, in canonical order
        known = Move.known_throw
        return [known(combo) for k in sizes for combo in combinations(held, k)]  # subsets of it are canonical

    @staticmethod
    def known_throw(cards: tuple[Card, ...]) -> Move:
        """Move.throw(cards) for cards known to be a tuple of distinct pack cards in canonical order, made
        without the checks (the throws listed from a hand checked once; a throw read in its one JSON form)."""
        m = object.__new__(Move)
        _set(m, "kind", "throw")
        _set(m, "card", None)
        _set(m, "cards", cards)
        _set(m, "value", None)
        return m

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.card is not None:
            out["card"] = str(self.card)
        elif self.cards is not None:
            out["cards"] = cards_to_str(self.cards)
        elif self.value is not None:
            out["value"] = self.value
        return out

    @staticmethod
    def from_json(data: Any) -> Move:
        """The move of exactly its kind's form (MOVE_FORMS), or MalformedMove naming what is wrong."""
        if data.__class__ is not dict and not isinstance(data, Mapping):
            raise MalformedMove('A move is a JSON object such as {"kind": "play", "card": "5H"}.')
        kind = data.get("kind")
        form = MOVE_FORMS.get(kind) if isinstance(kind, str) else None
        if form is None:
            raise MalformedMove(f"Unknown move kind {kind!r}; the kinds are {_KINDS_TEXT}.")
        member = form.member
        for name in data:
            if name != "kind" and name != member:
                raise form.refuse(f"A {kind} move has no {name!r}")
        if member is None:
            return Move(kind)
        if member not in data:
            raise form.refuse(f"A {kind} move needs {member!r}")
        raw = data[member]
        try:
            if member == "card":
                return Move(kind, card=card_from_str(raw))
            if member == "cards":
                if not isinstance(raw, list):
                    raise form.refuse('\'cards\' is a list of cards such as ["2C", "10D"]')
                return Move(kind, cards=tuple(card_from_str(c) for c in raw))
        except BadCard as exc:
            raise form.refuse(str(exc).rstrip(".")) from None
        return Move(kind, value=raw)

    def __str__(self) -> str:
        if self.kind == "play":
            return f"play {self.card}"
        if self.kind == "throw":
            return "throw " + (" ".join(cards_to_str(self.cards or ())) or "nothing")
        if self.value is not None:
            return f"{self.kind} {self.value}"
        return self.kind


_PLAY_OF = {c: Move("play", card=c) for c in PACK_52}


# --------------------------------------------------------------------------------------------- chance


class Chance(Protocol):
    """The source of every random event of one game (see fairdeal.core.fairness for the seeded one)."""

    def first_dealer(self, players: int) -> int: ...

    def deck(self, hand: int, pack: Sequence[Card]) -> list[Card]:
        """Hand `hand`'s shuffled pack (hand counts every deal from 0, redeals included)."""

    def reshuffle(self, hand: int, round: int, cards: Sequence[Card]) -> list[Card]:
        """Hand `hand`'s seeded reshuffle number `round` of thrown cards."""


class FixedChance:
    """Explicit deck orders: decks[k] is hand k's pack, top card first (the first card dealt).

    A deck may be shorter than the pack when the remaining order does not matter; the engine completes it
    with the pack's missing cards in canonical order. Reshuffles keep the given order.
    """

    def __init__(self, decks: Sequence[Sequence[Card | str]], first_dealer: int = 0):
        self.decks = [[c if isinstance(c, Card) else card_from_str(c) for c in d] for d in decks]
        self._first_dealer = first_dealer

    def first_dealer(self, players: int) -> int:
        return self._first_dealer % players

    def deck(self, hand: int, pack: Sequence[Card]) -> list[Card]:
        if hand >= len(self.decks):
            raise IndexError(f"FixedChance has no deck for hand {hand}")
        given = list(self.decks[hand])
        if len(set(given)) != len(given) or not set(given) <= set(pack):
            raise ValueError("an explicit deck must name distinct cards of the pack")
        seen = set(given)
        return given + [c for c in pack if c not in seen]

    def reshuffle(self, hand: int, round: int, cards: Sequence[Card]) -> list[Card]:
        return list(cards)


class Rng(Protocol):
    """Seed-derived randomness handed to a bot for one decision (fairdeal.core.fairness.DerivedRng)."""

    def randbelow(self, n: int) -> int: ...


class FirstChoiceRng:
    """An Rng that always picks 0: for tests that want a bot without a seed."""

    def randbelow(self, n: int) -> int:
        return 0


# ------------------------------------------------------------------------------------------- settings


@dataclass(frozen=True)
class Setting:
    """One table setting: its name, the rule set's default, the values allowed, and one line of text."""

    name: str
    default: Any
    choices: tuple[Any, ...]
    text: str
    labels: Mapping[Any, str] = field(default_factory=dict)  # how each value reads in a rules line

    def label(self, value: Any) -> str:
        if value in self.labels:
            return self.labels[value]
        if value is True:
            return "on"
        if value is False:
            return "off"
        return str(value)


# --------------------------------------------------------------------------------------------- rules


class Rules:
    """A rule set with its settings fixed. Subclasses set the ClassVars and implement the methods below."""

    id: ClassVar[str] = ""
    title: ClassVar[str] = ""
    trump_word: ClassVar[str] = "trump"  # 120s-auction says "drumpf"
    table_sizes: ClassVar[tuple[int, ...]] = (4,)
    partnership_sizes: ClassVar[tuple[int, ...]] = ()  # the table sizes played by partners sitting opposite
    SETTINGS: ClassVar[tuple[Setting, ...]] = ()
    # The version of this rule set's engine and of its bot and timeout policies. A change that would replay an
    # old game differently (a rule, a deal order, a bot's choice) must raise it: the version is committed with
    # the rules, and a verifier refuses a game of another version instead of failing it. `version` is the newest
    # (what a new table gets); `versions` every version this program still plays and replays as it was (older
    # transcripts keep verifying), each instance having its own `version`.
    version: ClassVar[int] = 1
    versions: ClassVar[tuple[int, ...]] = (1,)

    def __init__(self, settings: Mapping[str, Any] | None = None, players: int = 4, version: int | None = None):
        if not isinstance(players, int) or isinstance(players, bool) or players not in self.table_sizes:
            sizes = " or ".join(str(n) for n in self.table_sizes)
            raise BadSettings(f"{self.title} is played by {sizes} players, not {players}.")
        if version is not None:
            if type(version) is not int or version not in self.versions:
                raise BadSettings(
                    f"{self.title} has rules versions {', '.join(map(str, self.versions))}, not {version!r}."
                )
            self.version = version  # this table's version (the class's is the newest)
        self.players = players
        self.sides = Sides(players, players in self.partnership_sizes)  # who plays with whom
        # None is "the defaults"; any other non-object ([] , "", false) is refused, not read as no settings
        self.settings = self.validate_settings({} if settings is None else settings)

    @classmethod
    def setting(cls, name: str) -> Setting:
        for s in cls.SETTINGS:
            if s.name == name:
                return s
        raise KeyError(name)

    @classmethod
    def validate_settings(cls, given: Mapping[str, Any]) -> dict[str, Any]:
        if not isinstance(given, Mapping):
            raise BadSettings("Settings are a JSON object of setting names and values.")
        known = {s.name: s for s in cls.SETTINGS}
        out = {s.name: s.default for s in cls.SETTINGS}
        for name, value in given.items():
            if name not in known:
                allowed = ", ".join(known) or "none"
                raise BadSettings(f"{cls.title} has no setting {name!r}; its settings are: {allowed}.")
            s = known[name]
            # 1 == True in Python: compare types too, so an on/off setting takes only true or false.
            if isinstance(value, bool) != isinstance(s.default, bool) or value not in s.choices:
                allowed = ", ".join(repr(c) for c in s.choices)
                raise BadSettings(f"The setting {name!r} takes one of {allowed}, not {value!r}.")
            out[name] = value
        return out

    # --- to implement -----------------------------------------------------------------------------
    def new_game(self, chance: Chance) -> GameState:
        raise NotImplementedError

    @property
    def deal_layout(self) -> str:
        """The id of this table's deal layout: which deck index goes to which seat, kitty or stock. Each id is
        spelled out in the rule set's docs/rules page ("Deal layout"), so a verifier can re-derive every hand
        from the deck alone."""
        raise NotImplementedError

    def describe(self) -> str:
        """The table's rules in full, as one readable text (the lobby's room line)."""
        raise NotImplementedError

    def reminder(self) -> str:
        """A short reminder of what this table plays differently from the defaults ('' when nothing)."""
        changed = [s for s in self.SETTINGS if self.settings[s.name] != s.default]
        return "; ".join(f"{s.text}: {s.label(self.settings[s.name])}" for s in changed)

    def suggest(self, view: Mapping[str, Any]) -> Move | None:
        """What the table suggests for this decision (the pencil tick), or None."""
        return None

    def bot_move(self, view: Mapping[str, Any], rng: Rng) -> Move:
        raise NotImplementedError

    def timeout_move(self, view: Mapping[str, Any]) -> Move:
        raise NotImplementedError

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "players": self.players, "settings": dict(self.settings), "version": self.version}


class Deal(NamedTuple):
    """One deal of a game: its number (every deal from 0, redeals included: the `hand` of Chance.deck) and dealer."""

    hand_number: int
    dealer: int


ViewMaker = Callable[[Any, Any], Any]  # (state, seat) -> one entry of the seat's view


def _trick(st: Any, seat: Any) -> Any:
    play = st._trick_play()
    return play.current.to_json() if play is not None else None


def _tricks(st: Any, seat: Any) -> Any:
    play = st._trick_play()
    return [t.to_json() for t in play.done] if play is not None else []


def _hand(st: Any, seat: Any) -> Any:
    shown = None if seat is None else st._shown_hand(seat)
    return None if shown is None else cards_to_str(shown)


# The view's common entries (docs/rules/views.md), in order.
COMMON_VIEW: dict[str, ViewMaker] = {
    "rule_set": lambda st, seat: st.rules.id,
    "settings": lambda st, seat: dict(st.rules.settings),
    "seat": lambda st, seat: seat,
    "players": lambda st, seat: st.rules.players,
    "sides": lambda st, seat: st.rules.sides.to_json(),
    "trump_word": lambda st, seat: st.rules.trump_word,
    "to_move": lambda st, seat: st.to_move,
    "phase": lambda st, seat: st.phase,
    "dealer": lambda st, seat: st.dealer,
    "hand_number": lambda st, seat: st.hand_number,
    "hand": _hand,
    "hand_sizes": lambda st, seat: [len(st.hands[s]) for s in range(st.rules.players)],
    "scores": lambda st, seat: list(st.scores),
    "trump": lambda st, seat: st.trump,
    "trick": _trick,
    "tricks": _tricks,
    "last_hand": lambda st, seat: st.last_hand,
    "result": lambda st, seat: st.result,
}
_VIEW_TABLES: dict[type, dict[str, ViewMaker]] = {}


class LazyView(Mapping):
    """A seat's view whose entries are made when first read, each once (GameState.policy_view)."""

    __slots__ = ("_state", "_seat", "_makers", "_made")

    def __init__(self, state: Any, seat: Any, makers: Mapping[str, ViewMaker]):
        self._state, self._seat, self._makers = state, seat, makers
        self._made: dict[str, Any] = {}

    def __getitem__(self, key: str) -> Any:
        made = self._made
        if key in made:
            return made[key]
        value = made[key] = self._makers[key](self._state, self._seat)
        return value

    def get(self, key: str, default: Any = None) -> Any:
        return self[key] if key in self._makers else default

    def __contains__(self, key: object) -> bool:
        return key in self._makers

    def __iter__(self):
        return iter(self._makers)

    def __len__(self) -> int:
        return len(self._makers)


class GameState:
    """One game in progress. Subclasses implement the rules; this class owns what every game shares.

    An engine keeps, as plain attributes: `phase` ("over" once the game has ended), `dealer`, `scores` (per side),
    `trump` (a suit letter or None), `hands` (indexable by seat), `last_hand` (the previous hand's summary or None);
    and implements `to_move`, `result`, `_trick_play`, `_shown_hand`, and OWN_VIEW: the game's own view keys,
    after the common ones, each with the function (state, seat) -> value that makes it.
    """

    OWN_VIEW: ClassVar[Mapping[str, ViewMaker]] = {}

    rules: Rules
    trump: str | None = None

    def __init__(self, rules: Rules, chance: Chance):
        self.rules = rules
        self.chance = chance
        self.deals: list[Deal] = []  # every deal so far, in order (the protocol's deal records)

    def _shuffled_deck(self, dealer: int, pack: Sequence[Card]) -> list[Card]:
        """A new deal by `dealer`: recorded in `deals`, its deck from the Chance (top card first)."""
        deal = Deal(len(self.deals), dealer)
        self.deals.append(deal)
        return self.chance.deck(deal.hand_number, pack)

    @property
    def hand_number(self) -> int:
        """The number of the deal in play (from 0, redeals included)."""
        return len(self.deals) - 1

    # --- the template: one checked predicate, one unchecked step -------------------------------------
    def why_not(self, seat: int, move: Move) -> str | None:
        """None if `seat` may make `move` now, else the sentence a player needs."""
        refusal = self._refusal(seat, move)
        return None if refusal is None else refusal.message

    def refusal(self, seat: int, move: Move) -> GameError | None:
        """None if `seat` may make `move` now, else the GameError `apply` would raise: the sentence and its code
        (GameOver, NoSuchSeat, MalformedMove, NotYourTurn, IllegalMove), for a caller that answers with both."""
        return self._refusal(seat, move)

    def is_legal(self, seat: int, move: Move) -> bool:
        return self._refusal(seat, move) is None

    def apply(self, seat: int, move: Move) -> None:
        """Make a move: the checks of `why_not`, then `push`. A refused move raises its GameError (GameOver,
        NoSuchSeat, MalformedMove, NotYourTurn, IllegalMove) with the why_not sentence and changes nothing."""
        if (
            seat.__class__ is int
            and move.__class__ is Move
            and seat == self.to_move
            and self._why_not(seat, move) is None
        ):
            self._push(seat, move)  # the usual case, a legal move of the seat to move: _refusal's first test
            return
        refusal = self._refusal(seat, move)
        if refusal is not None:
            raise refusal
        self._push(seat, move)

    def push(self, seat: int, move: Move) -> None:
        """Make a move without any check (python-chess's push): only for a move known to be legal, such as one
        taken from legal_moves(seat). An illegal one leaves the state undefined."""
        self._push(seat, move)

    def legal_moves(self, seat: int) -> list[Move]:
        """Every move `seat` may make now ([] when it is not that seat's turn, or the game is over)."""
        turn = self.to_move
        if turn is None or seat.__class__ is bool or seat != turn:
            return []
        return self._legal_moves(seat)

    def _refusal(self, seat: Any, move: Any) -> GameError | None:
        """The refusal of `move` by `seat` now, or None. The order is every game's: the game is over, there is no
        such seat, it is not a Move, a rule that refuses it whoever's turn it is, not the seat's turn, then the
        game's own rules for the seat to move."""
        turn = self.to_move
        if seat.__class__ is not int or seat != turn or move.__class__ is not Move:
            if self.is_over:
                return GameOver("The game is over.")
            n = self.rules.players
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
                return NoSuchSeat(f"There is no seat {seat!r} at this table; the seats are 0 to {n - 1}.")
            if not isinstance(move, Move):
                return MalformedMove("That is not a move.")
            if seat != turn:
                reason = self._standing_refusal(seat, move)
                if reason is not None:
                    return IllegalMove(reason)
                return NotYourTurn(f"It is not your turn: seat {turn} is to {self._task()}.")
        reason = self._why_not(seat, move)
        return None if reason is None else IllegalMove(reason)

    # --- what each engine implements ------------------------------------------------------------------
    @property
    def to_move(self) -> int | None:
        """The seat whose decision the game waits for, or None when it is over."""
        raise NotImplementedError

    def _why_not(self, seat: int, move: Move) -> str | None:
        """The game's rules for the seat to move (the base has checked the game, the seat, the Move and the
        turn): None if the move is legal, else the sentence."""
        raise NotImplementedError

    def _push(self, seat: int, move: Move) -> None:
        """The game's own step for a legal move: no checks."""
        raise NotImplementedError

    def _legal_moves(self, seat: int) -> list[Move]:
        """Every legal move of the seat to move. Throws list the sensible shapes only when enumeration would
        explode; `why_not` is the authority."""
        raise NotImplementedError

    def _standing_refusal(self, seat: int, move: Move) -> str | None:
        """A rule that refuses the move whoever's turn it is (Twenty Down: a player who may not drop out), or None.
        The base asks it for a seat that is not to move; an engine that has such rules asks it in _why_not too."""
        return None

    def _task(self) -> str:
        """What the seat to move is to do now, for "It is not your turn: seat 2 is to <task>."."""
        raise NotImplementedError

    def all_cards(self) -> list[Card]:
        """Every card of the deal in play, wherever it lies (hands, kitty, stock, thrown, played): the pack, each
        card once, after every move of a game in progress (the conformance suite checks it)."""
        raise NotImplementedError

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def result(self) -> dict[str, Any] | None:
        """When over: {"scores": [...], "winners": [seats...]} (scores per side or per player as the
        rule set keeps them; "sides": [[seats...]...] when scores are per side)."""
        raise NotImplementedError

    # --- views ---------------------------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """Exactly what `seat` may know (None: a spectator, the public part). JSON-ready. The common keys mean
        the same in every rule set (docs/rules/views.md); the game's own keys (OWN_VIEW) follow them."""
        if seat is not None:
            self._check_seat(seat)
        return {key: make(self, seat) for key, make in self._view_table(seat).items()}

    # --- the policies ----------------------------------------------------------------------------------
    def bot_move(self, seat: int, rng: Rng) -> Move:
        """What a bot at `seat` plays now: rules.bot_move(view(seat), rng), a pure function of the seat's view
        (the general path). For the seat to move an engine may answer from its own state instead (_bot_move), a
        fast path for the audit, which recomputes every bot move: it must equal the view's answer at every
        decision, whatever the Rng picks (tests/games/conformance/test_policies.py checks it), and change
        nothing. Any other seat (only a tampered transcript asks) goes the general way, whatever the engine."""
        if seat.__class__ is int and seat == self.to_move:
            move = self._bot_move(seat, rng)
            if move is not None:
                return move
        return self.rules.bot_move(self.policy_view(seat), rng)

    def timeout_move(self, seat: int) -> Move:
        """What the table plays for `seat` when its time runs out: rules.timeout_move(view(seat)); the engine's
        fast path (_timeout_move) answers for the seat to move, held to the same as bot_move's."""
        if seat.__class__ is int and seat == self.to_move:
            move = self._timeout_move(seat)
            if move is not None:
                return move
        return self.rules.timeout_move(self.policy_view(seat))

    def _bot_move(self, seat: int, rng: Rng) -> Move | None:
        """The engine's fast path of bot_move for the seat to move, or None: this engine has none."""
        return None

    def _timeout_move(self, seat: int) -> Move | None:
        """The engine's fast path of timeout_move for the seat to move, or None: this engine has none."""
        return None

    def policy_view(self, seat: int) -> LazyView:
        """view(seat) for a policy, each entry made when it is first read (the fast path of the audit, which
        recomputes every bot and timeout move: a policy reads a few of the entries). The same makers as view's,
        so the same values; read it before the state changes."""
        self._check_seat(seat)
        return LazyView(self, seat, self._view_table(seat))

    def _view_table(self, seat: int | None) -> Mapping[str, ViewMaker]:
        """The makers of the view's entries, in order: COMMON_VIEW's, then the game's OWN_VIEW (one table a
        class, made once). An engine whose keys depend on the seat chooses among tables here."""
        cls = type(self)
        table = _VIEW_TABLES.get(cls)
        if table is None:
            table = _VIEW_TABLES[cls] = {**COMMON_VIEW, **cls.OWN_VIEW}
        return table

    def _check_seat(self, seat: Any) -> None:
        n = self.rules.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise NoSuchSeat(f"There is no seat {seat!r} at this table; the seats are 0 to {n - 1}.")

    def _trick_play(self):
        """The TrickPlay whose tricks the views show now (the trick in progress and this hand's completed
        tricks), or None when no trick is being played."""
        raise NotImplementedError

    def _shown_hand(self, seat: int) -> Sequence[Card] | None:
        """`seat`'s own cards in the order its view lists them, or None while it may not see them."""
        raise NotImplementedError
