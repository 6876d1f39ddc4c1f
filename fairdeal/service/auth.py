"""Players' bearer tokens: opaque, random, stored only as their SHA-256, with an expiry, and ended on demand.

A token document ("token", sha256) says whose it is, when it was issued, when it expires (None: never) and,
once ended, when. A player's document lists the hashes of their live tokens (at most MAX_TOKENS; a new one
beyond that ends the oldest), so "end all my tokens" needs no scan.

Each process remembers a resolved token for at most CACHE_SECONDS: a token ended or expired is refused at
once by the process that ended it and within that time by every other. Ending a token also announces it on
the token's topic (token_topic, Store.announce), so every open wait of that token, on every instance, ends at
once (feed.TokenGuard); an open wait ends at its token's expiry by itself.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from collections.abc import Callable

from flask import current_app, request

from fairdeal.service.errors import ApiError

MAX_TOKENS = 20
CACHE_SECONDS = 1.0
CHALLENGE = 'Bearer realm="fairdeal"'


def new_token() -> str:
    return "fd_" + secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_topic(h: str) -> str:
    """What a wait answered for the token with hash `h` listens on, to hear that the token ended."""
    return "token:" + h


def bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


# ---------------------------------------------------------------------------- issuing and ending
def token_doc(player_id: str, now: float, ttl: float) -> dict:
    return {"player": player_id, "issued": now, "expires": now + ttl if ttl else None, "ended": None}


def update_player(store, player_id: str, change: Callable[[dict], object]):
    """Apply `change` to the player's document by compare-and-set (retrying lost races); its result."""
    for _ in range(20):
        doc, version = store.get_doc("player", player_id)
        if doc is None:
            raise ApiError(
                401,
                "unauthorized",
                "This token's player is not known to this service.",
                headers={"WWW-Authenticate": CHALLENGE + ', error="invalid_token"'},
            )
        out = change(doc)
        if store.put_doc("player", player_id, doc, version):
            return out
    raise ApiError(503, "busy", "Your player record is changing too fast; try again.", headers={"Retry-After": "1"})


def end_token(store, h: str, now: float) -> bool:
    """Mark one token ended (idempotent); whether it was live."""
    for _ in range(20):
        doc, version = store.get_doc("token", h)
        if doc is None or doc.get("ended"):
            forget(h)
            return False
        doc["ended"] = now
        if store.put_doc("token", h, doc, version):
            forget(h)
            store.announce(token_topic(h))  # every open wait of this token, on every instance, ends
            return True
    raise ApiError(503, "busy", "This token is changing too fast; try again.", headers={"Retry-After": "1"})


def issue_token(store, player_id: str, now: float, ttl: float) -> tuple[str, dict]:
    """A new token for an existing player, listed in their document (the oldest ended beyond MAX_TOKENS)."""
    token = new_token()
    h = token_hash(token)
    doc = token_doc(player_id, now, ttl)
    store.put_doc("token", h, doc, 0)

    def add(p: dict) -> list[str]:
        live = p.get("tokens", []) + [h]
        p["tokens"] = live[-MAX_TOKENS:]
        return live[:-MAX_TOKENS]

    for old in update_player(store, player_id, add):
        end_token(store, old, now)
    return token, doc


def end_all_tokens(store, player_id: str, now: float) -> int:
    """End every token the player holds; how many were live."""

    def take(p: dict) -> list[str]:
        hashes, p["tokens"] = p.get("tokens", []), []
        return hashes

    return sum(end_token(store, h, now) for h in update_player(store, player_id, take))


# ---------------------------------------------------------------------------- resolving
_cache_lock = threading.Lock()
_CACHE_MAX = 100_000


def _cache() -> dict[str, tuple[str, float | None, float]]:
    """This app's resolved tokens: hash -> (player id, expires, when cached)."""
    return current_app.extensions.setdefault("fairdeal.tokens", {})


def forget(h: str) -> None:
    _cache().pop(h, None)


def forget_all(app) -> None:
    app.extensions.get("fairdeal.tokens", {}).clear()


