"""A blind seat's game view completed with its own hand (docs/blind.md, "The terminal client").

At a dealer-blind table the service cannot see the hands: a human's `view.hand` is null and `legal_moves` of a
card decision is every card not yet played. The seat's client knows its hand (it decrypted it), so it fills the
view in and narrows the moves itself with the core's Spades rules (must follow suit, no spade led before spades
are broken), the same functions the engine uses: what the client offers is what a replay of the hand accepts.
The suggestion and the timeout move are the rule set's own view-based policies on the completed view.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from fairdeal.core.cards import card_from_str, cards_of_texts
from fairdeal.core.games.base import Rules
from fairdeal.core.games.spades import legal_cards, sort_cards, why_not_card


def played_in_view(view: dict) -> set[str]:
    """The cards of the hand in play already played: the tricks taken and the trick on the table."""
    done = {c for t in view.get("tricks") or [] for _, c in t["plays"]}
    return done | {c for _, c in (view.get("trick") or {}).get("plays") or []}


def own_view(view: dict, dealt: Iterable[str]) -> dict:
    """The view with "hand": the cards dealt to this seat in the hand in play that it has not played, in the
    pack's order (as an ordinary table's view shows a hand)."""
    played = played_in_view(view)
    held = sort_cards(cards_of_texts([c for c in dealt if c not in played]))
    return dict(view, hand=[str(c) for c in held])


def own_game(game: dict, dealt: Iterable[str] | None, rules: Rules) -> dict:
    """The game answer as an ordinary table would give it to this seat: its hand in the view and, at its card
    decision, only the cards it may play (the others in "why_not" with the rule's sentence), the rule set's
    suggestion. `dealt` None: the seat's cards of this hand are not known yet (the deal is not done), so it has no
    move to make yet."""
    view = game.get("view")
    if not isinstance(view, dict):
        return game
    if dealt is None:
        return dict(game, your_turn=False)
    view = own_view(view, dealt)
    out: dict[str, Any] = dict(game, view=view)
    if game.get("your_turn") and view.get("phase") == "play":
        held = cards_of_texts(view["hand"])
        trick = [card_from_str(c) for _, c in (view.get("trick") or {}).get("plays") or []]
        broken = bool(view.get("spades_broken"))
        legal = legal_cards(held, trick, broken)
        out["legal_moves"] = [{"kind": "play", "card": str(c)} for c in legal]
        out["why_not"] = {str(c): why_not_card(held, c, trick, broken) for c in held if c not in legal}
        view["legal"] = out["legal_moves"]
    if game.get("your_turn"):
        suggested = rules.suggest(view)
        out["suggested"] = suggested.to_json() if suggested is not None else None
    return out


def timeout_move(rules: Rules, game: dict) -> dict:
    """The rule set's timeout move for this seat, from its completed view (the move the verifier checks a
    "timeout" record against once the deal is known)."""
    return rules.timeout_move(game["view"]).to_json()
