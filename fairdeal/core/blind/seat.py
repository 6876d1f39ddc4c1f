"""BlindSeat: everything one seat does at a dealer-blind table (docs/blind.md, "A seat's part"). Server bots,
`fairdeal play` and (mirrored in JavaScript) the browser all follow it.

A seat keeps two secrets and nothing else: σ (every mask, permutation, lock and its box key derive from it) and
its Ed25519 identity key (signs every message). to_json / from_json keep them (with the cards received) across a
reconnect. Decks come and go as lists of 64-hex elements, as they are in the messages.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from fairdeal.core.blind import deal as blind_deal
from fairdeal.core.blind import derive, messages, release
from fairdeal.core.blind.group import element_from_hex, scalar_hex
from fairdeal.core.blind.messages import message, sign


class BlindFault(Exception):
    """Something another seat sent makes the deal impossible to go on with. `seat` is the seat whose signed
    message shows the fault, or None when only the end's reveal can tell who (a card that opens to no card)."""

    def __init__(self, text: str, seat: int | None):
        super().__init__(text)
        self.seat = seat


class BlindSeat:
    def __init__(
        self,
        game: str,
        seat: int,
        seats: int,
        secret: bytes | None = None,
        identity: Ed25519PrivateKey | None = None,
        pack: Sequence[str] | None = None,
    ):
        if type(seat) is not int or not 0 <= seat < seats:
            raise ValueError("A seat is a number from 0 to seats - 1.")
        self.game, self.seat, self.seats = game, seat, seats
        self.secret = derive.new_secret() if secret is None else derive.check_secret(secret)
        self.identity = messages.new_identity() if identity is None else identity
        self.pack = list(blind_deal.pack_texts() if pack is None else pack)
        self._box_scalar = derive.box_scalar(self.secret)
        self._shared: dict[bytes, bytes] = {}
        # (deal, position) -> [b of seat 0..N-1] for each position this seat holds, once received
        self.keys: dict[tuple[int, int], list[int]] = {}
        self.cards: dict[tuple[int, int], str] = {}

    # --- the messages, in the order a deal sends them -------------------------------------------------
    def _signed(self, kind: str, **members: Any) -> dict[str, Any]:
        return sign(self.identity, message(self.game, self.seat, kind, **members))

    @property
    def box_key(self) -> str:
        return derive.box_key(self.secret).hex()

    @property
    def sign_key(self) -> str:
        return messages.sign_key_hex(self.identity)

    def commit(self) -> dict[str, Any]:
        return self._signed(
            "commit", sign_key=self.sign_key, box_key=self.box_key, commitment=derive.commitment(self.secret)
        )

    def shuffle(self, deal: int, prev: Sequence[str] | None) -> dict[str, Any]:
        """Seat 0 shuffles the card points (prev None); seat s > 0 the deck of seat s-1's shuffle."""
        if (prev is None) != (self.seat == 0):
            raise ValueError("Seat 0 shuffles the card points; every other seat the previous seat's shuffle.")
        deck = blind_deal.initial_deck(self.pack) if prev is None else [element_from_hex(x) for x in prev]
        out = blind_deal.shuffle_deck(self.secret, deal, deck)
        return self._signed("shuffle", deal=deal, deck=messages.deck_hex(out))

    def lock(self, deal: int, prev: Sequence[str]) -> dict[str, Any]:
        """Seat 0 locks the last seat's shuffled deck; seat s > 0 the deck of seat s-1's lock."""
        out = blind_deal.lock_deck(self.secret, deal, [element_from_hex(x) for x in prev])
        return self._signed("lock", deal=deal, deck=messages.deck_hex(out))

    def _shared_with(self, box_key: str) -> bytes:
        e = element_from_hex(box_key)
        found = self._shared.get(e)
        if found is None:
            found = self._shared[e] = release.shared_secret(self._box_scalar, e)
        return found

    def release(self, deal: int, holders: Sequence[int | None], box_keys: Sequence[str]) -> dict[str, Any]:
        """This seat's locks of every position dealt to another seat, each sealed for its holder alone.
        box_keys[s] is seat s's box key from its commit."""
        keys: dict[str, dict[str, str]] = {}
        locks = derive.lock_scalars(self.secret, deal, len(holders))
        for j, h in enumerate(holders):
            if h is None or h == self.seat:
                continue
            p = release.pad(self._shared_with(box_keys[h]), self.game, deal, self.seat, h, j)
            keys.setdefault(str(h), {})[str(j)] = release.seal(locks[j], p)
        return self._signed("release", deal=deal, keys=keys)

    def receive(
        self,
        deal: int,
        final_deck: Sequence[str],
        releases: Mapping[int, Mapping[str, Any]],
        holders: Sequence[int | None],
        box_keys: Sequence[str],
    ) -> dict[int, str]:
        """This seat's cards of the deal, {position: card text}, from the final deck (the last lock's deck) and
        every other seat's release (releases[s]). Raises BlindFault if a release lacks a key or a position opens
        to no card."""
        by_point = blind_deal.card_by_point(self.pack)
        mine: dict[int, str] = {}
        for j, h in enumerate(holders):
            if h != self.seat:
                continue
            keys = []
            for s in range(self.seats):
                if s == self.seat:
                    keys.append(derive.lock_scalar(self.secret, deal, j))
                    continue
                value = releases.get(s, {}).get("keys", {}).get(str(self.seat), {}).get(str(j))
                if value is None:
                    raise BlindFault(f"Seat {s}'s release of deal {deal} has no key for position {j}.", s)
                p = release.pad(self._shared_with(box_keys[s]), self.game, deal, s, self.seat, j)
                k = release.unseal(value, p)
                if k is None:
                    raise BlindFault(f"Seat {s}'s release of deal {deal} for position {j} is no scalar.", s)
                keys.append(k)
            card = by_point.get(blind_deal.unlock(keys, element_from_hex(final_deck[j])))
            if card is None:
                raise BlindFault(f"Position {j} of deal {deal} opens to no card; the reveal will name the seat.", None)
            self.keys[(deal, j)] = keys
            self.cards[(deal, j)] = mine[j] = card
        return mine

    def open(self, deal: int, position: int) -> dict[str, Any]:
        """The open of a received card, to play it: the card, its position and every seat's lock for it."""
        keys = self.keys.get((deal, position))
        if keys is None:
            raise ValueError(f"This seat holds no received card at position {position} of deal {deal}.")
        card = self.cards[(deal, position)]
        return self._signed("open", deal=deal, position=position, card=card, keys=[scalar_hex(k) for k in keys])

    def position_of(self, deal: int, card: str) -> int | None:
        for (k, j), c in self.cards.items():
            if k == deal and c == card:
                return j
        return None

    def reveal(self) -> dict[str, Any]:
        return self._signed("reveal", secret=self.secret.hex())

    # --- reconnect ---------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """What a client keeps on disk (or in localStorage): σ, the identity key and the cards received."""
        return {
            "game": self.game,
            "seat": self.seat,
            "seats": self.seats,
            "secret": self.secret.hex(),
            "identity": messages.identity_hex(self.identity),
            "pack": self.pack,
            "cards": [[k, j, c, [scalar_hex(b) for b in self.keys[(k, j)]]] for (k, j), c in self.cards.items()],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> BlindSeat:
        seat = cls(
            data["game"],
            data["seat"],
            data["seats"],
            secret=bytes.fromhex(data["secret"]),
            identity=messages.identity_from_hex(data["identity"]),
            pack=data["pack"],
        )
        for k, j, c, keys in data["cards"]:
            seat.cards[(k, j)] = c
            seat.keys[(k, j)] = [int(b, 16) for b in keys]
        return seat