def _adopt(store, h: str, doc: dict, version: int, now: float, ttl: float) -> dict:
    """A token document from before tokens expired ({"player"} only): give it an expiry from now and list it in
    its player's document, so that ending all of the player's tokens ends it too."""
    new = token_doc(doc["player"], now, ttl)
    if store.put_doc("token", h, new, version):

        def add(p: dict) -> None:
            if h not in p.setdefault("tokens", []):
                p["tokens"].append(h)

        update_player(store, doc["player"], add)
        return new
    return store.get_doc("token", h)[0] or doc  # another request adopted it first


def _refuse(detail: str):
    raise ApiError(
        401,
        "unauthorized",
        detail,
        headers={"WWW-Authenticate": CHALLENGE + f', error="invalid_token", error_description="{detail}"'},
    )


def _services():
    return current_app.extensions["fairdeal"]


def resolve(store, token: str, now: float) -> str:
    """The id of the player whose live token this is; else 401 (429 when the address has sent too many bad
    tokens lately: a good token is never refused for that)."""
    return resolve_token(store, token, now)[0]


def resolve_token(store, token: str, now: float) -> tuple[str, str, float | None]:
    """(player id, token hash, expires) of a live token; else 401 (see resolve)."""
    h = token_hash(token)
    cache = _cache()
    hit = cache.get(h)
    if hit is not None and time.monotonic() - hit[2] < CACHE_SECONDS:
        pid, expires, _ = hit
        if expires is None or expires > now:
            return pid, h, expires
    limits = getattr(_services(), "limits", None)
    doc, version = store.get_doc("token", h)
    if doc is not None and "issued" not in doc:
        doc = _adopt(store, h, doc, version, now, _services().config.token_ttl)
    reason = None
    if doc is None:
        reason = "This token is not known to this service."
    elif doc.get("ended"):
        reason = "This token was ended; get a new one (POST /players/me/tokens with another live token)."
    elif doc.get("expires") is not None and doc["expires"] <= now:
        reason = "This token has expired; get a new one (POST /players/me/tokens) before the next expires."
    if reason is not None:
        forget(h)
        if limits is not None:
            limits.bad_token()  # 429 past the address's limit; the lookup was made either way
        _refuse(reason)
    with _cache_lock:
        if len(cache) >= _CACHE_MAX:
            cache.clear()
        cache[h] = (doc["player"], doc.get("expires"), time.monotonic())
    return doc["player"], h, doc.get("expires")


def token_live(store, h: str, now: float) -> str | None:
    """Why the token with hash `h` is no longer live (read from the store, not the cache); None: it is."""
    doc, _ = store.get_doc("token", h)
    if doc is None:
        return "This token is not known to this service."
    if doc.get("ended"):
        return "This token was ended; get a new one (POST /players/me/tokens with another live token)."
    if doc.get("expires") is not None and doc["expires"] <= now:
        return "This token has expired; get a new one (POST /players/me/tokens) before the next expires."
    return None


def current_token(store) -> tuple[str, str, float | None] | None:
    """(player id, token hash, expires) of the request's live token; None without a token."""
    token = bearer_token()
    return None if token is None else resolve_token(store, token, _services().tables.now())


def _missing():
    raise ApiError(
        401,
        "unauthorized",
        "This needs a player's token: send 'Authorization: Bearer <token>' (POST /players gives you one).",
        headers={"WWW-Authenticate": CHALLENGE},
    )


def current_player_id(store, required: bool = True) -> str | None:
    """The id of the player whose token the request carries (None without a token when not required)."""
    token = bearer_token()
    if token is None:
        if required:
            _missing()
        return None
    return resolve(store, token, _services().tables.now())


def current_player(store, required: bool = True) -> dict | None:
    """The player whose token the request carries; 401 when required and missing, or unknown, ended, expired."""
    pid = current_player_id(store, required)
    if pid is None:
        return None
    player, _ = store.get_doc("player", pid)
    if player is None:
        _refuse("This token's player is not known to this service.")
    return player
