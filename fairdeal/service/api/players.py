"""Players: identities with bearer tokens; saved table preferences per rule set."""
from __future__ import annotations

import time

from flask import Blueprint, request

from fairdeal.service import player_games
from fairdeal.service.api.common import json_body, player, player_ref, svc
from fairdeal.service.auth import new_token, token_hash
from fairdeal.service.errors import ApiError
from fairdeal.service.tables import new_id

bp = Blueprint("players", __name__)


@bp.post("/players")
def create_player():
    body = json_body(required=False)
    name = body.get("name", "Player")
    if not isinstance(name, str) or not 1 <= len(name.strip()) <= 40:
        raise ApiError(422, "bad-name", "A player's name is 1 to 40 characters.")
    store = svc().store
    pid, token = new_id(), new_token()
    store.put_doc("player", pid, {"id": pid, "name": name.strip(), "created": time.time(), "prefs": {}}, 0)
    store.put_doc("token", token_hash(token), {"player": pid}, 0)
    return {"id": pid, "name": name.strip(), "token": token}, 201


@bp.get("/players/me")
def me():
    p = player()
    return {"id": p["id"], "name": p["name"], "preferences": p.get("prefs", {})}


@bp.get("/players/me/games")
def my_games():
    """The tables the caller holds a seat at, newest first: open, playing and over (with the transcript link)."""
    me_ = player_ref()
    try:
        limit = int(request.args.get("limit", "50"))
    except ValueError:
        raise ApiError(400, "bad-request", "'limit' is a whole number of games.") from None
    return {"games": player_games.games_of(svc().store, me_["id"], limit)}


@bp.get("/players/me/preferences/<rule_set>")
def get_prefs(rule_set):
    p = player()
    svc().tables.rule_set(rule_set)
    return {"rule_set": rule_set, "preferences": p.get("prefs", {}).get(rule_set)}


@bp.put("/players/me/preferences/<rule_set>")
def put_prefs(rule_set):
    p = player()
    prefs = svc().tables.set_prefs(p, rule_set, json_body())
    return {"rule_set": rule_set, "preferences": prefs}
