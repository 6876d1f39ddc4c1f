"""Each player's own tables: an index per player of the tables they sat down at, newest first, so a client can
list a player's games (running and finished, with their transcripts) without scanning every table."""

from __future__ import annotations

from typing import Any

MAX_LIST = 200


def index_name(player_id: str) -> str:
    return f"player-games:{player_id}"


def note_seat(store, player_id: str, table_id: str, when: float) -> None:
    """The player sat down at the table (by creating it with a seat, or joining it)."""
    store.index_set(index_name(player_id), table_id, -when)  # ascending scores: the newest first


def forget_seat(store, player_id: str, table_id: str) -> None:
    """The player gave the seat back before the game started: it is no game of theirs."""
    store.index_remove(index_name(player_id), table_id)


def games_of(store, player_id: str, limit: int = 50) -> list[dict[str, Any]]:
    """The tables the player holds a seat at, newest first, as the lobby describes a table plus their seat."""
    out = []
    for table_id, _ in store.index_range(index_name(player_id), limit=max(1, min(limit, MAX_LIST))):
        doc, _ = store.get_doc("table", table_id)
        if doc is None:
            continue
        seat = next((i for i, s in enumerate(doc["seats"]) if s["player"] == player_id), None)
        if seat is None:
            continue
        out.append(
            {
                "id": doc["id"],
                "rule_set": doc["rule_set"],
                "players": doc["players"],
                "status": doc["status"],
                "seat": seat,
                "host": doc["host_name"],
                "is_host": doc["host"] == player_id,
                "seats": [{"seat": i, "name": s["name"], "bot": s["bot"]} for i, s in enumerate(doc["seats"])],
                "created": doc["created"],
                "started": doc["started"],
                "ended": doc["ended"],
                "end_reason": doc["end_reason"],
                "commitment": doc["commitment"],
                "links": {
                    "table": f"/tables/{doc['id']}",
                    "game": f"/games/{doc['id']}",
                    "transcript": f"/games/{doc['id']}/transcript",
                    "page": f"/table/{doc['id']}",
                    "verify": f"/verify/{doc['id']}",
                },
            }
        )
    return out
