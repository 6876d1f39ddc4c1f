"""The fairness protocol "fairdeal/2" (and "fairdeal/1", still verified): seeds, commitments, derivation,
unbiased integers, shuffles.

docs/fairness.md is the specification (byte layouts, labels, test vectors); this module is its reference code.
In short:

  server_seed  32 bytes from the OS, secret until the game ends.
  commitment   SHA-256(canonical_json({"type": "commitment", "protocol", "game_id", "rules", "server_seed": hex}))
  client seed  fairdeal/2: a seat commits to SHA-256(canonical_json({"type": "client-seed", "protocol",
  commitment   "game_id", "client_seed", "nonce": 64 hex digits})) when it sits down and reveals seed and nonce
               once every seat is fixed (fairdeal/1 took the seeds in clear).
  game_seed    HMAC-SHA256(key=server_seed, msg=canonical_json({"type": "game-seed", "protocol",
               "client_seeds": [seat 0's seed or null, seat 1's, ...]}))
  stream       block i = HMAC-SHA256(key=game_seed, msg=label || 0x00 || i as 4-byte big-endian), i = 0, 1, ...
  randbelow(n) k = smallest byte count with 256**k >= n; read k bytes big-endian as x; accept x < n*(256**k // n)
               and return x % n, else read again.
  shuffle      Fisher-Yates from the last position down over the canonical pack order; index 0 is dealt first.

The derivation never uses the commitment, and nothing here reads a clock or global random state: the only
randomness is new_server_seed(), which the service calls once per game.
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import re
import secrets
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar, cast

from fairdeal.core.canonical import canonical_json, sha256_hex
from fairdeal.core.cards import Card
from fairdeal.core.fastpath import fast_path

PROTOCOL = "fairdeal/2"  # what is written now
PROTOCOLS = ("fairdeal/1", "fairdeal/2")  # what is read and verified
SEED_BYTES = 32
NONCE_BYTES = 32
CLIENT_SEED_MAX = 128
BLOCK_BYTES = 32  # one HMAC-SHA256 output

T = TypeVar("T")


# ----------------------------------------------------------------------------------------- seeds


def new_server_seed() -> bytes:
    """A fresh 256-bit server seed from the operating system's CSPRNG."""
    return secrets.token_bytes(SEED_BYTES)


def _check_server_seed(server_seed: Any) -> bytes:
    if not isinstance(server_seed, (bytes, bytearray)) or len(server_seed) != SEED_BYTES:
        raise ValueError(f"A server seed is {SEED_BYTES} bytes, not {server_seed!r:.40}.")
    return bytes(server_seed)


def server_seed_from_hex(text: str) -> bytes:
    """The server seed revealed in a transcript ("end.server_seed", 64 lowercase hex digits)."""
    if not isinstance(text, str) or len(text) != 2 * SEED_BYTES or text != text.lower():
        raise ValueError(f"A server seed is written as {2 * SEED_BYTES} lowercase hex digits.")
    try:
        return bytes.fromhex(text)
    except ValueError:
        raise ValueError(f"A server seed is written as {2 * SEED_BYTES} lowercase hex digits.") from None


def validate_client_seed(seed: Any) -> str:
    """A client seed is 1 to 128 printable ASCII characters (space to '~'). Returns it, or raises ValueError."""
    if not isinstance(seed, str):
        raise ValueError("A client seed is a text of 1 to 128 printable ASCII characters.")
    if not 1 <= len(seed) <= CLIENT_SEED_MAX:
        raise ValueError(f"A client seed is 1 to {CLIENT_SEED_MAX} characters long, not {len(seed)}.")
    for ch in seed:
        if not " " <= ch <= "~":
            raise ValueError(f"A client seed may use printable ASCII characters only (space to '~'), not {ch!r}.")
    return seed


def _check_protocol(protocol: Any) -> str:
    if protocol not in PROTOCOLS:
        raise ValueError(f"Unknown protocol {protocol!r}; the protocols are {', '.join(PROTOCOLS)}.")
    return cast(str, protocol)  # one of PROTOCOLS


_HEX64 = re.compile(r"[0-9a-f]{64}\Z")


def is_hex64(value: Any) -> bool:
    """64 lowercase hex digits: how seeds, nonces, hashes and commitments are written."""
    return type(value) is str and _HEX64.match(value) is not None


def new_nonce() -> str:
    """A client's fresh 32-byte nonce for its client-seed commitment, as 64 lowercase hex digits."""
    return secrets.token_bytes(NONCE_BYTES).hex()


