"""The transparency log (docs/log.md): the latest signed tree head, inclusion proofs (by leaf index or by game),
consistency proofs between two sizes, and the leaves, paged. Anyone may read them: the log holds no secret."""
from __future__ import annotations

from flask import Blueprint

from fairdeal.service.api.common import int_arg, svc
from fairdeal.service.errors import ApiError

bp = Blueprint("log", __name__)

PAGE = 100        # leaves per page by default
PAGE_MAX = 1000


def _log():
    translog = svc().translog
    if translog is None:
        raise ApiError(404, "no-transparency-log", "This service runs without its transparency log "
                                                   "(FAIRDEAL_TRANSPARENCY_LOG=off).")
    return translog


def _required_int(name: str) -> int:
    value = int_arg(name, -1)
    if value < 0:
        raise ApiError(400, "bad-request", f"{name!r} is required: a whole number from 0.")
    return value


@bp.get("/log/head")
def head():
    return _log().latest_head()


@bp.get("/log/leaves/<index>/proof")
def inclusion(index):
    translog = _log()
    if not (index.isascii() and index.isdigit() and len(index) <= 16 and str(int(index)) == index):
        raise ApiError(400, "bad-request", f"A leaf index is a whole number from 0, not {index[:40]!r}.")
    size = int_arg("size", -1, low=1)
    return translog.inclusion(int(index), None if size < 0 else size)


@bp.get("/log/games/<game_id>")
def game(game_id):
    entries = _log().game_entries(game_id)
    if not entries:
        raise ApiError(404, "game-not-in-log", f"The transparency log has no leaf of game {game_id!r}.")
    return entries


@bp.get("/log/consistency")
def consistency():
    translog = _log()
    return translog.consistency(_required_int("first"), _required_int("second"))


@bp.get("/log/leaves")
def leaves():
    translog = _log()
    return translog.leaves(int_arg("start", 0), int_arg("limit", PAGE, low=1, high=PAGE_MAX))
