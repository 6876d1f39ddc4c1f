"""Tables: create, read, join, watch, start, reveal, leave, cancel.

Every answer is the table as anyone may see it, plus `you` when the request carries a token: the caller's seat
(or null), whether they host it and whether they watch it, which a client needs to offer the right buttons."""

from __future__ import annotations

from flask import Blueprint

from fairdeal.service import again, player_games, standin
from fairdeal.service.api.common import json_body, player, player_ref, svc
from fairdeal.service.idempotent import Once, request_key
from fairdeal.service.tables import new_id
from fairdeal.service.translog import add_log_member

bp = Blueprint("tables", __name__)


def _seat(table: dict, player_id: str) -> int | None:
    return next((i for i, s in enumerate(table["seats"]) if s["player"] == player_id), None)


def _answer(table: dict, player_id: str | None, log: bool = False) -> dict:
    out = svc().tables.public(table)
    if log:  # the commitment's place in the transparency log (docs/log.md)
        add_log_member(svc().translog, out, table["id"], table.get("protocol"), table["status"] == "over")
    if player_id is not None:
        out["you"] = {
            "seat": _seat(table, player_id),
            "host": table["host"] == player_id,
            "watching": player_id in table["spectators"],
        }
    return out


def _once(p: dict, what: str, body) -> Once | None:
    """The request's Idempotency-Key, scoped to the player (idempotent.py); None without one."""
    key, s = request_key(), svc()
    return (
        None if key is None else Once(s.store, "player:" + p["id"], what, key, body, s.tables.now(), s.config.idem_ttl)
    )


def _table_exists(answer: dict) -> bool:
    return svc().store.get_doc("table", answer["table"])[0] is not None


@bp.post("/tables")
def create_table():
    """With an Idempotency-Key a retry answers the table the first request made (200), never a second one."""
    t = svc().tables
    p = player()
    body = json_body(required=False)
    once = _once(p, "create-table", body)
    if once is None:
        table = t.create(p, body)
    else:
        answer, replayed = once.run({"table": new_id()}, _table_exists, lambda fresh: t.create(p, body, fresh["table"]))
        table, _ = t.load(answer["table"])
        if replayed:
            return _answer(table, p["id"]), 200
    if _seat(table, p["id"]) is not None:
        player_games.note_seat(svc().store, p["id"], table["id"], t.now())
    return _answer(table, p["id"]), 201


@bp.get("/tables/<table_id>")
def get_table(table_id):
    p = player_ref(required=False)
    table = svc().games.touch(table_id).loaded_table
    return _answer(table, p["id"] if p else None, log=True)


@bp.post("/tables/<table_id>/join")
def join(table_id):
    """With an Idempotency-Key a retry of a join that took its seat answers the table with that seat (200)
    instead of 409 already-seated."""
    t = svc().tables
    p = player()
    body = json_body(required=False)
    current, _ = t.load(table_id)
    if current["status"] == "playing" and _seat(current, p["id"]) is not None:
        return _answer(
            standin.come_back(svc().games, p, table_id), p["id"]
        )  # a seated player joins again: it comes back
    once = _once(p, "join:" + table_id, body)
    if once is None:
        table = t.join(p, table_id, body)
    else:

        def seated(answer: dict) -> bool:
            table, _ = t.load(answer["table"])
            return _seat(table, p["id"]) is not None

        once.run({"table": table_id}, seated, lambda fresh: t.join(p, table_id, body))
        table, _ = t.load(table_id)
    player_games.note_seat(svc().store, p["id"], table_id, t.now())
    return _answer(table, p["id"])


@bp.post("/tables/<table_id>/watch")
def watch(table_id):
    p = player()
    return _answer(svc().tables.watch(p, table_id), p["id"])


@bp.post("/tables/<table_id>/start")
def start(table_id):
    p = player()
    return _answer(svc().tables.start(p, table_id), p["id"])


@bp.post("/tables/<table_id>/reveal")
def reveal(table_id):
    p = player()
    return _answer(svc().tables.reveal(p, table_id, json_body()), p["id"])


@bp.post("/tables/<table_id>/leave")
def leave(table_id):
    t = svc().tables
    p = player()
    table = t.leave(p, table_id, json_body(required=False))
    if table["status"] == "open" and _seat(table, p["id"]) is None:
        player_games.forget_seat(svc().store, p["id"], table_id)  # a seat given back before the start
    return _answer(table, p["id"])


@bp.post("/tables/<table_id>/again")
def play_again(table_id):
    """The host of a finished table opens the next game with the same seats (service/again.py)."""
    t = svc().tables
    p = player()
    table = again.play_again(t, p, table_id)
    for s in table["seats"]:
        if s["player"]:
            player_games.note_seat(svc().store, s["player"], table["id"], t.now())
    return _answer(table, p["id"]), 201


@bp.post("/tables/<table_id>/return")
def come_back(table_id):
    """A seated player takes its seat back: the table's bot stops standing in (docs/api.md)."""
    p = player()
    return _answer(standin.come_back(svc().games, p, table_id), p["id"])


@bp.post("/tables/<table_id>/cancel")
def cancel(table_id):
    p = player()
    return _answer(svc().tables.cancel(p, table_id), p["id"])