def validate_nonce(nonce: Any) -> str:
    if not is_hex64(nonce):
        raise ValueError(f"A nonce is {NONCE_BYTES} random bytes written as {2 * NONCE_BYTES} lowercase hex digits.")
    return cast(str, nonce)  # is_hex64: a text


def client_seed_commitment(game_id: str, client_seed: str, nonce: str, protocol: str = PROTOCOL) -> str:
    """fairdeal/2: the commitment a seat gives to its client seed when it sits down (64 lowercase hex digits).
    The nonce (32 random bytes the client makes) keeps a low-entropy seed from being found by trying words."""
    if _check_protocol(protocol) == "fairdeal/1":
        raise ValueError("fairdeal/1 has no client-seed commitments: its seeds were given in clear.")
    if not isinstance(game_id, str) or not game_id:
        raise ValueError("A game id is a non-empty text.")
    payload = {
        "type": "client-seed",
        "protocol": protocol,
        "game_id": game_id,
        "client_seed": validate_client_seed(client_seed),
        "nonce": validate_nonce(nonce),
    }
    return sha256_hex(canonical_json(payload))


def _check_rules(rules: Any) -> Mapping[str, Any]:
    if not isinstance(rules, Mapping) or set(rules) != {"id", "players", "settings", "version"}:
        raise ValueError('The rules are an object with exactly the keys "id", "players", "settings" and "version".')
    return rules


def commitment(server_seed: bytes, game_id: str, rules: Mapping[str, Any], protocol: str = PROTOCOL) -> str:
    """The published commitment (64 lowercase hex digits) to the seed, the game id, the rules and the protocol."""
    seed = _check_server_seed(server_seed)
    if not isinstance(game_id, str) or not game_id:
        raise ValueError("A game id is a non-empty text.")
    payload = {
        "type": "commitment",
        "protocol": _check_protocol(protocol),
        "game_id": game_id,
        "rules": dict(_check_rules(rules)),
        "server_seed": seed.hex(),
    }
    return sha256_hex(canonical_json(payload))


def game_seed(server_seed: bytes, client_seeds: Sequence[str | None], protocol: str = PROTOCOL) -> bytes:
    """The 32-byte seed that drives the game: binds the server seed and every seat's client seed, in seat order
    (None for a bot or a player who gave none)."""
    seed = _check_server_seed(server_seed)
    if isinstance(client_seeds, (str, bytes)) or not isinstance(client_seeds, Sequence):
        raise ValueError("The client seeds are a list with one entry (a text or None) per seat.")
    seeds = [None if s is None else validate_client_seed(s) for s in client_seeds]
    msg = canonical_json({"type": "game-seed", "protocol": _check_protocol(protocol), "client_seeds": seeds})
    return hmac.digest(seed, msg, "sha256")


# ------------------------------------------------------------------------------------ derivation

_LABEL = re.compile(r"[!-~]+\Z")  # printable ASCII, no space


def _label_prefix(label: Any) -> bytes:
    if not isinstance(label, str) or not _LABEL.match(label):
        raise ValueError(f"A derivation label is non-empty printable ASCII without spaces, not {label!r}.")
    return label.encode("ascii") + b"\x00"


def _check_game_seed(seed: Any) -> bytes:
    if not isinstance(seed, (bytes, bytearray)) or len(seed) != SEED_BYTES:
        raise ValueError(f"A game seed is {SEED_BYTES} bytes.")
    return bytes(seed)


def derive_bytes(game_seed: bytes, label: str, n: int) -> bytes:
    """The first n bytes of a label's stream."""
    key, prefix = _check_game_seed(game_seed), _label_prefix(label)
    if not isinstance(n, int) or n < 0:
        raise ValueError("A byte count is a non-negative integer.")
    blocks = (n + BLOCK_BYTES - 1) // BLOCK_BYTES
    return b"".join(hmac.digest(key, prefix + i.to_bytes(4, "big"), "sha256") for i in range(blocks))[:n]


