"""The Spades game as the server keeps it at a dealer-blind table: it does not know the humans' hands. In the core
because the verifier replays the same way whose turn it was when a blind game stalled (stall.py), before or without
the deals.

BlindSpadesState is SpadesState with every hand empty at the deal; the server learns a card only when it is
played with its open (checked against the final deck before the move reaches the log), and holds in full only
the hands of its own seats (the bots), given to it once the deal's releases are in (`give`). So:
- a hidden seat's play is taken for any card not yet played and not in a hand the server holds; "must follow
  suit" and "spades not broken" cannot be checked live (the hand is unknown) and are checked when the hand ends
  and all its 52 cards are open (fairdeal.service.blind.audit);
- a hidden seat's view has no hand (its own client holds it), its hand size counts the cards it has played;
- a bot seat is a full SpadesState seat: its policies read its own hand and the public history only (the
  engine's fast path, _Seen.of_state, reads nothing else), so its moves are the ones the verifier recomputes
  from the bot's view once the deal is known.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fairdeal.core.cards import PACK_52, PACK_PLACE, Card
from fairdeal.core.games.base import Move
from fairdeal.core.games.spades import HAND_SIZE, PLAYERS, SpadesRules, SpadesState
from fairdeal.core.replay import LiveGame

BLIND_RULE_SETS = ("spades",)  # the rule sets a blind table supports (every card dealt at the start and played)


class _UnknownDeck:
    """The Chance of a blind table's engine: the first dealer from the game seed as at any table, and a deck the
    engine deals but nobody reads (the hands are emptied at once): the real deal is the seats' shuffles."""

    def __init__(self, chance: Any):
        self._chance = chance

    def first_dealer(self, players: int) -> int:
        return int(self._chance.first_dealer(players))

    def deck(self, hand: int, pack: Sequence[Card]) -> list[Card]:
        return list(pack)

    def reshuffle(self, hand: int, round: int, cards: Sequence[Card]) -> list[Card]:
        return list(cards)  # Spades never reshuffles; here for the Chance protocol


class BlindSpadesState(SpadesState):
    def __init__(self, rules: SpadesRules, chance: Any):
        super().__init__(rules, _UnknownDeck(chance))

    def _deal(self) -> None:
        super()._deal()
        for held in self.hands.values():
            held.clear()  # the server does not know them
        self.known: set[int] = set()  # seats whose whole hand of this deal the server holds (its bots)
        self.played_by = [0] * PLAYERS  # cards each seat has played this hand (its hand size is 13 minus them)

    # --- what the server holds ---------------------------------------------------------------------
    def give(self, seat: int, cards: Sequence[Card]) -> None:
        """The whole hand of one of the server's own seats for the deal in play (its cards not played yet stay)."""
        if seat in self.known:
            return
        self.hands[seat][:] = sorted((c for c in cards if c not in self._played), key=PACK_PLACE.__getitem__)
        self.known.add(seat)

    def hidden(self, seat: int) -> bool:
        return seat not in self.known

    def _held_elsewhere(self, card: Card) -> bool:
        return card in self._played or any(card in self.hands[s] for s in self.known)

    # --- moves -------------------------------------------------------------------------------------
    def _why_not(self, seat: int, move: Move) -> str | None:
        if self.play is not None and move.card is not None and self.hidden(seat):  # a play: its card
            if move.card in self._played:
                return f"{move.card.name()} has been played already."
            if self._held_elsewhere(move.card):
                return f"You do not hold {move.card.name()}."
            return None  # legality against the hand is checked when the hand ends (every card open)
        return super()._why_not(seat, move)

    def _push(self, seat: int, move: Move) -> None:
        if self.play is not None and move.card is not None:  # a play
            if self.hidden(seat):
                self.hands[seat].append(move.card)  # opened: TrickPlay takes it out of the hand at once
            self.played_by[seat] += 1
        super()._push(seat, move)

    def _legal_moves(self, seat: int) -> list[Move]:
        if self.play is not None and self.hidden(seat):
            return [Move.play(c) for c in PACK_52 if not self._held_elsewhere(c)]  # the client narrows it
        return super()._legal_moves(seat)

    # --- views -------------------------------------------------------------------------------------
    def _shown_hand(self, seat: int) -> Any:  # None for a hidden seat: the base view (games/base.py) shows no hand
        return None if self.hidden(seat) else super()._shown_hand(seat)

    def _view_table(self, seat: int | None) -> Mapping[str, Any]:
        table = super()._view_table(seat)
        if "hand_sizes" in table and table["hand_sizes"] is not _hand_sizes:
            table = {**table, "hand_sizes": _hand_sizes}
        return table


def _hand_sizes(st: BlindSpadesState, seat: Any) -> list[int]:
    return [HAND_SIZE - n for n in st.played_by]


def blind_live_game(start: Mapping[str, Any], game_seed: bytes) -> LiveGame:
    """The LiveGame of a blind table: the seed as at any table (first dealer, bot tie-breaks, record salts), the
    engine a BlindSpadesState."""
    live = LiveGame(start, game_seed)
    if not isinstance(live.rules, SpadesRules):
        raise ValueError(f"rule set {live.rules.id} has no blind tables")
    live.state = BlindSpadesState(live.rules, live.chance)
    return live
