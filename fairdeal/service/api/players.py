"""Players: identities with bearer tokens; saved table preferences per rule set."""

from __future__ import annotations

import re

from flask import Blueprint

from fairdeal.service import player_games
from fairdeal.service.api.common import int_arg, json_body, player, player_ref, svc
from fairdeal.service.auth import issue_token, new_token, token_doc, token_hash
from fairdeal.service.errors import ApiError
from fairdeal.service.idempotent import Once, request_key
from fairdeal.service.isotime import iso
from fairdeal.service.ratelimits import client_address
from fairdeal.service.tables import new_id

bp = Blueprint("players", __name__)


# the same pattern as openapi.yaml's Name (a test holds them together): not only spaces, no control characters
# (a name is shown in other players' terminals: an escape sequence must never reach one)
NAME = re.compile(
    r"^[^\u0000-\u001F\u007F-\u009F]*[^\s\u0000-\u001F\u007F-\u009F\uFEFF]"
    r"[^\u0000-\u001F\u007F-\u009F]*$"
)
NAME_MAX = 40


@bp.post("/players")
def create_player():
    body = json_body(required=False)
    unknown = set(body) - {"name"}
    if unknown:
        raise ApiError(422, "unknown-field", f"A player has no field {sorted(unknown)[0]!r}; its one field is name.")
    name = body.get("name", "Player")
    if not isinstance(name, str) or not 1 <= len(name) <= NAME_MAX or not NAME.match(name):
        raise ApiError(
            422,
            "bad-name",
            f"A player's name is 1 to {NAME_MAX} characters, not only spaces, without control characters.",
        )
    s = svc()
    now = s.tables.now()
    key = request_key()
    if key is None:
        return token_answer(*_new_player(s, new_id(), name.strip(), now)), 201
    # a retry answers the same player, with a fresh token: a token is never stored, so the first one cannot be
    # shown again (it stays live; the key is scoped to the client's address, and should be as unguessable)
    once = Once(s.store, "address:" + client_address(), "create-player", key, body, now, s.config.idem_ttl)
    made = {}
    answer, replayed = once.run(
        {"player": new_id()},
        lambda a: s.store.get_doc("player", a["player"])[0] is not None,
        lambda fresh: made.update(out=_new_player(s, fresh["player"], name.strip(), now)),
    )
    if not replayed:
        return token_answer(*made["out"]), 201
    token, doc = issue_token(s.store, answer["player"], now, s.config.token_ttl)
    return token_answer(answer["player"], name.strip(), token, doc), 200


def _new_player(s, pid: str, name: str, now: float) -> tuple[str, str, str, dict]:
    token = new_token()
    h = token_hash(token)
    doc = token_doc(pid, now, s.config.token_ttl)
    s.store.put_doc("token", h, doc, 0)
    s.store.put_doc("player", pid, {"id": pid, "name": name, "created": now, "prefs": {}, "tokens": [h]}, 0)
    return pid, name, token, doc


def token_answer(pid: str, name: str, token: str, doc: dict) -> dict:
    """A player with a token: shown once, only its hash is kept."""
    return {"id": pid, "name": name, "token": token, "expires": iso(doc["expires"]) if doc["expires"] else None}


@bp.get("/players/me")
def me():
    p = player()
    return {"id": p["id"], "name": p["name"], "preferences": p.get("prefs", {})}


@bp.get("/players/me/games")
def my_games():
    """The tables the caller holds a seat at, newest first: open, playing and over (with the transcript link)."""
    me_ = player_ref()
    limit = int_arg("limit", 50, 1, player_games.MAX_LIST)
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