# randbelow(n) for n <= 256 reads one byte and accepts it below _LIMIT[n] = n * (256 // n).
_LIMIT = [0, 1] + [n * (256 // n) for n in range(2, 257)]


class DerivedRng:
    """Integers without bias from one label's stream. Successive calls read successive bytes."""

    __slots__ = ("_key", "_prefix", "_next_block", "_buf", "_pos")

    def __init__(self, game_seed: bytes, label: str):
        self._key = _check_game_seed(game_seed)
        self._prefix = _label_prefix(label)
        self._next_block = 0
        self._buf = b""
        self._pos = 0

    @classmethod
    def of_checked(cls, key: bytes, prefix: bytes) -> DerivedRng:
        """DerivedRng(game_seed, label) from a seed already checked and a label already encoded with its NUL
        (_check_game_seed, _label_prefix): a bot rng is made for every bot move, from one checked seed."""
        rng = cls.__new__(cls)
        rng._key, rng._prefix, rng._next_block, rng._buf, rng._pos = key, prefix, 0, b"", 0
        return rng

    def _more(self, blocks: int = 1) -> None:
        """Drop the bytes already read and append the next blocks of the stream."""
        key, prefix, i = self._key, self._prefix, self._next_block
        new = self._buf[self._pos :]
        for b in range(i, i + blocks):
            new += hmac.digest(key, prefix + b.to_bytes(4, "big"), "sha256")
        self._buf = new
        self._pos = 0
        self._next_block = i + blocks

    def read(self, n: int) -> bytes:
        """The next n bytes of the stream."""
        if self._pos + n > len(self._buf):
            self._more(-(-(self._pos + n - len(self._buf)) // BLOCK_BYTES))
        out = self._buf[self._pos : self._pos + n]
        self._pos += n
        return out

    def randbelow_by_reads(self, n: int) -> int:
        """A uniform integer in [0, n), by rejection sampling (docs/fairness.md, "Integers"), as the document
        says it: k bytes read a draw, big-endian, kept when below n * (256**k // n). randbelow's general form."""
        if type(n) is not int or n < 1:
            raise ValueError(f"randbelow needs a positive integer, not {n!r}.")
        k = ((n - 1).bit_length() + 7) // 8
        limit = n * (256**k // n)
        while True:
            x = int.from_bytes(self.read(k), "big")
            if x < limit:
                return x % n

    @fast_path(general=randbelow_by_reads, consumes=("self",))
    def randbelow(self, n: int) -> int:
        """randbelow_by_reads(n), with the one-byte draw (n <= 256: every card game's) read from the buffer
        directly."""
        if type(n) is not int or n < 1:
            raise ValueError(f"randbelow needs a positive integer, not {n!r}.")
        if n <= 256:
            if n == 1:
                return 0  # k = 0 bytes: nothing is read
            limit = _LIMIT[n]
            while True:
                if self._pos >= len(self._buf):
                    self._more()
                x = self._buf[self._pos]
                self._pos += 1
                if x < limit:
                    return x % n
        return self.randbelow_by_reads(n)

    def choice(self, items: Sequence[T]) -> T:
        """items[randbelow(len(items))]."""
        if not items:
            raise ValueError("choice from an empty sequence")
        return items[self.randbelow(len(items))]


def same_stream(a: DerivedRng, b: DerivedRng) -> bool:
    """Two DerivedRng that will draw the same bytes from here on (read from copies: neither is used up)."""
    return (a._key, a._prefix) == (b._key, b._prefix) and copy.copy(a).read(70) == copy.copy(b).read(70)


def shuffle_by_randbelow(game_seed: bytes, label: str, cards: Sequence[T]) -> list[T]:
    """Fisher-Yates over `cards` as given: for i = len-1 down to 1, j = randbelow(i + 1), swap i and j.
    Index 0 of the result is the top card (dealt first). shuffle's general form, as docs/fairness.md writes it."""
    deck = list(cards)
    rng = DerivedRng(game_seed, label)
    for i in range(len(deck) - 1, 0, -1):
        j = rng.randbelow(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@fast_path(general=shuffle_by_randbelow)
def shuffle(game_seed: bytes, label: str, cards: Sequence[T]) -> list[T]:
    """shuffle_by_randbelow: Fisher-Yates over `cards` as given, index 0 of the result the top card."""
    if len(cards) > 256:  # randbelow(n) needs more than one byte for n > 256
        return shuffle_by_randbelow(game_seed, label, cards)
    deck = list(cards)
    rng = DerivedRng(game_seed, label)
    # The same algorithm with randbelow's one-byte case inlined: the hot path of every deal. Fetch up front
    # the blocks a shuffle without rejections needs (one byte a swap); rejections fetch more as they go.
    rng._more(max(1, (len(deck) - 1 + BLOCK_BYTES - 1) // BLOCK_BYTES))
    buf, pos, limits = rng._buf, 0, _LIMIT
    for i in range(len(deck) - 1, 0, -1):
        n = i + 1
        limit = limits[n]
        while True:
            if pos >= len(buf):
                rng._pos = pos
                rng._more()
                buf, pos = rng._buf, 0
            x = buf[pos]
            pos += 1
            if x < limit:
                break
        j = x % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


# --------------------------------------------------------------------------------------- labels


def deal_label(hand: int) -> str:
    return f"deal/{_count(hand, 'hand')}"


def reshuffle_label(hand: int, round: int) -> str:
    return f"reshuffle/{_count(hand, 'hand')}/{_count(round, 'round')}"


def bot_label(seq: int) -> str:
    return f"bot/{_count(seq, 'seq')}"


def salt_label(seq: int) -> str:
    return f"salt/{_count(seq, 'seq')}"


def record_salt(game_seed: bytes, seq: int) -> str:
    """The salt of move record `seq`: 32 derived bytes in lowercase hex (transcript.md, move records)."""
    return derive_bytes(game_seed, salt_label(seq), 32).hex()


def record_salts_one_by_one(game_seed: bytes, count: int) -> list[str]:
    """[record_salt(game_seed, seq) for seq in 1..count]: record_salts' general form."""
    return [record_salt(game_seed, seq) for seq in range(1, count + 1)]


@fast_path(general=record_salts_one_by_one)
def record_salts(game_seed: bytes, count: int) -> list[str]:
    """[record_salt(game_seed, seq) for seq in 1..count]: the audit's fast path, the seed checked once and each
    salt one HMAC of its label's first block (32 bytes are one block), under the seed's pads hashed once."""
    mac = KeyedHmac(_check_game_seed(game_seed)).digest
    return [mac(b"salt/%d\x00\x00\x00\x00\x00" % seq).hex() for seq in range(1, count + 1)]


_XOR_36 = bytes(x ^ 0x36 for x in range(256))
_XOR_5C = bytes(x ^ 0x5C for x in range(256))


class KeyedHmac:
    """HMAC-SHA256 under one key (RFC 2104), its inner and outer key blocks hashed once: digest(msg) is
    hmac.digest(key, msg, "sha256"), at two SHA-256 blocks a short message instead of four (hmac.digest starts
    from the key every time). A game's record salts are thousands of HMACs under its one seed."""

    __slots__ = ("_key", "_inner", "_outer")

    def __init__(self, key: bytes):
        self._key = key
        if len(key) > 64:  # RFC 2104: a key longer than the block is hashed first
            key = hashlib.sha256(key).digest()
        block = key.ljust(64, b"\x00")
        self._inner = hashlib.sha256(block.translate(_XOR_36))
        self._outer = hashlib.sha256(block.translate(_XOR_5C))

    # It never changes (digest hashes copies of its pads), so a copied game shares it; a pickled one hashes anew.
    def __copy__(self) -> KeyedHmac:
        return self

    def __deepcopy__(self, memo: dict[str, Any]) -> KeyedHmac:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (KeyedHmac, (self._key,))

    @property
    def key(self) -> bytes:
        return self._key

    def digest_from_key(self, msg: bytes) -> bytes:
        """hmac.digest(key, msg, "sha256"): digest's general form."""
        return hmac.digest(self._key, msg, "sha256")

    @fast_path(general=digest_from_key)
    def digest(self, msg: bytes) -> bytes:
        """digest_from_key(msg), from the pads hashed once."""
        inner = self._inner.copy()
        inner.update(msg)
        outer = self._outer.copy()
        outer.update(inner.digest())
        return outer.digest()


FIRST_DEALER_LABEL = "first-dealer"


def _count(value: Any, what: str) -> int:
    if type(value) is not int or value < 0:
        raise ValueError(f"A {what} number is a non-negative integer, not {value!r}.")
    return value


def canonical_order(cards: Sequence[Card]) -> list[Card]:
    """Cards in the canonical pack order: suits C, D, H, S, ranks 2 up to A (the order of PACK_52)."""
    return sorted(cards, key=lambda c: ("CDHS".index(c.suit), c.rank))


def shuffle_by_seed(mac: KeyedHmac, label: str, cards: Sequence[T]) -> list[T]:
    """shuffle(key, label, cards) under the key of `mac`: shuffle_keyed's general form."""
    return shuffle(mac.key, label, cards)


@fast_path(general=shuffle_by_seed)
def shuffle_keyed(mac: KeyedHmac, label: str, cards: Sequence[T]) -> list[T]:
    """shuffle(game_seed, label, cards) for at most 256 cards, from `mac` = KeyedHmac(game_seed): the deals'
    fast path. Each byte of the stream is read once, in order, by one loop over a block (a rejected byte is
    skipped and the same swap waits for the next one), and the blocks come from the seed's pads hashed once."""
    deck = list(cards)
    n = len(deck)
    if n > 256:
        raise ValueError("shuffle_keyed takes at most 256 cards (one byte a swap)")
    if n < 2:
        return deck
    digest, prefix, limits = mac.digest, _label_prefix(label), _LIMIT
    block = max(1, (n - 1 + BLOCK_BYTES - 1) // BLOCK_BYTES)  # the blocks a shuffle without rejections needs
    buf = b"".join([digest(prefix + b.to_bytes(4, "big")) for b in range(block)])
    while True:
        for x in buf:
            if x < limits[n]:
                j = x % n
                n -= 1
                deck[n], deck[j] = deck[j], deck[n]
                if n == 1:
                    return deck
        buf = digest(prefix + block.to_bytes(4, "big"))
        block += 1


class SeedChance:
    """The Chance of a real game: every random event derived from the game seed under its label."""

    def __init__(self, game_seed: bytes):
        self.game_seed = _check_game_seed(game_seed)
        self._mac = KeyedHmac(self.game_seed)  # every deal and reshuffle of the game hashes under this seed

    def first_dealer(self, players: int) -> int:
        if type(players) is not int or players < 1:
            raise ValueError(f"A table has a positive number of players, not {players!r}.")
        return DerivedRng(self.game_seed, FIRST_DEALER_LABEL).randbelow(players)

    def deck(self, hand: int, pack: Sequence[Card]) -> list[Card]:
        """Hand `hand`'s shuffled pack (`pack` in canonical order: PACK_52 or PACK_32)."""
        return self._shuffle(deal_label(hand), pack)

    def reshuffle(self, hand: int, round: int, cards: Sequence[Card]) -> list[Card]:
        """Reshuffle `round` of hand `hand`: the cards are put in canonical order first, so the result does
        not depend on the order in which the engine collected them."""
        return self._shuffle(reshuffle_label(hand, round), canonical_order(cards))

    def _shuffle_by_seed(self, label: str, cards: Sequence[Card]) -> list[Card]:
        """shuffle(self.game_seed, label, cards): _shuffle's general form."""
        return shuffle(self.game_seed, label, cards)

    @fast_path(general=_shuffle_by_seed)
    def _shuffle(self, label: str, cards: Sequence[Card]) -> list[Card]:
        """shuffle(self.game_seed, label, cards), by shuffle_keyed for any pack it takes."""
        if len(cards) <= 256:
            return shuffle_keyed(self._mac, label, cards)
        return shuffle(self.game_seed, label, cards)

    def bot_rng(self, seq: int) -> DerivedRng:
        """The randomness of the bot decision recorded at sequence number `seq`."""
        return DerivedRng(self.game_seed, bot_label(seq))

    @fast_path(general=bot_rng, equal=same_stream)
    def bot_rng_fast(self, seq: int) -> DerivedRng:
        """bot_rng(seq) for a seq known to be a positive int (the replay's own count): the seed was checked when
        this Chance was made and the label needs no test."""
        return DerivedRng.of_checked(self.game_seed, b"bot/%d\x00" % seq)


def seed_chance(server_seed: bytes, client_seeds: Sequence[str | None], protocol: str = PROTOCOL) -> SeedChance:
    """SeedChance(game_seed(server_seed, client_seeds, protocol))."""
    return SeedChance(game_seed(server_seed, client_seeds, protocol))


class BoardChance(SeedChance):
    """The Chance of a duplicate tournament's table (docs/tournaments.md, "Boards"): the first dealer, every deal
    and every reshuffle from the round's board seed, under the same labels as a game's, so every table of a round
    gets the same pack for deal k; the bots' choices and the record salts still from the table's own game seed."""

    def __init__(self, game_seed: bytes, board_seed: bytes):
        super().__init__(game_seed)
        self.board = SeedChance(board_seed)

    def first_dealer(self, players: int) -> int:
        return self.board.first_dealer(players)

    def deck(self, hand: int, pack: Sequence[Card]) -> list[Card]:
        return self.board.deck(hand, pack)

    def reshuffle(self, hand: int, round: int, cards: Sequence[Card]) -> list[Card]:
        return self.board.reshuffle(hand, round, cards)
