"""Helpers shared by the blueprints: the service objects, the door every request body passes (media type,
nesting, text), the JSON body, ids in paths, the current player."""

from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any

from flask import current_app, request

from fairdeal.service.auth import current_player, current_player_id
from fairdeal.service.errors import ApiError

MAX_NESTING = 32  # our bodies nest 3 deep; a parser must never recurse on 5000
# tables.new_id(): 8 random bytes in hex (a test holds them together); or a tournament table's game id,
# <tournament id>-r<round>-t<table> (docs/tournaments.md, "Tables")
ID = re.compile(r"(?:[0-9a-f]{16}|T-[0-9a-f]{16}-r[1-9][0-9]?-t(?:0|[1-9][0-9]?))")
ID_ARGS = ("game_id", "table_id")
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"?', re.S)
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_DEPTH_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


def svc():
    return current_app.extensions["fairdeal"]


# ---------------------------------------------------------------------------- the door
def nesting_depth(data: bytes) -> int:
    """How deep the arrays and objects of a JSON text nest (brackets inside strings do not count), without
    parsing it: a parser recursing on "[" * 5000 would hit Python's recursion limit."""
    brackets = _STRING.sub(b"", data).translate(None, _NOT_BRACKETS)
    return max(accumulate(_DEPTH_STEP[c] for c in brackets), default=0)


def is_json_type(mimetype: str) -> bool:
    return mimetype == "application/json" or (mimetype.startswith("application/") and mimetype.endswith("+json"))


def check_body() -> None:
    """Before any API view: a body is JSON or nothing. Form and multipart bodies (curl -d without a JSON
    Content-Type sends a form) or any other type are refused with 415, never silently ignored; a body with no
    Content-Type at all is read as JSON."""
    if not request.content_length and "chunked" not in request.headers.get("Transfer-Encoding", "").lower():
        return
    mimetype = request.mimetype
    charset = request.mimetype_params.get("charset", "utf-8").lower()
    utf8 = charset in ("utf-8", "utf8")
    if (mimetype and not is_json_type(mimetype)) or not utf8:
        raise ApiError(
            415,
            "unsupported-media-type",
            f"The body must be JSON in UTF-8 (Content-Type: application/json, or curl --json), "
            f"not {mimetype or 'JSON'!r}" + ("." if utf8 else f" in {charset}."),
        )


def check_ids(endpoint: str | None, values: dict | None) -> None:
    """Ids in a path are ours or nothing: a stranger's id never reaches the store (on Redis Cluster an id
    with braces would split a game's keys across slots)."""
    for name in ID_ARGS:
        value = (values or {}).get(name)
        if value is not None and not ID.fullmatch(value):
            raise ApiError(
                404, "table-not-found", "There is no table or game with this id (an id is 16 hexadecimal digits)."
            )


def _reject_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError("a number too large")
    return value


def lone_surrogate(value: Any) -> bool:
    """Whether any text in a parsed body (keys too) holds half of a UTF-16 pair, which is not text: it could
    not be written as UTF-8 into a record, and the game holding it would be unreadable."""
    if isinstance(value, str):
        return _LONE_SURROGATE.search(value) is not None
    if isinstance(value, dict):
        return any(lone_surrogate(k) or lone_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(lone_surrogate(v) for v in value)
    return False


def parse_json(data: bytes) -> Any:
    """A request body as JSON, or a 400 that says what is wrong. I-JSON (RFC 7493) only: UTF-8, finite
    numbers, no lone surrogates, and nesting at most MAX_NESTING deep."""
    if data.count(b"[") + data.count(b"{") > MAX_NESTING and nesting_depth(data) > MAX_NESTING:
        raise ApiError(400, "malformed-json", f"The body nests deeper than {MAX_NESTING} levels.")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ApiError(400, "malformed-json", "The body is not UTF-8 text.") from None
    try:
        body = json.loads(text, parse_constant=_reject_constant, parse_float=_finite_float)
    except (ValueError, RecursionError):
        raise ApiError(400, "malformed-json", "The body is not valid JSON.") from None
    if lone_surrogate(body):
        raise ApiError(
            400, "malformed-json", "The body holds a lone UTF-16 surrogate (such as \\ud800), which is not text."
        )
    return body


def json_body(required: bool = True) -> Any:
    data = request.get_data(cache=True)
    if not data:
        if required:
            raise ApiError(400, "bad-request", "This request needs a JSON object as its body.")
        return {}
    body = parse_json(data)
    if not isinstance(body, dict):
        raise ApiError(400, "bad-request", "The body is a JSON object.")
    return body


# ---------------------------------------------------------------------------- query parameters
_INT = re.compile(r"-?(0|[1-9][0-9]*)")
_NUMBER = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?")


MAX_SAFE_INT = 2**53 - 1  # JSON's exact integers


def int_arg(name: str, default: int, low: int = 0, high: int = MAX_SAFE_INT) -> int:
    """An integer query parameter from `low` to `high`, written as JSON writes one (not " 1", "1_000", "²")."""
    text = request.args.get(name)
    if text is None:
        return default
    if not _INT.fullmatch(text) or len(text) > 20 or not low <= int(text) <= high:
        raise ApiError(400, "bad-request", f"{name!r} is a whole number from {low} to {high}, not {text[:40]!r}.")
    return int(text)


def number_arg(name: str, default: float) -> float:
    """A finite number query parameter, written as JSON writes one (not "nan", "inf", "1_0")."""
    text = request.args.get(name)
    if text is None:
        return default
    if not _NUMBER.fullmatch(text) or len(text) > 40 or float(text) in (float("inf"), float("-inf")):
        raise ApiError(400, "bad-request", f"{name!r} is a number, not {text[:40]!r}.")
    return float(text)


# ---------------------------------------------------------------------------- the caller
def player(required: bool = True):
    return current_player(svc().store, required)


def player_ref(required: bool = True) -> dict | None:
    """{"id": ...} of the caller, without reading the player document (enough to find a seat)."""
    pid = current_player_id(svc().store, required)
    return {"id": pid} if pid else None
