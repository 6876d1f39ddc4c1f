"""The transparency log (docs/log.md): the latest signed tree head, inclusion proofs (by leaf index or by game),
consistency proofs between two sizes, and the leaves, paged. Anyone may read them: the log holds no secret."""

from __future__ import annotations

from flask import Blueprint, Response, request

from fairdeal.service import tiles
from fairdeal.service.api.common import int_arg, svc
from fairdeal.service.errors import ApiError

bp = Blueprint("log", __name__)

PAGE = 100  # leaves per page by default
PAGE_MAX = 1000
COSIGNATURE_MAX = 64 * 1024
TEXT_BODIES = ("log.cosign",)  # endpoints whose body is a text (a signed note), not JSON
IMMUTABLE = "public, max-age=31536000, immutable"


def _log():
    translog = svc().translog
    if translog is None:
        raise ApiError(
            404,
            "no-transparency-log",
            "This service runs without its transparency log (FAIRDEAL_TRANSPARENCY_LOG=off).",
        )
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


@bp.get("/log/checkpoint")
def checkpoint():
    """The latest signed tree head as a C2SP checkpoint (a signed note), with the witnesses' cosignatures."""
    text = _log().checkpoints.latest()
    return Response(text, content_type="text/plain; charset=utf-8", headers={"Cache-Control": "max-age=5"})


@bp.get("/log/tile/<path:tile>")
def tile(tile):
    translog = _log()
    level, n, width = tiles.parse_tile_path(tile)
    data = tiles.entry_bundle(translog, n, width) if level is None else tiles.tile_hashes(translog, level, n, width)
    return Response(data, content_type="application/octet-stream", headers={"Cache-Control": IMMUTABLE})


@bp.post("/log/cosignatures")
def cosign():
    """A checkpoint of this log cosigned by witnesses (text/plain, a signed note): the known cosignatures kept."""
    translog = _log()
    charset = request.mimetype_params.get("charset", "utf-8").lower()
    if request.mimetype not in ("text/plain", "") or charset not in ("utf-8", "utf8"):
        raise ApiError(
            415, "unsupported-media-type", "The body is a cosigned checkpoint: a signed note as text/plain in UTF-8."
        )
    body = request.get_data(cache=False)
    if len(body) > COSIGNATURE_MAX:
        raise ApiError(413, "body-too-large", f"A cosigned checkpoint is at most {COSIGNATURE_MAX} bytes.")
    return translog.checkpoints.add_cosignatures(body)
