"""The server's public signing keys (old keys stay published after a rotation)."""

from __future__ import annotations

from flask import Blueprint

from fairdeal.service.api.common import svc

bp = Blueprint("keys", __name__)


@bp.get("/keys")
def public_keys():
    ring = svc().keyring
    return {"current": ring.current_key, "keys": ring.public_keys()}
