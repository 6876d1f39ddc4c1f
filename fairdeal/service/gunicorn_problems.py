"""gunicorn answers some requests itself, before the app sees them (a request line or headers too long, a
malformed request): as an HTML page. install() makes those answers RFC 9457 problem JSON like every other
refusal of the API.

gunicorn has no setting for this; its workers call gunicorn.util.write_error(sock, status, reason, message)
for each such answer, so install() replaces that one function. The client's own text is never echoed back.
"""

from __future__ import annotations

import json

from fairdeal.service.errors import problem_body

DETAILS = {
    400: ("bad-request", "The request could not be read as HTTP/1.1."),
    403: ("forbidden", "This request is not allowed."),
    414: ("uri-too-long", "The request line (method, path and query) is too long."),
    417: ("expectation-failed", "The Expect header asks for something this server does not do."),
    431: ("headers-too-large", "The request has too many headers, or one that is too long."),
    501: ("not-implemented", "This transfer coding is not supported."),
}


def write_problem(sock, status_int: int, reason: str, mesg: str) -> None:
    """gunicorn.util.write_error's signature and behaviour (a whole response, then the connection closes),
    with a problem JSON body."""
    from gunicorn import util

    code, detail = DETAILS.get(status_int, ("internal-error", "The server could not complete this request."))
    body = json.dumps(problem_body(status_int, code, detail, reason)).encode("ascii")
    head = (
        f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\n"
        f"Content-Type: application/problem+json\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    util.write_nonblock(sock, head.encode("latin-1") + body)


def install() -> None:
    """Idempotent; a no-op without gunicorn."""
    try:
        from gunicorn import util
    except ImportError:
        return
    util.write_error = write_problem
