"""Tables: create, join, watch, start, reveal, leave, cancel; the lobby; players' saved table preferences.

A table is a versioned document (replaced only by compare-and-set) and hosts one game with the same id: the
commitment is published when the table is created, before anyone sits down.

Client seeds are committed, then revealed (fairdeal/2, docs/fairness.md): a player sits down with a commitment
to its seed, never the seed; the host's start fixes the seating (status "revealing", a signed seating record);
each committed seat then reveals seed and nonce, checked against its commitment; the last reveal starts the game
(status "playing", the signed start record, the first deal). A seat that has not revealed by the deadline
cancels the table (end reason "not-revealed"), its trail signed and the server seed revealed.
"""

from __future__ import annotations

import logging
import re
import secrets
from collections.abc import Callable
from typing import Any

from fairdeal.core import fairness
from fairdeal.core.games import available, make_rules, rules_class
from fairdeal.core.games.base import BadSettings, Rules
from fairdeal.service import standin, table_docs
from fairdeal.service.blind import seating as blind_seating  # BLIND HOOK
from fairdeal.service.errors import ApiError
from fairdeal.service.games import Games
from fairdeal.service.isotime import iso, parse_iso
from fairdeal.service.table_docs import seat_of

log = logging.getLogger("fairdeal.tables")
CLOCK_KINDS = ("card", "other")
CLOCK_RANGE = (5, 3600)
PROTOCOL = fairness.PROTOCOL
TABLE_FIELDS = ("rule_set", "settings", "players", "clocks", "seat", "on_leave", "blind")  # BLIND HOOK: blind
JOIN_FIELDS = ("seat", "client_seed_commitment", "blind_commit")  # BLIND HOOK: blind_commit
LEAVE_FIELDS = ("blind_reveal",)  # BLIND HOOK: a dealer-blind seat's reveal, sent as it leaves
_HEX64 = re.compile(r"[0-9a-f]{64}\Z")
COMMIT_THEN_REVEAL = (
    'Client seeds are committed first and revealed later: sit down with "client_seed_commitment", the SHA-256 of '
    'the canonical JSON of {"type": "client-seed", "protocol": "fairdeal/2", "game_id": <this table\'s id>, '
    '"client_seed": <your seed>, "nonce": <32 random bytes as 64 hex digits>} (docs/fairness.md), and send the '
    "seed and nonce with POST /tables/{id}/reveal once the host has started the table. A seed given in clear at "
    "the table would let whoever sits down last see it before choosing their own."
)


def empty_seat() -> dict:
    return {
        "player": None,
        "name": None,
        "bot": False,
        "client_seed_commitment": None,
        "client_seed": None,
        "nonce": None,
        "revealed": False,
        "gone": False,
    }


def default_size(rule_set: str) -> int:
    """Four at the table where the rule set allows it (each rule set's usual game), else its first size."""
    sizes = rules_class(rule_set).table_sizes
    return 4 if 4 in sizes else sizes[0]


def new_id() -> str:
    return secrets.token_hex(8)


