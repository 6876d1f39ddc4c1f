"""A whole blind Spades game played by the policies, as a signed transcript with its "blind" member: for the
tests, the tamper suite, the test vectors and the benchmark (docs/blind.md, "The transcript").

The seats' secrets are derived from the server seed and the seat (a real seat draws 32 random bytes), so the game
is a pure function of its arguments like fairdeal.core.selfplay's. Each deal is made when the engine asks for
its pack: the seats shuffle and lock, the engine gets the pack in the order their shuffles made (position j is the
j-th card dealt), and the releases follow for the holders the Spades layout gives from the deal's dealer. Each
card played is opened by its holder afterwards (the order of the messages does not change what they prove).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from fairdeal.core.blind import derive
from fairdeal.core.blind.deal import spades_holders
from fairdeal.core.blind.local import Tamper, run_deal
from fairdeal.core.blind.messages import PROTOCOL
from fairdeal.core.blind.seat import BlindSeat
from fairdeal.core.cards import Card, cards_of_texts
from fairdeal.core.fairness import SeedChance
from fairdeal.core.replay import LiveGame
from fairdeal.core.selfplay import selfplay
from fairdeal.core.writer import sign_transcript

PLAYERS = 4


def seat_secret(server_seed: bytes, seat: int) -> bytes:
    """A selfplay seat's σ, derived so the game is reproducible (never how a real seat makes one)."""
    return hashlib.sha256(b"fairdeal-blind selfplay\x00" + server_seed + bytes([seat])).digest()


def seat_identity(server_seed: bytes, seat: int) -> Ed25519PrivateKey:
    """A selfplay seat's identity key, derived likewise (Ed25519 signatures are deterministic: the same
    arguments give the same transcript byte for byte)."""
    digest = hashlib.sha256(b"fairdeal-blind selfplay identity\x00" + server_seed + bytes([seat])).digest()
    return Ed25519PrivateKey.from_private_bytes(digest)


class LiveBlindChance(SeedChance):
    """Deals each hand by running the blind deal among `seats` (Spades: the deal passes left every hand, so
    hand k's dealer is the first dealer plus k)."""

    def __init__(self, game_seed: bytes, seats: Sequence[BlindSeat], tamper: Tamper | None = None):
        super().__init__(game_seed)
        self.seats = seats
        self.tamper = tamper
        self.messages: list[dict[str, Any]] = []
        self.first: int | None = None

    def first_dealer(self, players: int) -> int:
        self.first = first = super().first_dealer(players)
        return first

    def deck(self, hand: int, pack: Sequence[Card]) -> list[Card]:
        assert self.first is not None
        holders = spades_holders((self.first + hand) % PLAYERS, PLAYERS)
        self.messages += run_deal(self.seats, hand, holders, tamper=self.tamper, receive=self.tamper is None)
        if self.tamper is not None:  # the cards cannot be received: deal them from the secrets as the verifier will
            return cards_of_texts(_deck_from_secrets(self.seats, hand))
        by_position = {j: c for s in self.seats for (k, j), c in s.cards.items() if k == hand}
        return cards_of_texts([by_position[j] for j in range(len(pack))])


def _deck_from_secrets(seats: Sequence[BlindSeat], hand: int) -> list[str]:
    order = list(range(len(seats[0].pack)))
    for s in seats:
        perm = derive.permutation(s.secret, hand, len(order))
        order = [order[i] for i in perm]
    return [seats[0].pack[i] for i in order]


def blind_selfplay(
    private_key: Any,
    server_seed: bytes,
    *,
    bots: Sequence[int] = (3,),
    stop_after: int | None = None,
    tamper: Tamper | None = None,
    blame: Sequence[int] | None = None,
    unrevealed: Sequence[int] = (),
    edit: Callable[[list[dict[str, Any]]], list[dict[str, Any]]] | None = None,
    game_id: str | None = None,
    timeout_every: int = 0,
    clocks: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A blind Spades game to its end (or `stop_after` moves), its signed transcript with "blind".
    tamper: as local.run_deal's; unrevealed: seats that send no reveal; edit: a last change to the message list
    (a server's); blame: the end's blame (default: what the verifier will find, an honest server's); clocks: the
    start's (default: selfplay's)."""
    game_id = game_id or f"blind-selfplay-{server_seed.hex()[:12]}"
    seats = [
        BlindSeat(game_id, s, PLAYERS, secret=seat_secret(server_seed, s), identity=seat_identity(server_seed, s))
        for s in range(PLAYERS)
    ]
    made: dict[str, LiveBlindChance] = {}

    def chance_of(game_seed: bytes) -> LiveBlindChance:
        made["chance"] = LiveBlindChance(game_seed, seats, tamper)
        return made["chance"]

    t = selfplay(
        "spades",
        private_key,
        server_seed,
        bots=bots,
        game_id=game_id,
        stop_after=stop_after,
        chance_of=chance_of,
        timeout_every=timeout_every,
        clocks=clocks,
    )
    chance = made["chance"]
    messages = [s.commit() for s in seats] + chance.messages
    if tamper is None:
        messages += _opens(t, chance, seats)
    messages += [s.reveal() for s in seats if s.seat not in unrevealed]
    if edit is not None:
        messages = edit(messages)
    if blame is None:
        from fairdeal.core.blind.check import audit

        holders = {d["hand"]: spades_holders(d["dealer"], PLAYERS) for d in t["end"]["deals"]}
        blame = audit(game_id, PLAYERS, messages, holders).at_fault
    t["blind"] = {"protocol": PROTOCOL, "messages": messages, "blame": sorted(blame)}
    t["signature"] = sign_transcript(private_key, t)
    return t


def _opens(t: Mapping[str, Any], chance: LiveBlindChance, seats: Sequence[BlindSeat]) -> list[dict[str, Any]]:
    """Every play's open, by its player, for the hand it was played in."""
    replay = LiveGame(t["start"], chance.game_seed, chance=_Fixed(chance.game_seed, seats))
    out = []
    for record in t["records"]:
        if record["move"]["kind"] == "play":
            hand, seat = replay.state.hand_number, record["seat"]
            out.append(seats[seat].open(hand, seats[seat].position_of(hand, record["move"]["card"])))
        replay.apply_record(record, chain=False, policies=False)
    return out


class _Fixed(SeedChance):
    """The decks already dealt, from the seats' received cards (for the replay that finds each play's hand)."""

    def __init__(self, game_seed: bytes, seats: Sequence[BlindSeat]):
        super().__init__(game_seed)
        self.seats = seats

    def deck(self, hand: int, pack: Sequence[Card]) -> list[Card]:
        by_position = {j: c for s in self.seats for (k, j), c in s.cards.items() if k == hand}
        return cards_of_texts([by_position[j] for j in range(len(pack))])
