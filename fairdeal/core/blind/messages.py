"""The messages of "fairdeal-blind/1": their JSON forms, the bytes a signature covers, Ed25519 signing and
verification (docs/blind.md, "Messages").

Every message is one JSON object with "game", "seat", "type" and the members of its type, plus "sig": the seat's
Ed25519 signature (64 bytes, 128 lowercase hex) over  b"fairdeal-blind/1\\n" ‖ canonical_json(message without
"sig"). The server relays and stores the signed object as it is: it cannot alter one, forge one or frame a seat.

  commit   {"sign_key", "box_key", "commitment"}                      once, when the seat is taken
  shuffle  {"deal", "deck"}                                           per deal, seats 0..N-1 in turn
  lock     {"deal", "deck"}                                           per deal, seats 0..N-1 in turn, after all shuffles
  release  {"deal", "keys": {"<holder>": {"<position>": pad hex}}}    per deal, every seat, after the last lock
  open     {"deal", "position", "card", "keys": [b hex of seat 0..N-1]}   the holder, when it plays the card
  reveal   {"secret"}                                                 at the end (or an abort), every seat
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from fairdeal.core.blind.group import BadElement, element_from_hex, scalar_from_hex
from fairdeal.core.canonical import canonical_json, canonical_json_of_parsed
from fairdeal.core.cards import BadCard, card_from_str

PROTOCOL = "fairdeal-blind/1"
SIGN_PREFIX = b"fairdeal-blind/1\n"
TYPES = ("commit", "shuffle", "lock", "release", "open", "reveal")
MAX_SEATS = 8
MAX_DEALS = 10_000
_HEX64 = re.compile(r"[0-9a-f]{64}\Z")
_HEX128 = re.compile(r"[0-9a-f]{128}\Z")
_COUNT = re.compile(r"(0|[1-9][0-9]{0,5})\Z")  # a seat or position written as a JSON object key

_MEMBERS = {
    "commit": {"sign_key", "box_key", "commitment"},
    "shuffle": {"deal", "deck"},
    "lock": {"deal", "deck"},
    "release": {"deal", "keys"},
    "open": {"deal", "position", "card", "keys"},
    "reveal": {"secret"},
}


class BadMessage(ValueError):
    """A message that does not have its type's form, or whose signature does not verify."""


def _hex64(value: Any, what: str) -> str:
    if type(value) is not str or not _HEX64.match(value):
        raise BadMessage(f"{what} is written as 64 lowercase hex digits.")
    return value


def _count(value: Any, what: str, below: int) -> int:
    if type(value) is not int or not 0 <= value < below:
        raise BadMessage(f"{what} is an integer from 0 to {below - 1}.")
    return value


def _key_count(text: str, what: str, below: int) -> int:
    if not _COUNT.match(text) or int(text) >= below:
        raise BadMessage(f"{what} {text!r} is not a number from 0 to {below - 1} written in decimal.")
    return int(text)


def signed_bytes(message: Mapping[str, Any], formed: bool = False) -> bytes:
    """The bytes the signature covers: the prefix and the canonical JSON of the message without "sig".
    formed: the message passed check_form, whose every member has a canonical form (plain texts, integers in
    range, lists and objects of them), so the canonical encoder's validating walk has nothing to find."""
    body = {k: v for k, v in message.items() if k != "sig"}
    return SIGN_PREFIX + (canonical_json_of_parsed(body) if formed else canonical_json(body))


def new_identity() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.generate()


def identity_from_hex(text: str) -> Ed25519PrivateKey:
    """An identity key kept by a client (its 32 raw private bytes as hex)."""
    return Ed25519PrivateKey.from_private_bytes(bytes.fromhex(_hex64(text, "An identity key")))


def identity_hex(key: Ed25519PrivateKey) -> str:
    from cryptography.hazmat.primitives import serialization

    return key.private_bytes(
        serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption()
    ).hex()


def sign_key_hex(key: Ed25519PrivateKey) -> str:
    """The "sign_key" of a commit: the raw 32-byte Ed25519 public key in hex."""
    from cryptography.hazmat.primitives import serialization

    return key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw).hex()


def sign(key: Ed25519PrivateKey, message: Mapping[str, Any]) -> dict[str, Any]:
    """The message with its "sig"."""
    body = {k: v for k, v in message.items() if k != "sig"}
    return {**body, "sig": key.sign(signed_bytes(body)).hex()}


_sign_keys: dict[str, Ed25519PublicKey] = {}  # decoded sign keys (a game has a few; a verifier checks thousands)


