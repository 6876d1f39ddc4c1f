"""Helpers shared by the blueprints: the service objects, the JSON body, the current player."""
from __future__ import annotations

from typing import Any

from flask import current_app, request

from fairdeal.service.auth import current_player, current_player_id
from fairdeal.service.errors import ApiError


def svc():
    return current_app.extensions["fairdeal"]


def json_body(required: bool = True) -> Any:
    if not request.data:
        if required:
            raise ApiError(400, "bad-request", "This request needs a JSON object as its body.")
        return {}
    body = request.get_json(force=True, silent=True)  # JSON whatever the Content-Type says
    if body is None:
        raise ApiError(400, "malformed-json", "The body is not valid JSON.")
    if not isinstance(body, dict):
        raise ApiError(400, "bad-request", "The body is a JSON object.")
    return body


def player(required: bool = True):
    return current_player(svc().store, required)


def player_ref(required: bool = True) -> dict | None:
    """{"id": ...} of the caller, without reading the player document (enough to find a seat)."""
    pid = current_player_id(svc().store, required)
    return {"id": pid} if pid else None
