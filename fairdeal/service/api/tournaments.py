"""Tournaments: create, register, close, reveal, start, read, standings, export (docs/api.md, "Tournaments")."""

from __future__ import annotations

from flask import Blueprint

from fairdeal.service.api.common import json_body, player, svc
from fairdeal.service.errors import ApiError
from fairdeal.service.translog import add_log_member

bp = Blueprint("tournaments", __name__)


def _t():
    return svc().tournaments


@bp.post("/tournaments")
def create():
    return _t().public(_t().create(player(), json_body(required=False))), 201


@bp.get("/tournaments/<tournament_id>")
def read(tournament_id):
    return _t().public(_t().load(tournament_id)[0])


@bp.post("/tournaments/<tournament_id>/entries")
def register(tournament_id):
    doc = _t().register(player(), tournament_id, json_body())
    out = _t().public(doc)
    out["you"] = {"entry": len(doc["entries"]) - 1}
    return out, 201


@bp.post("/tournaments/<tournament_id>/close")
def close(tournament_id):
    return _t().public(_t().close(player(), tournament_id))


@bp.post("/tournaments/<tournament_id>/entries/<entry>/reveal")
def reveal(tournament_id, entry):
    return _t().public(_t().reveal(player(), tournament_id, _number(entry, "An entry"), json_body()))


def _number(text: str, what: str) -> int:
    if not text.isdigit() or len(text) > 4:
        raise ApiError(404, "not-found", f"{what} is named by its number, 0, 1, ...")
    return int(text)


@bp.post("/tournaments/<tournament_id>/entries/<entry>/members/<member>/invite")
def invite(tournament_id, entry, member):
    return _t().invite(player(), tournament_id, _number(entry, "An entry"), _number(member, "A member")), 201


@bp.post("/tournaments/<tournament_id>/entries/<entry>/members/<member>/take")
def take(tournament_id, entry, member):
    doc = _t().take(player(), tournament_id, _number(entry, "An entry"), _number(member, "A member"), json_body())
    return _t().public(doc)


@bp.post("/tournaments/<tournament_id>/start")
def start(tournament_id):
    return _t().public(_t().start(player(), tournament_id))


@bp.get("/tournaments/<tournament_id>/me")
def me(tournament_id):
    return _t().me(player(), tournament_id)


@bp.get("/tournaments/<tournament_id>/standings")
def standings(tournament_id):
    out = _t().public(_t().load(tournament_id)[0])
    return {"id": out["id"], "status": out["status"], "standings": out["standings"], "ratings": out["ratings"]}


@bp.get("/tournaments/<tournament_id>/export")
def export(tournament_id):
    doc = _t().load(tournament_id)[0]
    if doc["status"] != "over":
        raise ApiError(
            409,
            "tournament-not-over",
            "The export exists once the tournament has ended: until then its seed and the board seeds are secret.",
        )
    # the log member proves the commitment and ending leaves (docs/tournaments.md, "In the transparency log")
    return add_log_member(svc().translog, dict(doc["export"]), tournament_id, doc["export"]["protocol"])
