"""A player's tokens: get a fresh one, end the one in hand, or end them all (a stolen token stops working)."""

from __future__ import annotations

from flask import Blueprint

from fairdeal.service import auth
from fairdeal.service.api.common import json_body, player, svc
from fairdeal.service.api.players import token_answer
from fairdeal.service.errors import ApiError

bp = Blueprint("tokens", __name__)


def no_fields(what: str) -> None:
    """These requests take no body, or an empty object: anything else is refused before anything changes (a
    malformed body once revoked every token anyway)."""
    unknown = set(json_body(required=False))
    if unknown:
        raise ApiError(422, "unknown-field", f"{what} takes no field; {sorted(unknown)[0]!r} is not one.")


@bp.post("/players/me/tokens")
def new_token():
    """Another token for the caller (e.g. before this one expires); the others stay live."""
    no_fields("A new token")
    p, s = player(), svc()
    token, doc = auth.issue_token(s.store, p["id"], s.tables.now(), s.config.token_ttl)
    return token_answer(p["id"], p["name"], token, doc), 201


@bp.delete("/players/me/token")
def end_this_token():
    """End the token this request carries (log out)."""
    player()
    s = svc()
    auth.end_token(s.store, auth.token_hash(auth.bearer_token() or ""), s.tables.now())  # player() found it
    return "", 204


@bp.post("/players/me/tokens/revoke")
def end_every_token():
    """End every token of the caller, this one included, and answer with a fresh one: whoever holds a copy
    of an old token is out."""
    no_fields("Revoking")
    p, s = player(), svc()
    now = s.tables.now()
    ended = auth.end_all_tokens(s.store, p["id"], now)
    token, doc = auth.issue_token(s.store, p["id"], now, s.config.token_ttl)
    return dict(token_answer(p["id"], p["name"], token, doc), ended=ended)
