"""Duplicate tournaments on the service (docs/tournaments.md; the API in docs/api.md, "Tournaments").

The organiser creates a tournament: its server seed is drawn and kept as a secret, the tournament record (with
the commitment) is signed at once. Entries register with a commitment to a client seed (or none; the organiser
may add bot entries), the organiser closes registration (the registration record is signed), committed entries
reveal, and the organiser starts it: the start record is signed. Then, for a tournament played live (the default
when some entry is a person), each round's tables are live service tables (tournament_tables.py) the people play
through the game API, the round closing when every table has ended; a tournament of bots only, or one created
with "play": "policies", has the sweeper play a round a pass by the policies (core.tournament.play.play_round; a
person's entry by the policy that stands in for a player in selfplay). Ratings (openskill) are updated per game.
"""

from __future__ import annotations

import logging
import re
import secrets
from collections.abc import Callable
from typing import Any

from openskill.models import PlackettLuce  # a well-kept rating library that rates teams (docs/tournaments.md)

from fairdeal.core.fairness import is_hex64, new_server_seed, validate_client_seed, validate_nonce
from fairdeal.core.games import make_rules
from fairdeal.core.games.base import BadSettings
from fairdeal.core.tournament.pairing import PairingError, max_rounds
from fairdeal.core.tournament.play import close_round, finish, open_round, play_round
from fairdeal.core.tournament.records import commitment_leaf, ending_leaf, header, shape, table_seats
from fairdeal.core.tournament.scoring import LOWER_IS_BETTER
from fairdeal.core.tournament.seeds import FORMATS, entry_commitment, tournament_commitment
from fairdeal.core.writer import sign_record
from fairdeal.service.errors import ApiError, store_unavailable
from fairdeal.service.game import entry_text, leaf_text
from fairdeal.service.store.base import OK
from fairdeal.service.tournament_tables import ended_games, holds_place, open_table, public_round, seat_of_player

KIND = "tournament"
PLAYING = "tournaments"  # the store's index of tournaments being played, by when their next round is due
MAX_ROUNDS = 20
MAX_ENTRIES = 128
PLAY = ("live", "policies")  # how the tables are played (docs/tournaments.md, "On the service")
CHECK_EVERY = 1.0  # seconds between the sweeper's looks at a live round's tables
RETRY_AFTER_FAILURE = 60.0  # a tournament whose round failed is tried again after this, the others go on
log = logging.getLogger("fairdeal.tournaments")
NAME = re.compile(r"[ -~]{1,40}\Z")
ID = re.compile(r"T-[0-9a-f]{16}\Z")


def iso(t: float) -> str:
    import datetime

    return datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _bad(code: str, detail: str) -> ApiError:
    """A refusal of what the body says (422), `code` one of openapi.yaml's problem codes."""
    return ApiError(422, code, detail)


