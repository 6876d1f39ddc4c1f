"""Players' bearer tokens: opaque, random, stored only as their SHA-256."""
from __future__ import annotations

import hashlib
import secrets

from flask import request

from fairdeal.service.errors import ApiError


def new_token() -> str:
    return "fd_" + secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


_TOKEN_CACHE: dict[str, str] = {}   # token hash -> player id; a token never changes owner
_TOKEN_CACHE_MAX = 100_000


def current_player_id(store, required: bool = True) -> str | None:
    """The id of the player whose token the request carries (cached in process: one lookup per token)."""
    token = bearer_token()
    if token is None:
        return current_player(store, required) and None
    h = token_hash(token)
    pid = _TOKEN_CACHE.get(h)
    if pid is None:
        link, _ = store.get_doc("token", h)
        if link is None:
            raise ApiError(401, "unauthorized", "This token is not known to this service.")
        pid = link["player"]
        if len(_TOKEN_CACHE) >= _TOKEN_CACHE_MAX:
            _TOKEN_CACHE.clear()
        _TOKEN_CACHE[h] = pid
    return pid


def current_player(store, required: bool = True) -> dict | None:
    """The player whose token the request carries; 401 when required and missing or unknown."""
    token = bearer_token()
    if token is None:
        if required:
            raise ApiError(401, "unauthorized", "This needs a player's token: send 'Authorization: Bearer <token>' "
                                                "(POST /players gives you one).")
        return None
    link, _ = store.get_doc("token", token_hash(token))
    player = store.get_doc("player", link["player"])[0] if link else None
    if player is None:
        raise ApiError(401, "unauthorized", "This token is not known to this service.")
    return player
