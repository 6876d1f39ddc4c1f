"""The one game interface every rule set implements (in the style of python-chess and OpenSpiel).

- `Rules`: a rule set with its settings fixed at deal time and its table size. Rule sets are data: a class
  declares SETTINGS (each a `Setting` with its rule set's default) and PRESETS; `Rules(settings, players)`
  validates them and refuses anything else with `BadSettings` naming what is allowed.
- `GameState`: `to_move`, `legal_moves(seat)`, `why_not(seat, move)`, `apply(seat, move)`, `view(seat)`,
  `is_over`, `result`. Illegal input raises `IllegalMove` carrying the sentence a player needs (errors.py).
- `Move` (moves.py): a small immutable value with a stable JSON form.
- `Chance` (chance.py): where the cards come from. Deals are chance events, never moves: a state asks its Chance
  for hand k's shuffled pack. `fairdeal.core.fairness.SeedChance` derives them from the game seed; `FixedChance`
  takes explicit deck orders (tests, analysis, replays of real-world deals; see docs/transcript.md "Explicit decks").
- Bot and timeout policies live on the Rules object and are pure functions of a seat's view (plus, for bots,
  a seed-derived `Rng`), so the verifier can recompute every bot and timeout move. A policy reads a `Position`,
  the rule set's one type for what it decides from, made by one of two makers declared here: from the seat's view
  (the general path, and all a bot at a table that keeps its deals from the server has) or from the engine's
  state (the fast path the audit replays with). The view's common entries and the lazy view are in views.py.

Every name of the interface is importable from here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from fairdeal.core.cards import Card
from fairdeal.core.fastpath import fast_path
from fairdeal.core.games.chance import Chance, FirstChoiceRng, FixedChance, Rng
from fairdeal.core.games.errors import (
    BadSettings,
    GameError,
    GameOver,
    IllegalMove,
    MalformedMove,
    NoSuchSeat,
    NotYourTurn,
)
from fairdeal.core.games.moves import MOVE_FORMS, MOVE_KINDS, Move, MoveForm
from fairdeal.core.games.seats import Sides
from fairdeal.core.games.views import COMMON_VIEW, LazyView, ViewMaker

if TYPE_CHECKING:
    from fairdeal.core.games.tricks import TrickPlay

__all__ = [
    "COMMON_VIEW",
    "MOVE_FORMS",
    "MOVE_KINDS",
    "BadSettings",
    "Chance",
    "Deal",
    "FirstChoiceRng",
    "FixedChance",
    "GameError",
    "GameOver",
    "GameState",
    "IllegalMove",
    "LazyView",
    "MalformedMove",
    "Move",
    "MoveForm",
    "NoSuchSeat",
    "NotYourTurn",
    "Position",
    "Rng",
    "Rules",
    "Setting",
    "ViewMaker",
]

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


# ------------------------------------------------------------------------------------------ positions


class Position:
    """What a rule set's bot and timeout policies read of one seat's position: one type a rule set (`Rules.position`),
    made by either of two makers, which every rule set writes:

    - `of_view(view)`: from the seat's view alone (the general path: `Rules.bot_move` / `timeout_move`, pure
      functions of the view, as the verifier and the clients have it; a bot that knows only its own view, at a table
      whose server does not hold the deal, decides from this);
    - `of_state(state, seat)`: from the engine's own objects (the fast path `GameState.bot_move` / `timeout_move`
      take for the seat to move, which the audit replays with: no view made, no card text written and read back).
      It changes nothing in the state; ask it before the state moves on.

    The decisions exist once, on the position. Two positions are equal when their `facts()` are: the two makers agree
    at every decision of whole games of every table (tests/games/conformance/test_positions.py), and so do the moves
    chosen from them (tests/games/conformance/test_policies.py)."""

    __slots__ = ()

    @classmethod
    def of_view(cls, view: Mapping[str, Any]) -> Position:
        """The position `view` shows (a seat's view, or its policy view)."""
        raise NotImplementedError

    @classmethod
    def of_state(cls, state: GameState, seat: int) -> Position:
        """The position of `seat` (the seat to move) in `state`, as of_view(state.view(seat)) makes it."""
        raise NotImplementedError

    def facts(self) -> dict[str, Any]:
        """Every fact a policy may read at this position (reading them all: for comparing positions)."""
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self.facts() == other.facts()

    __hash__ = None  # type: ignore[assignment]  # equal by their facts, which are lists

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.facts()!r})"


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
    version: int = 1  # the class's: the newest; an instance's: its table's
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

    # --- the policies: one decision each, on the rule set's Position ---------------------------------------
    position: ClassVar[type[Position]] = Position  # each rule set's own

    def bot_choice(self, pos: Any, rng: Rng) -> Move:
        """The bot's move at `pos` (a `self.position`, of either maker)."""
        raise NotImplementedError

    def timeout_choice(self, pos: Any) -> Move:
        """The move the table plays at `pos` when the seat's time runs out."""
        raise NotImplementedError

    def bot_move(self, view: Mapping[str, Any], rng: Rng) -> Move:
        """The bot's move from the seat's view alone (the general path)."""
        return self.bot_choice(self.position.of_view(view), rng)

    def timeout_move(self, view: Mapping[str, Any]) -> Move:
        """The timeout move from the seat's view alone (the general path)."""
        return self.timeout_choice(self.position.of_view(view))

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "players": self.players, "settings": dict(self.settings), "version": self.version}


