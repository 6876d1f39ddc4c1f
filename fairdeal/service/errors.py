"""RFC 9457 problem details: every error the API returns, with a stable `type`, a sentence, no stack trace."""
from __future__ import annotations

import logging
from typing import Any

from flask import Flask, Response, json
from werkzeug.exceptions import HTTPException

from fairdeal.verifier.games.base import BadSettings, GameError, GameOver, IllegalMove, MalformedMove, NotYourTurn

TYPE_PREFIX = "urn:fairdeal:problem:"
log = logging.getLogger("fairdeal.errors")

# engine errors -> HTTP status
GAME_STATUS = {BadSettings: 422, MalformedMove: 400, NotYourTurn: 409, GameOver: 409, IllegalMove: 422}


class ApiError(Exception):
    """A refusal: status, stable code (the problem type's last part), title, and the sentence (detail)."""

    def __init__(self, status: int, code: str, detail: str, title: str | None = None, **extra: Any):
        super().__init__(detail)
        self.status, self.code, self.detail = status, code, detail
        self.title = title or code.replace("-", " ").capitalize()
        self.extra = extra


def problem(status: int, code: str, detail: str, title: str | None = None, **extra: Any) -> Response:
    body = {"type": TYPE_PREFIX + code, "title": title or code.replace("-", " ").capitalize(),
            "status": status, "detail": detail, "code": code, **extra}
    return Response(json.dumps(body), status=status, mimetype="application/problem+json")


def game_error_status(exc: GameError) -> int:
    for cls in type(exc).__mro__:
        if cls in GAME_STATUS:
            return GAME_STATUS[cls]
    return 422


def install(app: Flask) -> None:
    @app.errorhandler(ApiError)
    def _api(exc: ApiError):
        return problem(exc.status, exc.code, exc.detail, exc.title, **exc.extra)

    @app.errorhandler(GameError)
    def _game(exc: GameError):
        return problem(game_error_status(exc), exc.code, exc.message)

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException):
        code = {400: "bad-request", 404: "not-found", 405: "method-not-allowed", 413: "body-too-large",
                415: "unsupported-media-type"}.get(exc.code or 500, "http-error")
        detail = exc.description or ""
        if exc.code == 413:
            detail = f"The request body is larger than the {app.config['MAX_CONTENT_LENGTH']} bytes allowed."
        elif exc.code == 404:
            detail = "There is no such resource."
        return problem(exc.code or 500, code, detail, exc.name)

    @app.errorhandler(Exception)
    def _other(exc: Exception):
        log.exception("unhandled error")  # the trace goes to the log, never to the client
        return problem(500, "internal-error", "The server could not complete this request.")
