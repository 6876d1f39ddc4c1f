"""`fairdeal play` at a dealer-blind table (docs/blind.md, "The terminal client"): this seat's part of the
protocol, done by the client itself with the core's BlindSeat (fairdeal/core/blind/seat.py).

The seat's two secrets, σ and its Ed25519 identity key, are made here, kept in the seat's state file (mode 600,
beside the token: fairdeal/client/resume.py) so that `--resume` carries on after a crash or a server restart, and
never sent: the service gets only the signed messages. The client reads the blind log (GET /games/{id}/blind),
checks every message's signature against its seat's commit (and that the log holds this seat's own commit
unchanged), sends its shuffle, lock and release when the log says they are due, receives its cards from the
final deck and the other seats' releases, opens each card it plays, and reveals σ at the end.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from fairdeal.client.http import Client, Problem
from fairdeal.core.blind.deal import opens, spades_holders
from fairdeal.core.blind.group import element_from_hex, scalar_from_hex
from fairdeal.core.blind.messages import BadMessage, verify_signature
from fairdeal.core.blind.seat import BlindFault, BlindSeat
from fairdeal.core.canonical import canonical_json

WHY = {
    "step-timeout": "did not send its protocol step in time",
    "move-timeout": "did not move in time (its clock and the grace period ran out)",
    "left": "left the table",
    "revoke": "played a card the rules forbid (a revoke, found when the hand's cards were opened)",
    "bad-timeout-move": "sent a timeout move that is not the rule set's timeout move",
    "bad-open": "opened a card with keys that do not open its position to it (a seat's complaint showed it)",
}


class BlindTrouble(Exception):
    """The blind log breaks the protocol in a way the service should have refused (a message whose signature does
    not verify, this seat's commit missing or changed): the client stops and reveals nothing."""


def commits_fingerprint(log: list[dict], seats: int) -> str | None:
    """SHA-256 of the canonical JSON of the list of every seat's signed commit in seat order, once all are in:
    players who compare it out of band know the server showed them all the same keys (docs/blind.md; the table
    page shows the same: fairdeal/service/web/static/js/blind/commits.js)."""
    commits = sorted((m for m in log if m["type"] == "commit"), key=lambda m: m["seat"])
    if len(commits) < seats:
        return None
    return hashlib.sha256(canonical_json(commits)).hexdigest()


def new_seat(table: dict, seat: int) -> BlindSeat:
    """This seat's fresh σ and identity key at the table (its commit goes with the join)."""
    return BlindSeat(table["id"], seat, table["players"])


def first_free_seat(table: dict) -> int:
    free = [s["seat"] for s in table["seats"] if not s["taken"]]
    if not free:
        raise ValueError(f"Every seat at table {table['id']} is taken.")
    return free[0]


class BlindPlayer:
    """One seat's view of the blind log and its protocol steps. `keep()` is called when what the seat knows
    changes (it received cards), so its state file is written again."""

    def __init__(self, client: Client, me: BlindSeat, keep: Callable[[], None] | None = None):
        self.c, self.me, self.keep = client, me, keep
        self.log: list[dict] = []  # the signed messages, in the log's order
        self.after = 0  # the blind log's entries read (messages and the service's abort/end entries)
        self.answer: dict[str, Any] = {}  # the last GET /games/{id}/blind answer
        self.fault: str | None = None  # a deal this seat cannot read its cards of (said once)
        self._unchecked: list[dict] = []  # other seats' opens waiting for their deal's dealer to be known
        self._sign_keys: dict[int, str] = {}  # seat -> the Ed25519 key of its commit
        self.warnings: list[str] = []  # other seats' opens that do not hold (the verifier names them too)
        self._opened: dict[int, set] = {}  # deal -> positions and cards opened
        self._dealer: tuple[int, int] | None = None  # (deal, its dealer) from the service: each deal's dealer

    # ------------------------------------------------------------------------------ reading the log
    def read(self, wait: float = 0) -> dict:
        """GET /games/{id}/blind past what was read, absorbed."""
        return self.absorb(
            self.c.get(
                f"/games/{self.me.game}/blind?after={self.after}" + (f"&wait={wait:g}" if wait else ""),
                timeout=wait + 30,
            )
        )

    def absorb(self, a: dict) -> dict:
        """A blind log answer (of GET /games/{id}/blind, or a `blind` event of the game's stream, the same):
        its messages checked and taken in order (one read before is skipped), the rest kept as `answer`."""
        for entry in a.get("messages") or []:
            if entry["index"] < self.after:
                continue
            self._take(entry["message"])
            self.after = entry["index"] + 1
        if a.get("count", 0) > self.after and not a.get("messages") and (a.get("abort") or a.get("status") == "over"):
            self.after = a["count"]  # the service's own abort/end entries: no message to read
        if isinstance(a.get("deal"), dict):
            self._dealer = (a["deal"]["deal"], a["deal"]["dealer"])
        self.answer = a
        for m in self._unchecked:
            self._check_open(m)
        self._unchecked = [m for m in self._unchecked if not self._checkable(m)]
        return a

    def note_view(self, game: dict) -> None:
        """A game view's `blind` summary (count, due, ready, deal, abort) as new as the log read: kept as the
        answer's, so a move that changed whose turn it is needs no read of the log. A view that counts entries
        not read yet is left alone (the stream's `blind` event with them follows), and so is one older than the
        last answer (a batch the stream ended with a `blind` event carries the view before it)."""
        summary = game.get("blind")
        if not isinstance(summary, dict) or not isinstance(summary.get("count"), int):
            return
        if summary["count"] > self.after or summary["count"] < self.answer.get("count", -1):
            return
        self.answer = {**self.answer, **summary, "status": game.get("status")}
        if isinstance(summary.get("deal"), dict):
            self._dealer = (summary["deal"]["deal"], summary["deal"]["dealer"])

    def _take(self, m: dict) -> None:
        """Check a message before using it: signed by the key its seat committed to."""
        key = (
            m.get("sign_key") if m.get("type") == "commit" else self._sign_keys.get(m["seat"]) if "seat" in m else None
        )
        try:
            if key is None:
                raise BadMessage(f"seat {m.get('seat')} has no commit before its {m.get('type')}")
            verify_signature(m, key)
        except BadMessage as exc:
            raise BlindTrouble(f"The blind log holds a message that is not its seat's: {exc}") from None
        if m.get("type") == "commit" and m.get("seat") == self.me.seat and m != self.me.commit():
            raise BlindTrouble("The blind log's commit for this seat is not the one this client sent.")
        if m.get("type") == "commit":
            self._sign_keys[m["seat"]] = m["sign_key"]
        self.log.append(m)
        if m.get("type") == "open" and m["seat"] != self.me.seat:
            self._unchecked.append(m)

    def fingerprint(self) -> str | None:
        return commits_fingerprint(self.log, self.me.seats)

    def dealer_of(self, k: int) -> int | None:
        """Deal k's dealer: the deal passes left every hand (Spades), counted from the deal the service shows."""
        if self._dealer is None:
            return None
        now, dealer = self._dealer
        return (dealer - (now - k)) % self.me.seats

    def _checkable(self, m: dict) -> bool:
        return self.dealer_of(m["deal"]) is not None

    def _check_open(self, m: dict) -> None:
        """Another seat's open: its holder's position, no position or card twice, and its keys open the final
        deck's element to the card (one multiplication)."""
        k, j, card, dealer = m["deal"], m["position"], m["card"], self.dealer_of(m["deal"])
        if dealer is None:
            return
        seen = self._opened.setdefault(k, set())
        locks = self.of_deal(k, "lock")
        why = None
        if spades_holders(dealer, self.me.seats)[j] != m["seat"]:
            why = f"position {j} was not dealt to seat {m['seat']}"
        elif j in seen or card in seen:
            why = f"position {j} or {card} was opened before"
        elif len(locks) < self.me.seats:
            why = "it comes before the deal's last lock"
        elif not opens([scalar_from_hex(x) for x in m["keys"]], card, element_from_hex(locks[-1]["deck"][j])):
            why = f"its keys do not open position {j} to {card}"
            self.complain(k, j)
        seen.update((j, card))
        if why:
            self.warnings.append(f"Seat {m['seat']}'s open of {card} in hand {k + 1} is wrong: {why}.")

    def complain(self, k: int, j: int) -> None:
        """Tell the service that the open of position j of deal k does not hold: it checks that one open (the
        server does not multiply an open itself) and aborts the game blamed on its opener."""
        try:
            self.c.post(f"/games/{self.me.game}/blind/complaints", {"deal": k, "position": j})
        except Problem as exc:  # refused, or the game is over: the verifier names the seat all the same
            self.warnings.append(f"The service did not take the complaint of position {j}: {exc}")

    def of_deal(self, k: int, kind: str) -> list[dict]:
        return [m for m in self.log if m["type"] == kind and m.get("deal") == k]

    def box_keys(self) -> list[str]:
        commits = sorted((m for m in self.log if m["type"] == "commit"), key=lambda m: m["seat"])
        return [m["box_key"] for m in commits]

    # ------------------------------------------------------------------------------ this seat's steps
    def step(self) -> str | None:
        """Send the step the log says this seat owes now (shuffle, lock, release, reveal); its type, or None."""
        a, me = self.answer, self.me
        due = a.get("due") or {}
        if a.get("status") == "over" or me.seat not in (due.get("seats") or []):
            return None
        kind = due.get("type")
        k: int = due["deal"] if kind in ("shuffle", "lock", "release") else -1  # a deal's steps name their deal
        if kind == "shuffle":
            prev = self.of_deal(k, "shuffle")
            msg = me.shuffle(k, prev[-1]["deck"] if prev else None)
        elif kind == "lock":
            msg = me.lock(k, (self.of_deal(k, "lock") or self.of_deal(k, "shuffle"))[-1]["deck"])
        elif kind == "release":
            msg = me.release(k, spades_holders(a["deal"]["dealer"], me.seats), self.box_keys())
        elif kind == "reveal":
            msg = me.reveal()
        else:
            return None
        try:
            self.c.post(f"/games/{me.game}/blind", msg)
        except Problem as exc:
            if exc.status != 409:  # 409: the table moved on meanwhile (read the log again)
                raise
        return kind

    def dealt(self, k: int, dealer: int) -> list[str] | None:
        """This seat's 13 cards of deal k once every release of it is in (received once, then kept), else None."""
        mine = [c for (d, _j), c in sorted(self.me.cards.items()) if d == k]
        if mine:
            return mine
        releases = {m["seat"]: m for m in self.of_deal(k, "release")}
        locks = self.of_deal(k, "lock")
        if len(releases) < self.me.seats or len(locks) < self.me.seats:
            return None
        try:
            holders = spades_holders(dealer, self.me.seats)
            got = self.me.receive(k, locks[-1]["deck"], releases, holders, self.box_keys())
        except BlindFault as exc:
            self.fault = f"Your cards of hand {k + 1} cannot be read: {exc}"
            return None
        if self.keep:
            self.keep()
        return list(got.values())

    def open_of(self, k: int, card: str) -> dict:
        j = self.me.position_of(k, card)
        if j is None:
            raise ValueError(f"You were not dealt {card} in this hand.")
        return self.me.open(k, j)


def abort_line(abort: dict, who: Callable[[int], str]) -> str:
    """An abort, said plainly: who is blamed and why (the signed end record names the same seat)."""
    seat, why = abort["seat"], str(abort.get("why"))  # an abort always names its seat
    where = f" in hand {abort['deal'] + 1}" if isinstance(abort.get("deal"), int) else ""
    if why == "left":
        return (
            f"The game is aborted{where}: {who(seat)} {WHY[why]}. No more moves: the seats still here reveal their "
            "secrets, then the game ends; its signed end record blames the seat that left if it took its secret "
            "with it."
        )
    return (
        f"The game is aborted{where}: {who(seat)} {WHY.get(why, why)}. "
        "No more moves: the seats still here reveal their secrets, then the game ends, blaming "
        f"{who(seat)} in its signed end record."
    )
