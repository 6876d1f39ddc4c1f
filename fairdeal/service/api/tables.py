"""Tables: create, read, join, watch, start, reveal, leave, cancel."""
from __future__ import annotations

from flask import Blueprint

from fairdeal.service.api.common import json_body, player, svc

bp = Blueprint("tables", __name__)


@bp.post("/tables")
def create_table():
    t = svc().tables
    return t.public(t.create(player(), json_body(required=False))), 201


@bp.get("/tables/<table_id>")
def get_table(table_id):
    t = svc().tables
    table, _ = t.touch(table_id)
    return t.public(table)


@bp.post("/tables/<table_id>/join")
def join(table_id):
    t = svc().tables
    return t.public(t.join(player(), table_id, json_body(required=False)))


@bp.post("/tables/<table_id>/watch")
def watch(table_id):
    t = svc().tables
    return t.public(t.watch(player(), table_id))


@bp.post("/tables/<table_id>/start")
def start(table_id):
    t = svc().tables
    return t.public(t.start(player(), table_id))


@bp.post("/tables/<table_id>/reveal")
def reveal(table_id):
    t = svc().tables
    return t.public(t.reveal(player(), table_id, json_body()))


@bp.post("/tables/<table_id>/leave")
def leave(table_id):
    t = svc().tables
    return t.public(t.leave(player(), table_id))


@bp.post("/tables/<table_id>/cancel")
def cancel(table_id):
    t = svc().tables
    return t.public(t.cancel(player(), table_id))