class Tournaments:
    def __init__(self, store, keyring, config, now: Callable[[], float], games=None, tables=None):
        self.store, self.keyring, self.config, self.now = store, keyring, config, now
        self.games, self.tables = games, tables  # the live tables' (None: policies only)

    def _log(self, tid: str, index: int, entry: dict, leaf: dict) -> None:
        """The tournament's record `index` in its own record log, with its transparency-log leaf in the same
        atomic write (docs/tournaments.md, "In the transparency log"): the commitment before any entry, the
        ending when it is over."""
        if self.config.transparency_log:
            res = self.store.append_with_leaf(tid, index, entry_text(entry), self.now(), leaf["type"], leaf_text(leaf))
        else:
            res = self.store.append(tid, index, entry_text(entry), self.now())
        if res.status != OK:
            raise ApiError(409, "busy", "The tournament changed meanwhile; try again.")

    # --- reading and writing -------------------------------------------------------------------------
    def load(self, tid: str) -> tuple[dict, int]:
        doc, version = self.store.get_doc(KIND, tid) if ID.match(tid or "") else (None, 0)
        if doc is None:
            raise ApiError(404, "tournament-not-found", "There is no tournament with this id.")
        return doc, version

    def _save(self, doc: dict, version: int) -> None:
        if not self.store.put_doc(KIND, doc["id"], doc, version):
            raise ApiError(409, "busy", "The tournament changed meanwhile; try again.")

    def _sign(self, record: dict) -> str:
        return sign_record(self.keyring.private_for(record.get("key") or self.keyring.current_key), record)

    # --- the steps -------------------------------------------------------------------------------------
    def create(self, player: dict, body: Any) -> dict:
        body = body if isinstance(body, dict) else {}
        unknown = set(body) - {"rule_set", "players", "settings", "format", "rounds", "play", "clocks"}
        if unknown:
            raise ApiError(400, "unknown-field", f"A tournament has no {', '.join(sorted(unknown))}.")
        try:
            rules = make_rules(body.get("rule_set", "spades"), body.get("settings") or {}, body.get("players", 4))
        except BadSettings as exc:
            raise _bad("bad-settings", exc.message) from None
        fmt, rounds = body.get("format", "swiss"), body.get("rounds", 3)
        if fmt not in FORMATS:
            raise _bad("bad-tournament", f"The formats are {', '.join(FORMATS)}, not {fmt!r}.")
        if type(rounds) is not int or not 1 <= rounds <= MAX_ROUNDS:
            raise _bad("bad-tournament", f"A tournament has 1 to {MAX_ROUNDS} rounds.")
        play = body.get("play", "live" if self.games is not None else "policies")
        if play not in PLAY or (play == "live" and self.games is None):
            raise _bad("bad-tournament", f"'play' is {' or '.join(repr(p) for p in PLAY)}, not {play!r}.")
        clocks = self.tables.clocks(body.get("clocks")) if self.tables is not None else {}
        if fmt == "round-robin" and shape(rules)[0] != 2:
            raise _bad("bad-tournament", "A round-robin needs tables of two entries (partnership rule sets).")
        tid = "T-" + secrets.token_hex(8)
        seed = new_server_seed()
        self.store.put_secret(tid, seed.hex())
        rules_json = rules.to_json()
        record = header(
            "tournament",
            tid,
            format=fmt,
            rules=rules_json,
            rounds=rounds,
            commitment=tournament_commitment(seed, tid, fmt, rules_json, rounds),
            key=self.keyring.current_key,
            created=iso(self.now()),
        )
        signature = self._sign(record)
        self._log(tid, 0, {"tournament": record, "tournament_signature": signature}, commitment_leaf(record))
        doc = {
            "id": tid,
            "organiser": player["id"],
            "status": "registering",
            "entries": [],
            "reveals": {},
            "export": {"protocol": record["protocol"], "tournament": record, "tournament_signature": signature},
            "ratings": {},
            "play": play,
            "clocks": clocks,
        }
        self._save(doc, 0)
        return doc

    def register(self, player: dict, tid: str, body: Any) -> dict:
        doc, version = self.load(tid)
        if doc["status"] != "registering":
            raise ApiError(409, "registration-closed", "Registration for this tournament has closed.")
        body = body if isinstance(body, dict) else {}
        unknown = set(body) - {"name", "members", "bot", "client_seed_commitment"}
        if unknown:
            raise ApiError(400, "unknown-field", f"An entry has no {', '.join(sorted(unknown))}.")
        size = shape(make_rules_of(doc))[1]
        name, members, bot = body.get("name"), body.get("members"), body.get("bot", False)
        commitment = body.get("client_seed_commitment")
        if not isinstance(name, str) or not NAME.match(name):
            raise _bad("bad-name", "An entry's name is 1 to 40 printable ASCII characters.")
        if (
            not isinstance(members, list)
            or len(members) != size
            or not all(isinstance(m, str) and NAME.match(m) for m in members)
            or len(set(members)) != size
        ):
            raise _bad(
                "bad-entry",
                f"An entry of this tournament has {size} member name(s), distinct, each 1 to "
                f"40 printable ASCII characters.",
            )
        if type(bot) is not bool or (bot and player["id"] != doc["organiser"]):
            raise _bad("bad-entry", "Only the organiser registers bot entries ('bot' is true or false).")
        if bot and commitment is not None:
            raise _bad("bad-entry", "A bot entry has no client seed.")
        if commitment is not None and not is_hex64(commitment):
            raise _bad("bad-client-seed-commitment", "A client-seed commitment is 64 lowercase hex digits.")
        if len(doc["entries"]) >= MAX_ENTRIES:
            raise ApiError(409, "tournament-full", f"A tournament takes at most {MAX_ENTRIES} entries.")
        if holds_place(doc["entries"], player["id"], registrants=False):
            raise ApiError(409, "already-entered", "You hold a member place of an entry of this tournament.")
        taken = {m for e in doc["entries"] for m in e["members"]}
        if taken & set(members):
            raise _bad("bad-entry", "A member of this entry is already registered.")
        doc["entries"].append(
            {
                "entry": len(doc["entries"]),
                "name": name,
                "members": members,
                "bot": bot,
                "client_seed_commitment": commitment,
                "player": player["id"],
            }
        )
        self._save(doc, version)
        return doc

    def _member_place(self, tid: str, entry: int, member: int) -> tuple[dict, int, dict, dict]:
        """The tournament, its entry and that entry's member place `member` (docs/tournaments.md, "Partners"),
        refused once the tournament has started or for a place no other player can take."""
        doc, version = self.load(tid)
        if doc["status"] not in ("registering", "revealing"):
            raise ApiError(409, "tournament-started", "Member places are given and taken only before the start.")
        if not 0 <= entry < len(doc["entries"]):
            raise ApiError(404, "not-found", "This tournament has no such entry.")
        e = doc["entries"][entry]
        if e["bot"] or not 1 <= member < len(e["members"]):
            raise _bad("bad-member", "A place another player can take is a person's entry's member 1, 2, ...")
        place = e.setdefault("places", {}).setdefault(str(member), {"invite": None, "player": None})
        if place["player"] is not None:
            raise ApiError(409, "member-taken", "Another player has taken this member place.")
        return doc, version, e, place

    def invite(self, player: dict, tid: str, entry: int, member: int) -> dict:
        """The entry's registrant makes (or remakes, voiding the last) the invite that lets one other player take
        member place `member`: {"entry", "member", "name", "invite"}."""
        doc, version, e, place = self._member_place(tid, entry, member)
        if e["player"] != player["id"]:
            raise ApiError(403, "not-your-entry", "Only the player who registered an entry invites its members.")
        place["invite"] = secrets.token_hex(16)
        self._save(doc, version)
        return {"entry": entry, "member": member, "name": e["members"][member], "invite": place["invite"]}

    def take(self, player: dict, tid: str, entry: int, member: int, body: Any) -> dict:
        """Another player takes member place `member` with the registrant's invite: that member's seats are theirs."""
        doc, version, e, place = self._member_place(tid, entry, member)
        code = (body if isinstance(body, dict) else {}).get("invite")
        if place["invite"] is None or not isinstance(code, str) or not secrets.compare_digest(code, place["invite"]):
            raise ApiError(403, "bad-invite", "This is not the invite the entry's registrant made for this place.")
        if holds_place(doc["entries"], player["id"]):
            raise ApiError(409, "already-entered", "You already hold a place in this tournament.")
        place.update(player=player["id"], invite=None)
        self._save(doc, version)
        return doc

    def close(self, player: dict, tid: str) -> dict:
        doc, version = self._organised(player, tid, "registering")
        per_table = shape(make_rules_of(doc))[0]
        try:
            max_rounds(doc["export"]["tournament"]["format"], len(doc["entries"]), per_table)
        except PairingError as exc:
            raise ApiError(409, "too-few-entries", str(exc)) from None
        if doc["export"]["tournament"]["rounds"] > max_rounds(
            doc["export"]["tournament"]["format"], len(doc["entries"]), per_table
        ):
            raise ApiError(409, "too-few-entries", "Too few entries for the rounds committed to.")
        listed = [
            {k: e[k] for k in ("entry", "name", "members", "bot", "client_seed_commitment")} for e in doc["entries"]
        ]
        record = header("registration", tid, entries=listed, closed=iso(self.now()))
        doc["export"].update(registration=record, registration_signature=self._sign(record))
        doc["status"] = "revealing"
        self._save(doc, version)
        return doc

    def reveal(self, player: dict, tid: str, entry: int, body: Any) -> dict:
        doc, version = self.load(tid)
        if doc["status"] != "revealing":
            raise ApiError(409, "not-revealing", "Reveals are taken once registration has closed, before the start.")
        if not 0 <= entry < len(doc["entries"]) or doc["entries"][entry]["player"] != player["id"]:
            raise ApiError(403, "not-your-entry", "Only the player who registered an entry reveals its seed.")
        e = doc["entries"][entry]
        body = body if isinstance(body, dict) else {}
        try:
            seed, nonce = validate_client_seed(body.get("client_seed")), validate_nonce(body.get("nonce"))
        except ValueError as exc:
            raise _bad("bad-reveal", str(exc)) from None
        if e["client_seed_commitment"] is None or entry_commitment(tid, seed, nonce) != e["client_seed_commitment"]:
            raise _bad("bad-reveal", "This seed and nonce do not open the entry's commitment.")
        doc["reveals"][str(entry)] = {"client_seed": seed, "nonce": nonce}
        self._save(doc, version)
        return doc

    def start(self, player: dict, tid: str) -> dict:
        doc, version = self._organised(player, tid, "revealing")
        missing = [
            e["entry"]
            for e in doc["entries"]
            if e["client_seed_commitment"] is not None and str(e["entry"]) not in doc["reveals"]
        ]
        if missing:
            raise ApiError(409, "reveals-missing", f"Entries {missing} have not revealed their seeds yet.")
        seeds = [
            {"entry": e["entry"], **doc["reveals"].get(str(e["entry"]), {"client_seed": None, "nonce": None})}
            for e in doc["entries"]
        ]
        record = header("tournament-start", tid, seeds=seeds, started=iso(self.now()))
        doc["export"].update(start=record, start_signature=self._sign(record), rounds=[])
        doc["status"], doc["played"] = "playing", []
        # live tables when some entry is a person: a round of bots alone is the policies' either way
        doc["live"] = doc.get("play") == "live" and any(not e["bot"] for e in doc["entries"])
        doc["current"] = None
        self._save(doc, version)
        self.store.index_set(PLAYING, tid, self.now())  # the sweeper plays it, a round a pass
        return doc

    def advance(self, tid: str) -> dict:
        """Play the tournament's next round (the sweeper's step); after the last, sign the end, publish the
        ratings and the log's ending leaf. Two sweepers racing: the one that saves first wins, the other's round
        is dropped unsaved (the store's version check)."""
        doc, version = self.load(tid)
        if doc["status"] != "playing":
            self.store.index_remove(PLAYING, tid)
            return doc
        seed = bytes.fromhex(self.store.get_secret(tid))
        key = self.keyring.private_for(doc["export"]["tournament"]["key"])
        if doc.get("live"):
            doc, version = self._live_round(doc, version, key, seed)
            if doc.get("current") is not None:  # its tables are still being played
                self.store.index_set(PLAYING, tid, self.now() + CHECK_EVERY)
                return doc
        else:
            play_round(key, seed, doc["export"], doc["played"])
        doc["ratings"] = ratings(doc["export"])
        over = len(doc["export"]["rounds"]) == doc["export"]["tournament"]["rounds"]
        if over:
            finish(key, seed, doc["export"], doc["played"], ended=iso(self.now()))
            doc["status"] = "over"
            # the ending leaf first (compare-and-append: one racer writes it), so that no export is ever
            # served as over before the log holds its ending
            self._log(
                tid,
                1,
                {"end": doc["export"]["end"], "end_signature": doc["export"]["end_signature"]},
                ending_leaf(doc["export"]),
            )
        self._save(doc, version)
        if over:
            self.store.index_remove(PLAYING, tid)
        return doc

    def _live_round(self, doc: dict, version: int, key: Any, seed: bytes) -> tuple[dict, int]:
        """The live round: paired and its round record signed (saved before any table is made, so racing
        sweepers agree on it), its tables made, and once every one has ended, closed: its result signed (the
        board seed revealed) and appended to the export (doc["current"] None again)."""
        if doc.get("current") is None:
            if len(doc["export"]["rounds"]) >= doc["export"]["tournament"]["rounds"]:
                return doc, version  # every round played (an earlier pass stopped before its end was saved)
            doc["current"] = open_round(key, seed, doc["export"], doc["played"])
            self._save(doc, version)
            doc, version = self.load(doc["id"])
        opened = doc["current"]
        rules = make_rules_of(doc)
        for table in opened["tables"]:
            open_table(self.games, self.store, self.now, doc, rules, opened, table)
        transcripts = ended_games(self.games, self.store, opened)
        if transcripts is not None:
            close_round(key, seed, doc["export"], doc["played"], opened, transcripts)
            doc["current"] = None
        return doc, version

    def me(self, player: dict, tid: str) -> dict:
        """The caller's entries and seats (docs/api.md, "Tournaments"): its table in the round being played
        (`next_table`, null between rounds, on a bye or once over) and every table it has had."""
        doc, _ = self.load(tid)
        mine = [e["entry"] for e in doc["entries"] if not e["bot"] and holds_place([e], player["id"])]
        tables = []
        for rnd in doc["export"].get("rounds", []):
            opened = {"round": rnd["round"], "tables": _seated_tables(rnd["round"], doc)}
            tables += [dict(s, status="over") for s in seat_of_player(opened, doc["entries"], player["id"])]
        next_table = None
        if doc.get("current") is not None:
            for s in seat_of_player(doc["current"], doc["entries"], player["id"]):
                status = (self.store.get_doc("table", s["game_id"])[0] or {}).get("status", "opening")
                tables.append(dict(s, status=status))
                next_table = next_table or (dict(s, status=status) if status != "over" else None)
        for t in tables:
            t["links"] = {"table": f"/table/{t['game_id']}", "game": f"/games/{t['game_id']}"}
        return {"id": doc["id"], "status": doc["status"], "entries": mine, "next_table": next_table, "tables": tables}

    def sweep(self, limit: int = 10) -> int:
        """Advance the playing tournaments due now by one round each (at most `limit`); returns how many."""
        due = self.store.index_range(PLAYING, max_score=self.now(), limit=limit)
        for tid, _ in due:
            try:
                self.advance(tid)
            except ApiError as exc:
                if exc.code == "tournament-not-found":
                    self.store.index_remove(PLAYING, tid)
                # else another process saved first: the next pass plays the next round
            except Exception as exc:  # one tournament that cannot go on must not stop the others behind it
                if store_unavailable(exc):
                    raise
                log.exception("tournament round failed", extra={"tournament": tid})
                self.store.index_set(PLAYING, tid, self.now() + RETRY_AFTER_FAILURE)
        return len(due)

    def _organised(self, player: dict, tid: str, status: str) -> tuple[dict, int]:
        doc, version = self.load(tid)
        if doc["organiser"] != player["id"]:
            raise ApiError(403, "not-organiser", "Only the tournament's organiser may do this.")
        if doc["status"] != status:
            raise ApiError(409, "tournament-wrong-state", f"The tournament is {doc['status']}, not {status}.")
        return doc, version

    # --- what anyone may see -------------------------------------------------------------------------
    def public(self, doc: dict) -> dict:
        ex = doc["export"]
        rounds = [
            {
                "round": r["round"]["round"],
                "tables": r["round"]["tables"],
                "byes": r["round"]["byes"],
                "board_seed": r["result"]["board_seed"],
                "standings": r["result"]["standings"],
            }
            for r in ex.get("rounds", [])
        ]
        t = ex["tournament"]
        return {
            "id": doc["id"],
            "status": doc["status"],
            "round": len(rounds),
            "format": t["format"],
            "rules": t["rules"],
            "rounds": t["rounds"],
            "commitment": t["commitment"],
            "entries": [
                {k: e[k] for k in ("entry", "name", "members", "bot", "client_seed_commitment")} for e in doc["entries"]
            ],
            "played": rounds,
            "standings": rounds[-1]["standings"] if rounds else [],
            "ratings": doc.get("ratings", {}),
            "entry_size": shape(make_rules_of(doc))[1],
            "play": doc.get("play", "policies"),
            "clocks": doc.get("clocks", {}),
            "current": public_round(doc["current"], self.store) if doc.get("current") else None,
        }


