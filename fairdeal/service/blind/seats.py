"""The server's own seats at a blind table (its bots): their secrets and the steps they take.

A bot seat is a BlindSeat (fairdeal.core.blind.seat) whose σ and identity key the server draws at the table's
start and keeps with the game's other secrets (Store.put_secret under "<game>~blind~<seat>", never replaced,
never served: the reveal at the end is the only way σ leaves the server). It learns its own cards from the other
seats' releases exactly as a human's client does, and nothing else.
"""

from __future__ import annotations

import json
import threading

from fairdeal.core.blind import messages as blind_messages
from fairdeal.core.blind.seat import BlindSeat
from fairdeal.core.cards import card_from_str


def secret_id(game_id: str, seat: int) -> str:
    return f"{game_id}~blind~{seat}"


class ServerSeats:
    """The bot seats of the games this process touches (secrets from the store, received cards in memory)."""

    def __init__(self, store):
        self.store = store
        self._seats: dict[tuple[str, int], BlindSeat] = {}
        self._lock = threading.Lock()

    def seat(self, game_id: str, seat: int, seats: int) -> BlindSeat:
        key = (game_id, seat)
        with self._lock:
            found = self._seats.get(key)
        if found is not None:
            return found
        text = self.store.get_secret(secret_id(game_id, seat))
        if text is None:
            fresh = BlindSeat(game_id, seat, seats)
            kept = {"secret": fresh.secret.hex(), "identity": blind_messages.identity_hex(fresh.identity)}
            self.store.put_secret(secret_id(game_id, seat), json.dumps(kept))  # a racer's may win: read it back
            text = self.store.get_secret(secret_id(game_id, seat))
        kept = json.loads(text)
        made = BlindSeat(
            game_id,
            seat,
            seats,
            secret=bytes.fromhex(kept["secret"]),
            identity=blind_messages.identity_from_hex(kept["identity"]),
        )
        with self._lock:
            return self._seats.setdefault(key, made)

    def hand(self, bot: BlindSeat, deal: int, final_deck, releases, holders, box_keys) -> dict[int, str]:
        """The bot's cards of a deal, {position: card text} (received once, then kept)."""
        mine = {j: c for (k, j), c in bot.cards.items() if k == deal}
        if not mine:
            mine = bot.receive(deal, final_deck, releases, holders, box_keys)
        return mine

    @staticmethod
    def cards(hand: dict[int, str]):
        return [card_from_str(c) for c in hand.values()]

    def forget(self, game_id: str) -> None:
        with self._lock:
            for key in [k for k in self._seats if k[0] == game_id]:
                del self._seats[key]
