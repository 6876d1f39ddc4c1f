"""The blind log of a game: every signed fairdeal-blind/1 message the seats sent, in the order the server took
them, kept as a second append-only log in the store beside the game's own (id "<game>~blind").

Being a store log it gets what the game log has: compare-and-append on its length (two processes can never
both take the same step), change notification (an append wakes every event-feed wait on the game: the feed
watches this log's id too), and the store's durability. An entry is one of
  {"m": <signed message>}                                   commit, shuffle, lock, release, reveal
  {"m": <signed open>, "seq": n, "by": "player"|"timeout"|"bot"}   the open of the move record with seq n
  {"abort": {"seat", "why", "deal", "step"[, "seq"][, "position"]}, "deadline": t | null}
                                                            a seat stalled, left or cheated: the reveals follow
                                                            (deadline: the one that passed, for a stall)
  {"end": {"abort": null | {...}, "unrevealed": [...]}}     written once, just before the game's end record
The open goes in first and its move record follows: a process that finds an open whose move record is not in
the game log appends it (`Progress.unrecorded`), so a crash between the two writes loses nothing.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from typing import Any

from fairdeal.core.blind.deal import spades_holders
from fairdeal.service.blind.seats import secret_id
from fairdeal.service.isotime import iso
from fairdeal.service.store.base import OK

SUFFIX = "~blind"
DECK = 52


def log_id(game_id: str) -> str:
    return game_id + SUFFIX


def delete_stored(store, game_id: str, table: dict | None) -> None:
    """Remove a blind game's own keys from the store (retention): its blind log and its bot seats' secrets
    (looked for at every seat: a human's is never stored). Store.delete_game removes what is keyed by one id,
    so each of them is deleted as an id of its own."""
    if not (table and table.get("blind")):
        return
    store.delete_game(log_id(game_id))
    for seat in range(len(table.get("seats", ()))):
        store.delete_game(secret_id(game_id, seat))


def entry_text(entry: dict) -> str:
    return json.dumps(entry, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@dataclass
class DealSteps:
    """One deal's messages so far."""

    shuffles: list[dict] = field(default_factory=list)
    locks: list[dict] = field(default_factory=list)
    releases: dict[int, dict] = field(default_factory=dict)
    opens: list[tuple[dict, int, str]] = field(default_factory=list)  # (message, seq, by)
    opened: dict[int, str] = field(default_factory=dict)  # position -> card

    def final_deck(self) -> list[str] | None:
        return self.locks[-1]["deck"] if self.locks else None


@dataclass
class Progress:
    """What the blind log says so far, read from its entries in order (each process keeps one per game)."""

    seats: int
    texts: list[str] = field(default_factory=list)
    commits: dict[int, dict] = field(default_factory=dict)
    deals: dict[int, DealSteps] = field(default_factory=dict)
    reveals: dict[int, dict] = field(default_factory=dict)
    end: dict | None = None
    abort: dict | None = None  # the abort, once decided (the seats still present reveal, then the end)
    # the abort entry's place and times: the messages before it, when it was written, the deadline that passed
    abort_after: int = 0
    abort_at: float = 0.0
    abort_deadline: float | None = None
    sent: int = 0  # the signed messages so far (entries with "m")
    last_seq: int = 0  # the seq of the last open
    last_at: float = 0.0  # when the last entry was written
    audited: int = 0  # hands whose rules this process has checked with every card open (audit.first_fault)
    by_sig: dict[str, int] = field(default_factory=dict)  # a message's signature -> its entry's index (retries)

    def apply(self, text: str) -> None:
        entry = json.loads(text)
        self.texts.append(text)
        self.last_at = entry.get("at", self.last_at)
        if "end" in entry:
            self.end = entry["end"]
            return
        if "abort" in entry:
            self.abort = entry["abort"]
            self.abort_after, self.abort_at, self.abort_deadline = self.sent, self.last_at, entry.get("deadline")
            return
        m = entry["m"]
        self.sent += 1
        self.by_sig.setdefault(m["sig"], len(self.texts) - 1)
        kind, seat = m["type"], m["seat"]
        if kind == "commit":
            self.commits[seat] = m
        elif kind == "reveal":
            self.reveals[seat] = m
        else:
            d = self.deals.setdefault(m["deal"], DealSteps())
            if kind == "shuffle":
                d.shuffles.append(m)
            elif kind == "lock":
                d.locks.append(m)
            elif kind == "release":
                d.releases[seat] = m
            elif kind == "open":
                d.opens.append((m, entry["seq"], entry["by"]))
                d.opened[m["position"]] = m["card"]
                self.last_seq = entry["seq"]

    @property
    def count(self) -> int:
        return len(self.texts)

    def index_of(self, msg: dict) -> int | None:
        """The index of the entry holding exactly `msg` (a retry of a message already taken), else None. Found by
        its signature, not by reading every entry: a game's log has over a thousand."""
        i = self.by_sig.get(msg["sig"])  # a formed message has its "sig"
        if i is None or json.loads(self.texts[i]).get("m") != msg:
            return None
        return i

    def deal(self, k: int) -> DealSteps:
        return self.deals.get(k) or DealSteps()

    def box_keys(self) -> list[str]:
        return [self.commits[s]["box_key"] for s in range(self.seats)]

    def due(self, k: int) -> tuple[str, list[int]]:
        """The protocol step deal k waits for and the seats that owe it: ("shuffle"|"lock", [seat]),
        ("release", seats), or ("ready", [])."""
        d = self.deal(k)
        if len(d.shuffles) < self.seats:
            return "shuffle", [len(d.shuffles)]
        if len(d.locks) < self.seats:
            return "lock", [len(d.locks)]
        missing = [s for s in range(self.seats) if s not in d.releases]
        return ("release", missing) if missing else ("ready", [])

    def messages(self) -> list[dict]:
        """The signed messages in order (the transcript's blind.messages)."""
        return [e["m"] for e in map(json.loads, self.texts) if "m" in e]

    def member(self) -> dict[str, Any]:
        """The transcript's "blind" member (docs/blind.md, "The transcript"), made from the log alone (so every
        process makes the same bytes): the messages as signed, and the seats the end blames (the aborting seat
        and every seat that did not reveal), ascending. A seat that left with its reveal is not blamed: leaving
        breaks no rule of the protocol, and the verifier holds the end to blaming only a seat the messages show
        at fault (docs/blind.md, "Leaving")."""
        end = self.end or {}
        blame = set(end.get("unrevealed", []))
        abort = end.get("abort")
        if abort and not (abort.get("why") == "left" and abort["seat"] in self.reveals):
            blame.add(abort["seat"])
        member: dict[str, Any] = {"protocol": "fairdeal-blind/1", "messages": self.messages(), "blame": sorted(blame)}
        if abort:
            member["abort"] = self.abort_record()
        return member

    def abort_record(self) -> dict[str, Any]:
        """The transcript's blind.abort (docs/blind.md, "Aborts"): the abort entry with its place in the messages
        (`after`), when it was written (`at`) and the deadline that passed (`deadline`, null when none did), so the
        verifier can hold a stall's blame to the log (fairdeal.core.blind.stall)."""
        assert self.abort is not None
        d = self.abort_deadline
        return {
            **self.abort,
            "after": self.abort_after,
            "at": iso(self.abort_at),
            "deadline": None if d is None else iso(d),
        }


def holders(dealer: int, seats: int) -> list[int | None]:
    """Which seat each position of a deal's final deck goes to (Spades: the j-th card dealt, from the dealer's
    left: the engine's own deal order)."""
    return spades_holders(dealer, seats, DECK)


def positions(dealer: int, seats: int) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {s: [] for s in range(seats)}
    for j, h in enumerate(holders(dealer, seats)):
        if h is not None:
            out[h].append(j)
    return out


class BlindLogs:
    """The blind logs of the games this process touches: each read into a Progress, caught up with the store, and
    appended to by compare-and-append on its length. The catch-up and the end's signature read the transcript
    member from here; fairdeal/service/blind/table.py does the table's steps."""

    def __init__(self, store):
        self.store = store
        self._progress: dict[str, Progress] = {}
        self._lock = threading.Lock()

    def progress(self, game_id: str, seats: int = 4) -> Progress:
        """This process's reading of the game's blind log, caught up with the store."""
        with self._lock:
            p = self._progress.get(game_id)
            if p is None:
                p = self._progress[game_id] = Progress(seats)
        start = max(p.count - 1, 0)
        texts = self.store.records(log_id(game_id), start)
        if p.count and (not texts or texts[0] != p.texts[-1]):
            p = Progress(seats)  # the store is behind this copy or went another way: read it afresh
            texts, start = self.store.records(log_id(game_id), 0), 0
            with self._lock:
                self._progress[game_id] = p
        for text in texts[p.count - start :]:
            p.apply(text)
        return p

    def append(self, game_id: str, p: Progress, entry: dict, now: float) -> bool:
        """Compare-and-append on the blind log's length; False if another writer was first (read again)."""
        text = entry_text(dict(entry, at=round(now, 3)))
        res = self.store.append(log_id(game_id), p.count, text, now)
        if res.status == OK:
            p.apply(text)
            return True
        return False

    def member(self, game_id: str) -> dict[str, Any]:
        """The transcript member of a blind game ({} when its log is empty): added before the end is signed."""
        p = self.progress(game_id)
        return {"blind": p.member()} if p.count else {}

    def forget(self, game_id: str) -> None:
        with self._lock:
            self._progress.pop(game_id, None)