def _seated_tables(record: dict, doc: dict) -> list[dict]:
    """A played round's tables with their seats (as open_round gives them), from its round record."""
    rules = make_rules_of(doc)
    return [{**t, "seats": table_seats(rules, doc["entries"], t["entries"])} for t in record["tables"]]


def make_rules_of(doc: dict):
    r = doc["export"]["tournament"]["rules"]
    return make_rules(r["id"], r["settings"], r["players"])


def ratings(export: dict) -> dict[str, dict[str, float]]:
    """Each member's openskill rating (Plackett-Luce, the library's default model), updated game by game in
    round and table order; a game's sides are ranked by their final scores (lowest first for a rule set that
    counts down), a tie sharing a rank."""
    model = PlackettLuce()
    people: dict[str, Any] = {}
    entries = export["registration"]["entries"]
    lower = export["tournament"]["rules"]["id"] in LOWER_IS_BETTER
    for rnd in export.get("rounds", []):
        for table, game in zip(rnd["round"]["tables"], rnd["games"], strict=False):
            result = (game.get("end") or {}).get("result") or {}
            scores = result.get("scores")
            if not scores:
                continue
            teams = [
                [people.setdefault(m, model.rating(name=m)) for m in entries[e]["members"]] for e in table["entries"]
            ]
            ranks = [(s if lower else -s) for s in scores[: len(teams)]]
            for team in model.rate(teams, ranks=ranks):
                for r in team:
                    people[str(r.name)] = r  # the name it was made with
    return {name: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()} for name, r in sorted(people.items())}