def _sign_key(text: str) -> Ed25519PublicKey:
    key = _sign_keys.get(text)
    if key is None:
        if len(_sign_keys) > 1024:
            _sign_keys.clear()
        key = _sign_keys[text] = Ed25519PublicKey.from_public_bytes(bytes.fromhex(_hex64(text, "A sign key")))
    return key


def verify_signature(message: Mapping[str, Any], sign_key: str, formed: bool = False) -> None:
    """Raises BadMessage unless "sig" is the signature of sign_key (64 hex) over the message. formed: the
    message passed check_form (signed_bytes)."""
    sig = message.get("sig")
    if type(sig) is not str or not _HEX128.match(sig):
        raise BadMessage("A message's sig is 64 bytes written as 128 lowercase hex digits.")
    try:
        _sign_key(sign_key).verify(bytes.fromhex(sig), signed_bytes(message, formed))
    except (InvalidSignature, ValueError):
        raise BadMessage(
            f"The signature of seat {message.get('seat')}'s {message.get('type')} does not verify."
        ) from None


def check_form(message: Any, game: str, seats: int, deck_size: int, points: bool = True) -> dict[str, Any]:
    """The message if it has its type's form for this game (seat count, deck size), else BadMessage naming what
    is wrong. Elements are checked to be points (unless points=False: the verifier decodes each deck's elements
    as it uses them, once), scalars to be in [1, n-1]; the signature is not checked here."""
    if not isinstance(message, Mapping):
        raise BadMessage("A blind message is a JSON object.")
    kind = message.get("type")
    if kind not in _MEMBERS:
        raise BadMessage(f"A blind message's type is one of {', '.join(TYPES)}, not {kind!r:.40}.")
    expected = _MEMBERS[kind] | {"game", "seat", "type", "sig"}
    if set(message) != expected:
        raise BadMessage(f"A {kind} message has exactly the members {', '.join(sorted(expected))}.")
    if message["game"] != game:
        raise BadMessage(f"This message belongs to game {message['game']!r:.40}, not {game}.")
    _count(message["seat"], "A message's seat", seats)
    if "deal" in message:
        _count(message["deal"], "A deal number", MAX_DEALS)
    try:
        if kind == "commit":
            _hex64(message["sign_key"], "A sign key")
            element_from_hex(message["box_key"])
            _hex64(message["commitment"], "A commitment")
        elif kind in ("shuffle", "lock"):
            deck = message["deck"]
            if type(deck) is not list or len(deck) != deck_size:
                raise BadMessage(f"A {kind} deck is a list of {deck_size} elements.")
            for x in deck:
                if points:
                    element_from_hex(x)
                else:
                    _hex64(x, "An element")
        elif kind == "release":
            _check_release_keys(message["keys"], message["seat"], seats, deck_size)
        elif kind == "open":
            _count(message["position"], "A deck position", deck_size)
            card_from_str(message["card"])
            keys = message["keys"]
            if type(keys) is not list or len(keys) != seats:
                raise BadMessage(f"An open's keys are a list of {seats} scalars, one per seat in seat order.")
            for k in keys:
                scalar_from_hex(k)
        else:
            _hex64(message["secret"], "A seat secret")
    except (BadElement, BadCard) as exc:
        raise BadMessage(str(exc)) from None
    except ValueError as exc:
        if isinstance(exc, BadMessage):
            raise
        raise BadMessage(str(exc)) from None
    return dict(message)


def _check_release_keys(keys: Any, sender: int, seats: int, deck_size: int) -> None:
    if not isinstance(keys, Mapping):
        raise BadMessage('A release\'s keys are an object {"<holder>": {"<position>": pad}}.')
    for holder, pads in keys.items():
        h = _key_count(holder, "A release's holder", seats)
        if h == sender:
            raise BadMessage("A seat releases no keys to itself.")
        if not isinstance(pads, Mapping):
            raise BadMessage('A release\'s keys are an object {"<holder>": {"<position>": pad}}.')
        for position, pad in pads.items():
            _key_count(position, "A release's position", deck_size)
            _hex64(pad, "A release pad")


def message(game: str, seat: int, kind: str, **members: Any) -> dict[str, Any]:
    """An unsigned message of a type (its members as keyword arguments)."""
    if kind not in _MEMBERS or set(members) != _MEMBERS[kind]:
        raise ValueError(f"A {kind} message has the members {sorted(_MEMBERS.get(kind, ()))}.")
    return {"game": game, "seat": seat, "type": kind, **members}


def deck_hex(deck: Sequence[bytes]) -> list[str]:
    return [x.hex() for x in deck]
