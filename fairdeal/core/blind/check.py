"""The verifier of a blind deal (docs/blind.md, "Verification"): from every signed message and the revealed
secrets, recompute each seat's shuffle, lock and release from the deck it was given, check every open, and name
the seat at fault for each difference; then derive the cards of every deal, position by position.

Each seat's output is checked against its input as published (the previous message), so a fault is the seat's
whose message differs from what its own secret gives: no later seat is blamed for an earlier one's work. A
signature that does not verify is not the seat's message at all: it is the server's fault (seat None).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from fairdeal.core.blind import deal as blind_deal
from fairdeal.core.blind import derive, release
from fairdeal.core.blind.composed import composed_deal, decks_of
from fairdeal.core.blind.group import element_bytes, element_from_hex, inverse, is_element, mul, mul_many, product
from fairdeal.core.blind.messages import BadMessage, check_form, verify_signature


@dataclass(frozen=True)
class Finding:
    """One fault: `code` (docs/blind.md, "Findings"), the seat at fault (None: the server), where, and facts."""

    code: str
    seat: int | None
    deal: int | None = None
    fields: Mapping[str, Any] = field(default_factory=dict)


@dataclass
class Audit:
    findings: list[Finding] = field(default_factory=list)
    # deal -> the card text at each position of the final deck (only for a deal whose every step checked out)
    decks: dict[int, list[str]] = field(default_factory=dict)
    # deal -> seat -> its cards, in position order
    hands: dict[int, dict[int, list[str]]] = field(default_factory=dict)
    # (deal, card) -> (seat, position) of its open
    opens: dict[tuple[int, str], tuple[int, int]] = field(default_factory=dict)
    # the steps (type, seat, deal) of which the store holds only a message its seat did not sign: a missing step
    # there is the server's doing, not the seat's
    forged: set[tuple[Any, ...]] = field(default_factory=set)
    # the key of each message taken (as by_key's) -> its index in the messages: where it stands in the log, for
    # the stall check (stall.py: which steps were in before an abort)
    where: dict[tuple[Any, ...], int] = field(default_factory=dict)
    shared: dict[tuple[int, int], bytes] = field(default_factory=dict)  # (sender, holder) -> x(e_s·E_h)
    # an aborted game (docs/blind.md, "Aborts"): from this deal on a step missing was cut off by the abort, no
    # seat's fault, but for the one step the abort blames (`stalled`: type, seat, deal); `cut`: the deals it hit
    cut_from: int | None = None
    stalled: tuple[str, int, int] | None = None
    cut: set[int] = field(default_factory=set)

    @property
    def at_fault(self) -> list[int]:
        return sorted({f.seat for f in self.findings if f.seat is not None})

    def add(self, code: str, seat: int | None, deal: int | None = None, **facts: Any) -> None:
        self.findings.append(Finding(code, seat, deal, facts))

    def missing(self, kind: str, seat: int, deal: int | None) -> None:
        """Seat `seat`'s `kind` message of the deal is not in the store: the seat's fault, unless the store holds
        a message in its name that it did not sign (then the server's), or the game's abort cut it off."""
        if (
            deal is not None
            and self.cut_from is not None
            and deal >= self.cut_from
            and (kind, seat, deal) != self.stalled
            and (kind, seat, deal) not in self.forged
        ):
            self.cut.add(deal)
        elif (kind, seat, deal) in self.forged:
            self.add("missing-message", None, deal, type=kind, claimed_seat=seat)
        else:
            self.add("missing-message", seat, deal, type=kind)


def audit(
    game: str,
    seats: int,
    messages: Sequence[Any],
    holders: Mapping[int, Sequence[int | None]],
    pack: Sequence[str] | None = None,
    fast: bool = True,
    cut_from: int | None = None,
    stalled: tuple[str, int, int] | None = None,
) -> Audit:
    """Check a blind game's messages. holders[k] is deal k's position -> holder list (from the rules' deal layout
    and the deal's dealer); the deals to check are its keys. fast=False: never the composed fast path
    (fairdeal.core.blind.composed), always each seat's step recomputed from its published input. cut_from,
    stalled: an aborted game's (Audit's)."""
    pack = list(blind_deal.pack_texts() if pack is None else pack)
    out = Audit(cut_from=cut_from, stalled=stalled)
    by_key = _read_messages(out, game, seats, len(pack), messages)
    secrets_ = _reveals(out, seats, by_key)
    for k in sorted(holders):
        if not (fast and _composed(out, game, seats, pack, k, holders[k], by_key, secrets_)):
            _check_deal(out, game, seats, pack, k, holders[k], by_key, secrets_)
    return out


def _composed(
    out: Audit,
    game: str,
    seats: int,
    pack: Sequence[str],
    k: int,
    holders: Sequence[int | None],
    by_key: Mapping[tuple[Any, ...], dict[str, Any]],
    secrets_: Mapping[int, bytes],
) -> bool:
    """Deal k by the composed fast path; False (nothing recorded) when it does not apply or a deck differs."""
    if len(secrets_) != seats:
        return False
    shuffles, locks = decks_of(by_key, "shuffle", k, seats), decks_of(by_key, "lock", k, seats)
    if shuffles is None or locks is None:
        return False
    found = composed_deal([secrets_[s] for s in range(seats)], k, pack, shuffles, locks)
    if found is None:
        return False
    cards, lock_keys = found
    _record_deal(out, k, holders, cards)
    _check_releases(out, game, seats, k, holders, by_key, secrets_, dict(enumerate(lock_keys)))
    known = (cards, [product([lock_keys[s][j] for s in range(seats)]) for j in range(len(pack))])
    _check_opens(out, pack, k, holders, [element_bytes(x) for x in locks[-1]], by_key, known)
    return True


def _record_deal(out: Audit, k: int, holders: Sequence[int | None], cards: list[str]) -> None:
    out.decks[k] = cards
    hands: dict[int, list[str]] = {}
    for j, h in enumerate(holders):
        if h is not None:
            hands.setdefault(h, []).append(cards[j])
    out.hands[k] = hands


# --- reading: forms, signatures, one message per (type, seat, deal) ------------------------------------------


def _key_of(m: Mapping[str, Any]) -> tuple[Any, ...]:
    if m["type"] == "open":
        return ("open", m["seat"], m["deal"], m["position"])
    return (m["type"], m["seat"], m.get("deal"))


def _read_messages(
    out: Audit, game: str, seats: int, size: int, messages: Sequence[Any]
) -> dict[tuple[Any, ...], dict[str, Any]]:
    forms: list[tuple[int, dict[str, Any]]] = []  # (index in the messages, the formed message)
    for i, m in enumerate(messages):
        try:
            forms.append((i, check_form(m, game, seats, size, points=False)))
        except BadMessage as exc:
            seat = m.get("seat") if isinstance(m, Mapping) and type(m.get("seat")) is int else None
            out.add("message-form", None, index=i, claimed_seat=seat, reason=str(exc))
    sign_keys: dict[int, str] = {}
    for _, m in forms:
        if m["type"] == "commit" and m["seat"] not in sign_keys:
            sign_keys[m["seat"]] = m["sign_key"]
    by_key: dict[tuple[Any, ...], dict[str, Any]] = {}
    for i, m in forms:
        seat = m["seat"]
        try:
            if seat not in sign_keys:
                raise BadMessage("no commit")
            verify_signature(m, sign_keys[seat], formed=True)
        except BadMessage:
            out.add("signature", None, m.get("deal"), index=i, claimed_seat=seat, type=m["type"])
            out.forged.add((m["type"], seat, m.get("deal")))
            continue
        key = _key_of(m)
        if key in by_key:
            if by_key[key] != m:  # the seat signed two different messages for one step
                out.add("two-messages", seat, m.get("deal"), type=m["type"])
            continue
        by_key[key] = m
        out.where[key] = i
    for s in range(seats):
        if ("commit", s, None) not in by_key:
            out.add("missing-commit", s)
    return by_key


def _reveals(out: Audit, seats: int, by_key: Mapping[tuple[Any, ...], dict[str, Any]]) -> dict[int, bytes]:
    found: dict[int, bytes] = {}
    for s in range(seats):
        commit, reveal = by_key.get(("commit", s, None)), by_key.get(("reveal", s, None))
        if commit is None:
            continue
        if reveal is None:
            if ("reveal", s, None) in out.forged:
                out.add("missing-reveal", None, claimed_seat=s)
            else:
                out.add("missing-reveal", s)
            continue
        secret = bytes.fromhex(reveal["secret"])
        if derive.commitment(secret) != commit["commitment"]:
            out.add("reveal-mismatch", s)
            continue
        if derive.box_key(secret).hex() != commit["box_key"]:
            out.add("box-key-differs", s)
            continue
        found[s] = secret
    return found


# --- one deal -------------------------------------------------------------------------------------------------


def _check_deal(
    out: Audit,
    game: str,
    seats: int,
    pack: Sequence[str],
    k: int,
    holders: Sequence[int | None],
    by_key: Mapping[tuple[Any, ...], dict[str, Any]],
    secrets_: Mapping[int, bytes],
) -> None:
    points = blind_deal.initial_deck(pack)
    prev = points
    sound = True  # every step of this deal checked out, so the composition of the permutations is its deal
    perms: list[list[int]] = []
    for s in range(seats):
        m = by_key.get(("shuffle", s, k))
        if m is None:
            out.missing("shuffle", s, k)
            return
        deck = _deck(out, m)
        if deck is None:
            return
        if s in secrets_:
            perm = derive.permutation(secrets_[s], k, len(prev))
            perms.append(perm)
            expected = mul_many(derive.shuffle_scalar(secrets_[s], k), [prev[i] for i in perm])
            if deck != expected:
                _classify_shuffle(out, s, k, prev, deck, derive.shuffle_scalar(secrets_[s], k), perm)
                sound = False
        else:
            sound = False
        prev = deck
    locks = {s: derive.lock_scalars(secret, k, len(pack)) for s, secret in secrets_.items()}
    for s in range(seats):
        m = by_key.get(("lock", s, k))
        if m is None:
            out.missing("lock", s, k)
            return
        deck = _deck(out, m, decode=s < seats - 1)
        if deck is None:
            return
        if s in secrets_:
            expected = blind_deal.lock_deck(secrets_[s], k, prev, locks[s])
            wrong = [j for j, (x, y) in enumerate(zip(deck, expected, strict=False)) if x != y]
            if wrong:
                out.add("lock-differs", s, k, positions=wrong)
                sound = False
        prev = deck
    final = prev
    _check_releases(out, game, seats, k, holders, by_key, secrets_, locks)
    cards = None
    if sound and len(secrets_) == seats:
        order = list(range(len(pack)))
        for perm in perms:  # position j of seat s's output came from position perm[j] of its input
            order = [order[i] for i in perm]
        cards = [pack[i] for i in order]
        _record_deal(out, k, holders, cards)
    known = None
    if cards is not None:
        known = (cards, [product([locks[s][j] for s in range(seats)]) for j in range(len(pack))])
    _check_opens(out, pack, k, holders, final, by_key, known)


def _deck(out: Audit, m: Mapping[str, Any], decode: bool = True) -> list[bytes] | None:
    """A shuffle's or lock's deck as elements, each decoded once here (the next step's multiplications reuse the
    decoded points); None, and the seat named, if one is no point: the seat signed it. decode=False: the final
    deck, which no step multiplies (an open is compared with it; a bad element there fails its lock's check)."""
    deck = [element_bytes(x) for x in m["deck"]]
    bad = [j for j, x in enumerate(deck) if not is_element(x)] if decode else []
    if bad:
        out.add("not-a-point", m["seat"], m["deal"], type=m["type"], positions=bad)
        return None
    return deck


def _classify_shuffle(
    out: Audit, s: int, k: int, prev: Sequence[bytes], deck: Sequence[bytes], a: int, perm: Sequence[int]
) -> None:
    """Name what is wrong with seat s's shuffle, unmasking its deck with the mask its secret gives."""
    unmasked = mul_many(inverse(a), deck)
    given = Counter(prev)
    if not any(x in given for x in unmasked):
        out.add("shuffle-wrong-mask", s, k)
        return
    foreign = [j for j, x in enumerate(unmasked) if x not in given]
    if foreign:
        out.add("shuffle-replaced", s, k, positions=foreign)
        return
    if Counter(unmasked) != given:
        twice = sorted(j for j, x in enumerate(unmasked) if unmasked.count(x) > 1)
        out.add("shuffle-not-permutation", s, k, positions=twice)
        return
    out.add("shuffle-order", s, k)  # a permutation, with the right mask, but not the one its secret gives


def _check_releases(
    out: Audit,
    game: str,
    seats: int,
    k: int,
    holders: Sequence[int | None],
    by_key: Mapping[tuple[Any, ...], dict[str, Any]],
    secrets_: Mapping[int, bytes],
    locks: Mapping[int, Sequence[int]],
) -> None:
    box = {
        s: element_from_hex(by_key[("commit", s, None)]["box_key"])
        for s in range(seats)
        if ("commit", s, None) in by_key
    }
    for s in range(seats):
        m = by_key.get(("release", s, k))
        if m is None:
            out.missing("release", s, k)
            continue
        keys = m["keys"]
        owed = {(h, j) for j, h in enumerate(holders) if h is not None and h != s}
        given = {(int(h), int(j)) for h, pads in keys.items() for j in pads}
        skipped = sorted(owed - given)
        if skipped:
            out.add("release-skipped", s, k, positions=[j for _, j in skipped], holders=[h for h, _ in skipped])
        extra = sorted(given - owed)
        if extra:
            out.add("release-extra", s, k, positions=[j for _, j in extra], holders=[h for h, _ in extra])
        if s not in secrets_:
            continue
        e = derive.box_scalar(secrets_[s])
        shared = {}
        for h in box:
            if h != s:  # one Diffie-Hellman per pair of seats for the whole game
                if (s, h) not in out.shared:
                    out.shared[(s, h)] = release.shared_secret(e, box[h])
                shared[h] = out.shared[(s, h)]
        wrong = []
        for h, j in sorted(owed & given):
            if h not in shared:
                continue
            p = release.pad(shared[h], game, k, s, h, j)
            if release.unseal(keys[str(h)][str(j)], p) != locks[s][j]:
                wrong.append(j)
        if wrong:
            out.add("release-wrong-key", s, k, positions=wrong)


def _check_opens(
    out: Audit,
    pack: Sequence[str],
    k: int,
    holders: Sequence[int | None],
    final: Sequence[bytes],
    by_key: Mapping[tuple[Any, ...], dict[str, Any]],
    known: tuple[Sequence[str], Sequence[int]] | None,
) -> None:
    """Every open of deal k: its sender holds the position and mul(Π keys, P_card) == F_k[j]. known = (the card
    at each position, Π_s b_{s,k,j} at each position), when every step of the deal checked out: then the open
    holds exactly when card == cards[j] and Π keys == locks[j] (the same test without a multiplication: F_k[j]
    is mul(locks[j], P_{cards[j]}), and card points have no known discrete-log relation)."""
    points = dict(zip(pack, blind_deal.initial_deck(pack), strict=True))
    opens = sorted((key[3], m) for key, m in by_key.items() if key[0] == "open" and key[2] == k)
    for j, m in opens:
        s, card = m["seat"], m["card"]
        if holders[j] != s:
            out.add("open-not-holder", s, k, position=j, holder=holders[j])
            continue
        total = product([int(x, 16) for x in m["keys"]])
        if known is not None:
            fits = card == known[0][j] and total == known[1][j]
        else:
            fits = card in points and mul(total, points[card]) == final[j]
        if not fits:
            out.add("open-wrong", s, k, position=j, card=card)
            continue
        if (k, card) in out.opens:
            out.add("open-twice", s, k, position=j, card=card)
            continue
        out.opens[(k, card)] = (s, j)