class Tables:
    def __init__(self, store, games: Games, config, now: Callable[[], float]):
        self.store, self.games, self.config, self.now = store, games, config, now

    # ---------------------------------------------------------------------------- documents
    def load(self, table_id: str) -> tuple[dict, int]:
        return table_docs.load(self.store, table_id)

    def update(self, table_id: str, change: Callable[[dict], None]) -> dict:
        return table_docs.update(self.store, table_id, change)

    # ---------------------------------------------------------------------------- validation
    @staticmethod
    def rule_set(value: Any) -> str:
        offered = available()
        if value not in offered:
            raise ApiError(
                422,
                "unknown-rule-set",
                f"Unknown rule set {value!r}; the rule sets offered are: {', '.join(offered)}.",
                allowed=offered,
            )
        return value

    def clocks(self, value: Any) -> dict:
        if value is None:
            return {"card": None, "other": None}
        if value is False or value == "off":
            return {"card": None, "other": None}
        if not isinstance(value, dict) or set(value) - set(CLOCK_KINDS):
            raise ApiError(
                422,
                "bad-clocks",
                '\'clocks\' is an object {"card": seconds, "other": seconds} (null for no clock), or "off".',
            )
        out = {"card": self.config.card_clock, "other": self.config.other_clock}
        lo, hi = CLOCK_RANGE
        for kind in CLOCK_KINDS:
            if kind in value:
                v = value[kind]
                if v is not None and (type(v) is not int or not lo <= v <= hi):
                    raise ApiError(
                        422,
                        "bad-clocks",
                        f"The {kind} clock is a whole number of seconds from {lo} "
                        f"to {hi}, or null for none; not {v!r}.",
                    )
                out[kind] = v
        return out

    def choices(self, body: dict, saved: dict) -> tuple[Rules, dict]:
        """The table's rules (rule set, settings, size) and clocks: the request, else the player's saved choice."""
        rid = self.rule_set(body.get("rule_set"))
        pref = (saved or {}).get(rid, {})
        settings = body.get("settings", pref.get("settings", {}))
        players = body.get("players", pref.get("players", default_size(rid)))
        clocks = self.clocks(body["clocks"] if "clocks" in body else pref.get("clocks", {}))
        return make_rules(rid, settings, players), clocks  # BadSettings names what is allowed

    # ---------------------------------------------------------------------------- actions
    def create(self, player: dict, body: dict, table_id: str | None = None) -> dict:
        """A new table (with the id given: an idempotent request chose it first)."""
        if not isinstance(body, dict):
            raise ApiError(400, "bad-request", "The body is a JSON object.")
        self._no_clear_seed(body)
        if "client_seed_commitment" in body:
            raise ApiError(
                422,
                "commitment-needs-table",
                "A client seed commitment binds the table's id, which the "
                "table gets only now: create the table, then send your commitment with POST "
                "/tables/{id}/join (you keep your seat). " + COMMIT_THEN_REVEAL,
            )
        unknown = set(body) - set(TABLE_FIELDS)
        if unknown:
            raise ApiError(
                422,
                "unknown-field",
                f"A table has no field {sorted(unknown)[0]!r}; the fields are {', '.join(TABLE_FIELDS)}.",
            )
        rules, clocks = self.choices(body, player.get("prefs", {}))
        rid, settings, players = rules.id, rules.settings, rules.players
        leaving = standin.on_leave(body.get("on_leave"))
        blind = blind_seating.blind_setting(body, rid)  # BLIND HOOK
        seat = body.get("seat", 0)
        if seat is not None:
            self._check_seat(seat, players)
        table_id = table_id or new_id()
        commit = self.games.appender.append_commit(table_id, rules)
        seats = [empty_seat() for _ in range(players)]
        if seat is not None:
            seats[seat].update(player=player["id"], name=player["name"])
        doc = {
            "id": table_id,
            "protocol": commit["protocol"],
            "host": player["id"],
            "host_name": player["name"],
            "rule_set": rid,
            "players": players,
            "settings": settings,
            "clocks": clocks,
            "status": "open",
            "on_leave": leaving,
            "created": commit["created"],
            "seated": None,
            "reveal_deadline": None,
            "started": None,
            "ended": None,
            "end_reason": None,
            "seats": seats,
            "spectators": [],
            "commitment": commit["commitment"],
            "key": commit["key"],
        }
        if blind:
            doc["blind"] = True  # BLIND HOOK
        self.store.put_doc("table", table_id, doc, 0)
        self.store.index_set("lobby", table_id, self.now())
        self.save_prefs(player["id"], rid, {"settings": settings, "players": players, "clocks": clocks})
        log.info("table created", extra={"fields": {"game": table_id, "rule_set": rid, "players": players}})
        return doc

    @staticmethod
    def _check_seat(seat: Any, players: int) -> None:
        if type(seat) is not int or not 0 <= seat < players:
            raise ApiError(422, "bad-seat", f"Seats are numbered 0 to {players - 1}; {seat!r} is not one.")

    @staticmethod
    def _no_clear_seed(body: dict) -> None:
        if "client_seed" in body or "nonce" in body:
            raise ApiError(
                422, "client-seed-in-clear", COMMIT_THEN_REVEAL, title="Client seeds are committed, then revealed"
            )

    @staticmethod
    def _commitment(value: Any) -> str | None:
        if value is None:
            return None
        if not isinstance(value, str) or not _HEX64.match(value):
            raise ApiError(
                422,
                "bad-client-seed-commitment",
                "A client seed commitment is 64 lowercase hex digits (a SHA-256). " + COMMIT_THEN_REVEAL,
            )
        return value

    def join(self, player: dict, table_id: str, body: dict) -> dict:
        """Take a seat (with a commitment to a client seed, or none). A seated player may send join again while
        the table is open to give or replace its commitment: nothing is revealed before the start, so changing
        it tells nobody anything and lets the host commit once the table has its id."""
        if not isinstance(body, dict):
            raise ApiError(400, "bad-request", "The body is a JSON object.")
        self._no_clear_seed(body)
        unknown = set(body) - set(JOIN_FIELDS)
        if unknown:
            raise ApiError(
                422,
                "unknown-field",
                f"Joining takes no field {sorted(unknown)[0]!r}; the fields are {', '.join(JOIN_FIELDS)}.",
            )
        commitment = self._commitment(body.get("client_seed_commitment"))

        def change(t: dict) -> None:
            self._must_be_open(t)
            if commitment is not None and t.get("protocol") != PROTOCOL:
                raise ApiError(
                    409,
                    "protocol-mismatch",
                    f"This table was opened under "
                    f"{t.get('protocol') or 'fairdeal/1'}, which has no "
                    f"client-seed commitments.",
                )
            mine = [i for i, s in enumerate(t["seats"]) if s["player"] == player["id"]]
            if mine and "blind_commit" in body and body.get("seat", mine[0]) == mine[0]:  # BLIND HOOK
                t["seats"][mine[0]]["blind_commit"] = blind_seating.check_commit(t, mine[0], body["blind_commit"])
                if "client_seed_commitment" not in body:
                    return
            if mine:
                if "client_seed_commitment" not in body or body.get("seat", mine[0]) != mine[0]:
                    raise ApiError(
                        409,
                        "already-seated",
                        f"You already have seat {mine[0]} at this table (send "
                        f"join again with client_seed_commitment to commit).",
                    )
                t["seats"][mine[0]]["client_seed_commitment"] = commitment
                return
            seat = body.get("seat")
            if seat is None:
                free = [i for i, s in enumerate(t["seats"]) if s["player"] is None]
                if not free:
                    raise ApiError(409, "table-full", "Every seat at this table is taken.")
                seat = free[0]
            self._check_seat(seat, t["players"])
            if t["seats"][seat]["player"] is not None:
                raise ApiError(409, "seat-taken", f"Seat {seat} is taken.")
            t["seats"][seat].update(player=player["id"], name=player["name"], client_seed_commitment=commitment)
            if "blind_commit" in body:  # BLIND HOOK
                t["seats"][seat]["blind_commit"] = blind_seating.check_commit(t, seat, body["blind_commit"])
            if player["id"] in t["spectators"]:
                t["spectators"].remove(player["id"])

        return self.update(table_id, change)

    def watch(self, player: dict, table_id: str) -> dict:
        def change(t: dict) -> None:
            if any(s["player"] == player["id"] for s in t["seats"]):
                raise ApiError(409, "already-seated", "You have a seat at this table; seated players do not watch.")
            if player["id"] not in t["spectators"]:
                t["spectators"].append(player["id"])

        return self.update(table_id, change)

    @staticmethod
    def _must_be_open(t: dict) -> None:
        if t["status"] != "open":
            raise ApiError(
                409, "table-not-open", f"This table is {t['status']}; seats can only be taken before it starts."
            )

    def start(self, player: dict, table_id: str) -> dict:
        """The host starts the table: empty seats become bots and the seating is fixed. If any seat committed to
        a client seed the table waits for the reveals (status "revealing", until reveal_deadline); else the
        game starts at once."""

        def change(t: dict) -> None:
            self._must_be_host(t, player)
            self._must_be_open(t)
            blind_seating.check_start(t)  # BLIND HOOK
            now = self.now()
            for i, s in enumerate(t["seats"]):
                if s["player"] is None:  # an empty seat is taken by a bot, always shown as one
                    s.update(empty_seat(), name=f"Bot {i}", bot=True)
            t["seated"] = iso(now)
            if t.get("protocol") == PROTOCOL and any(s.get("client_seed_commitment") for s in t["seats"]):
                t["status"] = "revealing"
                t["reveal_deadline"] = iso(now + self.config.reveal_seconds)
            else:
                t["status"] = "playing"
                t["started"] = iso(now)

        table = self.update(table_id, change)
        self.store.index_remove("lobby", table_id)
        self.store.index_set("running", table_id, -self.now())  # the lobby's games to watch, newest first
        log.info(
            "table started",
            extra={
                "fields": {
                    "game": table_id,
                    "status": table["status"],
                    "bots": sum(1 for s in table["seats"] if s["bot"]),
                }
            },
        )
        self.games.touch(table_id)
        return self.load(table_id)[0]

    def reveal(self, player: dict, table_id: str, body: Any) -> dict:
        """A committed seat reveals its client seed and nonce. They must open its commitment (else 422
        bad-reveal, nothing changes); the last reveal starts the game. Sending the same reveal again is
        harmless (200, no change)."""
        if not isinstance(body, dict):
            raise ApiError(400, "bad-request", "The body is a JSON object.")
        unknown = set(body) - {"client_seed", "nonce"}
        if unknown:  # as every other request names the member it does not have
            raise ApiError(
                422,
                "unknown-field",
                f"A reveal has no field {sorted(unknown)[0]!r}; its fields are client_seed and nonce.",
            )
        if "client_seed" not in body or "nonce" not in body:
            raise ApiError(
                400,
                "bad-request",
                'A reveal is {"client_seed": <your seed>, "nonce": <the 64 hex digits you committed with>}.',
            )
        try:
            seed = fairness.validate_client_seed(body["client_seed"])
            nonce = fairness.validate_nonce(body["nonce"])
        except ValueError as exc:
            raise ApiError(422, "bad-reveal", str(exc)) from None
        self.games.touch(table_id)  # a deadline that has passed cancels the table first

        def change(t: dict) -> None:
            mine = seat_of(t, player)
            if mine is None:
                raise ApiError(403, "not-seated", "You have no seat at this table, so you have nothing to reveal.")
            s = t["seats"][mine]
            if t["status"] != "revealing":
                raise ApiError(
                    409,
                    "table-not-revealing",
                    f"This table is {t['status']}: seeds are revealed only "
                    f"after the host starts the table and before the game begins.",
                )
            if s.get("client_seed_commitment") is None:
                raise ApiError(
                    409,
                    "no-commitment",
                    f"Seat {mine} sat down without a client seed commitment, so it has no seed to reveal.",
                )
            if fairness.client_seed_commitment(table_id, seed, nonce) != s["client_seed_commitment"]:
                raise ApiError(
                    422,
                    "bad-reveal",
                    "This client seed and nonce do not open your commitment: the "
                    'SHA-256 of {"type": "client-seed", "protocol": "fairdeal/2", "game_id", '
                    '"client_seed", "nonce"} (canonical JSON) is not the commitment you gave. '
                    "Nothing changed; send the seed and nonce you committed to.",
                )
            if s.get("revealed"):
                return  # the same reveal again (a retry): one commitment has one opening
            if self.now() >= parse_iso(t["reveal_deadline"]):
                raise ApiError(409, "reveal-too-late", "The reveal deadline has passed: the table is cancelled.")
            s.update(client_seed=seed, nonce=nonce, revealed=True)
            if all(x.get("revealed") for x in t["seats"] if x.get("client_seed_commitment")):
                t["status"] = "playing"
                t["started"] = iso(self.now())

        try:
            self.update(table_id, change)
        except ApiError as exc:
            if exc.code == "reveal-too-late":
                self.games.touch(table_id)
            raise
        self.games.touch(table_id)
        return self.load(table_id)[0]

    @staticmethod
    def _must_be_host(t: dict, player: dict) -> None:
        if t["host"] != player["id"]:
            raise ApiError(403, "not-host", "Only the table's host may do this.")

    def leave(self, player: dict, table_id: str, body: dict | None = None) -> dict:
        body = body or {}
        unknown = sorted(set(body) - set(LEAVE_FIELDS))
        if unknown:
            raise ApiError(
                422, "unknown-field", f"A leave has no field {unknown[0]!r}; the fields are: {', '.join(LEAVE_FIELDS)}."
            )
        if "blind_reveal" in body:  # BLIND HOOK: checked first (a bad one changes nothing), in before the seat goes
            t, _ = self.load(table_id)
            seat = seat_of(t, player)
            reveal = blind_seating.check_leave_reveal(t, seat, body["blind_reveal"])
            if t["status"] == "playing":
                self.games.act(table_id, lambda g: self.games.blind.left(g, seat, reveal))

        def change(t: dict) -> None:
            if player["id"] in t["spectators"]:
                t["spectators"].remove(player["id"])
                return
            seats = [s for s in t["seats"] if s["player"] == player["id"]]
            if not seats:
                raise ApiError(409, "not-at-table", "You are not at this table.")
            if t["status"] == "open":
                seats[0].update(empty_seat())
            else:
                seats[0]["gone"] = True

        table = self.update(table_id, change)
        if table["status"] in ("open", "revealing") and table["host"] == player["id"]:
            return self.cancel(player, table_id)  # a table whose host walks away before the start is cancelled
        if table["status"] == "playing" and table.get("blind") and seat_of(table, player) is not None:
            # BLIND HOOK: its keys are needed for every card still to come: the game ends now, blamed on it
            self.games.act(table_id, lambda g: self.games.blind.left(g, seat_of(g.loaded_table, player)))
            return self.load(table_id)[0]
        if table["status"] == "playing" and table.get("on_leave") == "end" and seat_of(table, player) is not None:
            # the host chose that a leave ends the game: it ends now, for everyone, as abandoned
            self.games.act(table_id, lambda g: self.games.appender.finish(g, "abandoned") if g.started else None)
            return self.load(table_id)[0]
        mine = seat_of(table, player)
        if (
            table["status"] == "revealing"
            and mine is not None
            and table["seats"][mine].get("client_seed_commitment")
            and not table["seats"][mine].get("revealed")
        ):
            # a committed seat that leaves will never reveal: the table cannot start, end it now, naming the seat
            self.games.act(table_id, lambda g: self.games.appender.finish(g, "not-revealed"))
        self.games.touch(table_id)
        return self.load(table_id)[0]

    def cancel(self, player: dict, table_id: str) -> dict:
        t, _ = self.load(table_id)
        self._must_be_host(t, player)
        if t.get("tournament"):  # its game is the tournament's: nobody, the organiser included, ends it early
            raise ApiError(409, "tournament-table", "A tournament's table is played to its end; it is not cancelled.")
        if t["status"] == "over":
            raise ApiError(409, "table-over", "This table's game has already ended.")
        return self.games.act(table_id, lambda g: self.games.appender.finish(g, "cancelled"))[0].loaded_table

    # ---------------------------------------------------------------------------- preferences
    def save_prefs(self, player_id: str, rule_set: str, prefs: dict) -> None:
        """Best effort, after the table is made: a player document gone meanwhile (a store rolled back) loses
        the preference, never the answer (a 500 after the table was created made clients create another)."""
        for _ in range(10):
            doc, version = self.store.get_doc("player", player_id)
            if doc is None:
                log.warning("player document missing: preference not saved", extra={"fields": {"player": player_id}})
                return
            doc.setdefault("prefs", {})[rule_set] = prefs
            if self.store.put_doc("player", player_id, doc, version):
                return

    def set_prefs(self, player: dict, rule_set: str, body: Any) -> dict:
        if not isinstance(body, dict):
            raise ApiError(400, "bad-request", "The body is a JSON object.")
        unknown = set(body) - {"settings", "players", "clocks"}
        if unknown:
            raise ApiError(
                422,
                "unknown-field",
                f"Preferences have no field {sorted(unknown)[0]!r}; the fields are settings, players, clocks.",
            )
        rules, clocks = self.choices(dict(body, rule_set=rule_set), {})
        prefs = {"settings": rules.settings, "players": rules.players, "clocks": clocks}
        self.save_prefs(player["id"], rules.id, prefs)
        return prefs

    # ---------------------------------------------------------------------------- presenting
    def public(self, t: dict) -> dict:
        """The table as anyone may see it. Per seat only whether it committed to a client seed and whether it has
        revealed it: never a seed (nor a nonce) before the start record publishes them all."""
        rules = make_rules(t["rule_set"], t["settings"], t["players"])
        return {
            "id": t["id"],
            "protocol": t.get("protocol", "fairdeal/1"),
            "blind": bool(t.get("blind")),  # BLIND HOOK
            "rule_set": t["rule_set"],
            "title": rules.title,
            "players": t["players"],
            "settings": t["settings"],
            "rules": rules.describe(),
            "reminder": rules.reminder(),
            "clocks": t["clocks"],
            "on_leave": t.get("on_leave", "stand-in"),
            "status": t["status"],
            "host": t["host_name"],
            "seats": [
                {
                    "seat": i,
                    "name": s["name"],
                    "bot": s["bot"],
                    "taken": s["player"] is not None or s["bot"],
                    "committed": s.get("client_seed_commitment") is not None,
                    "revealed": bool(s.get("revealed")),
                    "gone": s.get("gone", False),
                    **({"blind_committed": bool(s["bot"] or s.get("blind_commit"))} if t.get("blind") else {}),
                }
                for i, s in enumerate(t["seats"])
            ],
            "seats_taken": sum(1 for s in t["seats"] if s["player"] is not None or s["bot"]),
            "bots": sum(1 for s in t["seats"] if s["bot"]),
            "spectators": len(t["spectators"]),
            "commitment": t["commitment"],
            "key": t["key"],
            "created": t["created"],
            "reveal_deadline": t.get("reveal_deadline"),
            "started": t["started"],
            "ended": t["ended"],
            "end_reason": t["end_reason"],
            "next": t.get("next"),
            "links": {
                "self": f"/tables/{t['id']}",
                "game": f"/games/{t['id']}",
                "transcript": f"/games/{t['id']}/transcript",
                "start": f"/games/{t['id']}/start",
                "reveal": f"/tables/{t['id']}/reveal",
            },
        }

    def lobby(self, limit: int = 100, index: str = "lobby", statuses: tuple = ("open",)) -> list[dict]:
        out = []
        for table_id, _ in self.store.index_range(index, limit=limit):
            doc, _ = self.store.get_doc("table", table_id)
            if doc is not None and doc["status"] in statuses:
                out.append(self.public(doc))
        return out

    def running(self, limit: int = 50) -> list[dict]:
        """The tables being played (or waiting for their reveals), newest first: the lobby's games to watch."""
        return self.lobby(limit, "running", ("revealing", "playing"))


__all__ = ["Tables", "BadSettings"]
