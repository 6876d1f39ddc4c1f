"""A tournament round's live tables (docs/tournaments.md, "Live tables"): each table of a round the service has
paired (core.tournament.play.open_round) becomes an ordinary service table and game, its commit carrying the
board member, its server seed the derived one, its cards from the round's board seed. A person's seat is theirs
(they play it through the ordinary game API, with the table's clocks, stood in for by the table's bot exactly as
at any table when away); a bot entry's seats are bots. The tournament closes the round when every table's game
has ended.

While the round is played a table is private to the players seated at it: every table of the round deals the
same packs, so a table's cards played (or its score sheet) would tell a player at another table what they hold.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from fairdeal.core import transcript as tr
from fairdeal.core.games.base import Rules
from fairdeal.service.catchup import board_seed_key
from fairdeal.service.errors import ApiError
from fairdeal.service.isotime import iso
from fairdeal.service.tables import empty_seat

log = logging.getLogger("fairdeal.tournaments")


def member_player(entry: dict, name: str) -> str | None:
    """The player who plays this member's seats: a person's entry's first member is its registrant's, another
    member the player's who took its place with the registrant's invite (docs/tournaments.md, "Partners"); None:
    nobody (a bot entry, or a place nobody took)."""
    if entry["bot"]:
        return None
    i = entry["members"].index(name)
    return entry["player"] if i == 0 else (entry.get("places") or {}).get(str(i), {}).get("player")


def holds_place(entries: list[dict], player_id: str, registrants: bool = True) -> bool:
    """Whether the player plays a member of one of these person's entries (with `registrants` False: a member
    place taken, not an entry registered)."""
    return any(member_player(e, m) == player_id for e in entries for m in e["members"][(0 if registrants else 1) :])


def table_seats(opened_table: dict, entries: list[dict]) -> list[dict]:
    """The table document's seats: a bot entry's seats are bots; a person's entry's member's seat is its
    player's (member_player); a member without one has no player of its own (`gone`: the table's bot stands in
    for it from the first move, marked, while the player is there: docs/tournaments.md)."""
    seats = []
    for s in opened_table["seats"]:
        entry = entries[s["entry"]]
        seat = {**empty_seat(), "name": s["name"], "bot": entry["bot"]}
        if not entry["bot"]:
            who = member_player(entry, s["name"])
            if who is not None:
                seat["player"] = who
            else:
                seat["gone"] = True
        seats.append(seat)
    return seats


def open_table(games, store, now, doc: dict, rules: Rules, opened: dict, opened_table: dict) -> None:
    """Make one table of the opened round a live table (harmless to repeat: a table already made is left)."""
    gid = opened_table["game_id"]
    if store.get_doc("table", gid)[0] is not None:
        return
    store.put_secret(board_seed_key(gid), opened["board_seed"])
    existing = store.records(gid, 0)
    if existing:  # an earlier attempt wrote the commit and stopped before the table document
        commit = tr_entry_commit(existing[0])
    else:
        commit = games.appender.append_commit(
            gid, rules, seed=bytes.fromhex(opened_table["server_seed"]), board=opened_table["board"]
        )
    at = iso(now())
    table = {
        "id": gid,
        "protocol": commit["protocol"],
        "host": doc["organiser"],
        "host_name": "the organiser",
        "rule_set": rules.id,
        "players": rules.players,
        "settings": rules.settings,
        "clocks": doc["clocks"],
        "status": "playing",
        "on_leave": "stand-in",
        "created": commit["created"],
        "seated": at,
        "reveal_deadline": None,
        "started": at,
        "ended": None,
        "end_reason": None,
        "seats": table_seats(opened_table, doc["entries"]),
        "spectators": [],
        "commitment": commit["commitment"],
        "key": commit["key"],
        "tournament": {"id": doc["id"], "round": opened["round"]["round"], "table": opened_table["table"]},
    }
    if store.put_doc("table", gid, table, 0):
        log.info("tournament table opened", extra={"fields": {"game": gid, "tournament": doc["id"]}})
    games.touch(gid)  # the seating and start records, and the bots' first moves


def tr_entry_commit(text: str) -> dict:
    return json.loads(text)["commit"]


def ended_games(games, store, opened: dict) -> list[dict] | None:
    """The transcripts of the opened round's tables, in table order, once every one has ended (else None)."""
    out = []
    for table in opened["tables"]:
        doc, _ = store.get_doc("table", table["game_id"])
        if doc is None or doc["status"] != "over":
            return None
        game = games.get(table["game_id"])
        if not game.ended:
            return None
        out.append(tr.public_view(game.transcript))
    return out


def seat_of_player(opened: dict, entries: list[dict], player_id: str) -> list[dict]:
    """The opened round's seats held by this player: {"round", "table", "game_id", "seat", "entry"}."""
    out = []
    for table in opened["tables"]:
        for s in table["seats"]:
            if member_player(entries[s["entry"]], s["name"]) == player_id:
                out.append(
                    {
                        "round": opened["round"]["round"],
                        "table": table["table"],
                        "game_id": table["game_id"],
                        "seat": s["seat"],
                        "entry": s["entry"],
                    }
                )
    return out


def private_refusal(store, game_id: str, player_id: str | None) -> ApiError | None:
    """A refusal for anyone but its seated players while a tournament table's round is played (None: allowed)."""
    table, _ = store.get_doc("table", game_id)
    mark = (table or {}).get("tournament")
    if mark is None:
        return None
    if player_id is not None and any(s["player"] == player_id for s in table["seats"]):
        return None
    tdoc, _ = store.get_doc("tournament", mark["id"])
    current = (tdoc or {}).get("current")
    if current is None or current["round"]["round"] != mark["round"]:
        return None  # the round has ended: its tables are public, as every game is once over
    return ApiError(
        403,
        "tournament-table-private",
        "This is a table of a tournament round still being played: every table of the round deals the same "
        "cards, so only its seated players see it until the round ends.",
    )


def public_round(opened: dict, store) -> dict[str, Any]:
    """The round being played, as anyone may see it: its signed round record's tables (no seed) and each
    table's status."""
    record = opened["round"]
    return {
        "round": record["round"],
        "board_commitment": record["board_commitment"],
        "byes": record["byes"],
        "tables": [
            {**t, "status": (store.get_doc("table", t["game_id"])[0] or {}).get("status", "opening")}
            for t in record["tables"]
        ],
    }
