"""A seat's view: the common entries every rule set shows (docs/rules/views.md), each made by a function
(state, seat) -> value, and the lazy view a policy reads (GameState.policy_view)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from fairdeal.core.cards import cards_to_str

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


class LazyView(Mapping[str, Any]):
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

    def __iter__(self) -> Iterator[str]:
        return iter(self._makers)

    def __len__(self) -> int:
        return len(self._makers)
