"""Play again with the same seats: the host of a finished table opens the next one — same rule set, settings,
size, clocks and leave rule — with every player of the last game already in their seat (bots become bots again
at the start). Each player still commits to a new client seed for the new game before its start (a seat without
a commitment gives none), and the host starts it as any table. The finished table names the next one
(`next`), so every page of it can follow. Asking again gives the same next table."""

from __future__ import annotations

from fairdeal.service.errors import ApiError


def play_again(tables, player: dict, table_id: str) -> dict:
    old, _ = tables.load(table_id)
    if old["host"] != player["id"]:
        raise ApiError(403, "not-host", "Only the table's host may open the next game.")
    if old["status"] != "over":
        raise ApiError(409, "table-not-over", "This table's game has not ended yet: play again once it is over.")
    if old.get("next"):
        return tables.load(old["next"])[0]
    host_seat = next((i for i, s in enumerate(old["seats"]) if s["player"] == player["id"]), None)
    new = tables.create(
        player,
        {
            "rule_set": old["rule_set"],
            "settings": old["settings"],
            "players": old["players"],
            "clocks": old["clocks"],
            "on_leave": old.get("on_leave", "stand-in"),
            "seat": host_seat,
        },
    )
    others = {i: s for i, s in enumerate(old["seats"]) if s["player"] and s["player"] != player["id"]}

    def seat_them(t: dict) -> None:
        for i, s in others.items():
            if t["seats"][i]["player"] is None:
                t["seats"][i].update(player=s["player"], name=s["name"])

    new = tables.update(new["id"], seat_them)

    def point(t: dict) -> None:
        t.setdefault("next", new["id"])

    old = tables.update(table_id, point)
    if old["next"] != new["id"]:  # another request opened the next table first: that one is the next
        tables.cancel(player, new["id"])
        return tables.load(old["next"])[0]
    return new
