"""A move: a small immutable value with a stable JSON form, each kind's one form in MOVE_FORMS (see
fairdeal.core.games.base)."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain, combinations, repeat
from typing import Any

from fairdeal.core.cards import PACK_52, PACK_PLACE, BadCard, Card, card_from_str, cards_to_str
from fairdeal.core.fastpath import fast_path
from fairdeal.core.games.errors import MalformedMove


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


def play_made_anew(card: Card) -> Move:
    """Move("play", card=card): the general form of Move.play."""
    return Move("play", card=card)


def throws_one_by_one(cards: Sequence[Card], sizes: Iterable[int]) -> list[Move]:
    """[Move.throw(c) for k in sizes for c in combinations(cards, k)]: the general form of Move.throws."""
    return [Move.throw(c) for k in sizes for c in combinations(cards, k)]


def throw_made_anew(cards: tuple[Card, ...]) -> Move:
    """Move("throw", cards=cards), checked: the general form of Move.known_throw."""
    return Move("throw", cards=cards)


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
        _set_kind(self, kind)
        _set_card(self, card)
        _set_cards(self, cards)
        _set_value(self, value)

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

    def __reduce__(self) -> tuple[type[Move], tuple[Any, ...]]:
        return (Move, (self.kind, self.card, self.cards, self.value))

    def __repr__(self) -> str:
        member = MOVE_FORMS[self.kind].member
        return f"Move({self.kind!r}" + (f", {member}={getattr(self, member)!r})" if member else ")")

    # convenient constructors
    @staticmethod
    @fast_path(general=play_made_anew)
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
    @fast_path(general=throws_one_by_one)
    def throws(cards: Sequence[Card], sizes: Iterable[int]) -> list[Move]:
        """Every throw of `sizes` cards out of `cards`, smallest first, each combination in canonical order:
        [Move.throw(c) for k in sizes for c in combinations(cards, k)], with the cards checked once for all of
        them (a bidder's nine cards have 382 throws, listed at every throw decision)."""
        held = Move("throw", cards=tuple(cards)).cards or ()  # checked: distinct cards, in canonical order
        return _known_throws(list(chain.from_iterable(map(combinations, repeat(held), sizes))))  # subsets of it
        # are canonical

    @staticmethod
    @fast_path(general=throw_made_anew)
    def known_throw(cards: tuple[Card, ...]) -> Move:
        """Move.throw(cards) for cards known to be a tuple of distinct pack cards in canonical order, made
        without the checks (the throws listed from a hand checked once; a throw read in its one JSON form)."""
        m = _new(Move)
        _set_kind(m, "throw")
        _set_card(m, None)
        _set_cards(m, cards)
        _set_value(m, None)
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
        kind = form.kind  # the same text, now known to be a kind
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


# The slots' own setters (a Move refuses setattr): a Move made without __init__ fills its four slots with these.
_new = object.__new__
_slots = Move.__dict__  # the member descriptors of Move's four slots
_set_kind, _set_card, _set_cards, _set_value = (_slots[name].__set__ for name in ("kind", "card", "cards", "value"))
_consume = deque[object](maxlen=0).extend

_PLAY_OF = {c: Move("play", card=c) for c in PACK_52}


def _known_throws(combos: list[tuple[Card, ...]]) -> list[Move]:
    """[Move.known_throw(c) for c in combos], the Moves made slot by slot over the whole list, each step one pass
    in C (no Python call per Move: a bidder's 382 throws are listed at every throw decision)."""
    n = len(combos)
    moves = list(map(_new, repeat(Move, n)))
    _consume(map(_set_kind, moves, repeat("throw", n)))
    _consume(map(_set_card, moves, repeat(None, n)))
    _consume(map(_set_cards, moves, combos))
    _consume(map(_set_value, moves, repeat(None, n)))
    return moves