class Deal(NamedTuple):
    """One deal of a game: its number (every deal from 0, redeals included: the `hand` of Chance.deck) and dealer."""

    hand_number: int
    dealer: int


_VIEW_TABLES: dict[type, dict[str, ViewMaker]] = {}  # each GameState class's view makers


class GameState:
    """One game in progress. Subclasses implement the rules; this class owns what every game shares.

    An engine keeps, as plain attributes: `phase` ("over" once the game has ended), `dealer`, `scores` (per side),
    `trump` (a suit letter or None), `hands` (indexable by seat), `last_hand` (the previous hand's summary or None);
    and implements `to_move`, `result`, `_trick_play`, `_shown_hand`, and OWN_VIEW: the game's own view keys,
    after the common ones, each with the function (state, seat) -> value that makes it.
    """

    OWN_VIEW: ClassVar[Mapping[str, ViewMaker]] = {}

    rules: Rules
    phase: str
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

    def apply_refused_first(self, seat: int, move: Move) -> None:
        """The refusal of the move (_refusal) raised, else the move pushed: the general form of apply."""
        refusal = self._refusal(seat, move)
        if refusal is not None:
            raise refusal
        self._push(seat, move)

    @fast_path(general=apply_refused_first, changes_state=True)
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
        (the general path). For the seat to move the same decision is taken on the position made from the state
        instead (_bot_move), a fast path for the audit, which recomputes every bot move: it equals the view's
        answer at every decision, whatever the Rng picks (tests/games/conformance/test_policies.py checks it), and
        changes nothing. Any other seat (only a tampered transcript asks) goes the general way."""
        if seat.__class__ is int and seat == self.to_move:
            return self._bot_move(seat, rng)
        return self.rules.bot_move(self.policy_view(seat), rng)

    def timeout_move(self, seat: int) -> Move:
        """What the table plays for `seat` when its time runs out: rules.timeout_move(view(seat)); for the seat to
        move, from the position made from the state (_timeout_move), held to the same as bot_move's."""
        if seat.__class__ is int and seat == self.to_move:
            return self._timeout_move(seat)
        return self.rules.timeout_move(self.policy_view(seat))

    def _bot_move_from_view(self, seat: int, rng: Rng) -> Move:
        """rules.bot_move(view(seat), rng): the general form of _bot_move."""
        return self.rules.bot_move(self.view(seat), rng)

    def _timeout_move_from_view(self, seat: int) -> Move:
        """rules.timeout_move(view(seat)): the general form of _timeout_move."""
        return self.rules.timeout_move(self.view(seat))

    @fast_path(general=_bot_move_from_view, consumes=("rng",))
    def _bot_move(self, seat: int, rng: Rng) -> Move:
        """bot_move's fast path for the seat to move: the rule set's decision on Position.of_state (no view made
        nor read back)."""
        rules = self.rules
        return rules.bot_choice(rules.position.of_state(self, seat), rng)

    @fast_path(general=_timeout_move_from_view)
    def _timeout_move(self, seat: int) -> Move:
        """timeout_move's fast path for the seat to move: the decision on Position.of_state."""
        rules = self.rules
        return rules.timeout_choice(rules.position.of_state(self, seat))

    @fast_path(general=view)
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

    def _trick_play(self) -> TrickPlay | None:
        """The TrickPlay whose tricks the views show now (the trick in progress and this hand's completed
        tricks), or None when no trick is being played."""
        raise NotImplementedError

    def _shown_hand(self, seat: int) -> Sequence[Card] | None:
        """`seat`'s own cards in the order its view lists them, or None while it may not see them."""
        raise NotImplementedError
