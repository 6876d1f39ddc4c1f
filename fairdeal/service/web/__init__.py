"""The browser front end: the lobby, the table and the verify page, served by the service itself.

Plain static files (HTML, CSS, ES modules; no build step) under static/ and pages/. The pages call the same JSON
API as any client (docs/api.md). The verify page is served with its scripts and styles inlined (inline.py), so a
player can save it and open it from disk, offline, without trusting the server's copy.
"""

from __future__ import annotations

import base64
import hashlib
from pathlib import Path

from flask import Blueprint, Response, request

from fairdeal.service.errors import ApiError
from fairdeal.service.web.inline import inline_page
from fairdeal.service.web.verifier_zip import verifier_zip

HERE = Path(__file__).resolve().parent
PAGES = HERE / "pages"
STATIC = HERE / "static"

bp = Blueprint("web", __name__, static_folder=str(STATIC), static_url_path="/assets")

# Pages load scripts, styles and data from this origin only; no inline script except the verify page's own,
# allowed by its hash. Nothing is framed, nothing is sent elsewhere.
BASE_POLICY = (
    "default-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'; object-src 'none'"
)


def _html(text: str, scripts: tuple[str, ...] = (), styles: tuple[str, ...] = ()) -> Response:
    def sources(kind: str, inline: tuple[str, ...]) -> str:
        hashes = " ".join(
            "'sha256-" + base64.b64encode(hashlib.sha256(s.encode()).digest()).decode() + "'" for s in inline
        )
        return f"{kind} 'self'" + (" " + hashes if hashes else "")

    policy = f"{BASE_POLICY}; {sources('script-src', scripts)}; {sources('style-src', styles)}"
    resp = Response(text, mimetype="text/html")
    resp.headers["Content-Security-Policy"] = policy
    resp.headers["X-Content-Type-Options"] = "nosniff"
    resp.headers["Referrer-Policy"] = "no-referrer"
    resp.headers["Cache-Control"] = "no-cache"
    return resp


def _page(name: str) -> Response:
    return _html((PAGES / name).read_text(encoding="utf-8"))


@bp.get("/")
def lobby():
    return _page("lobby.html")


@bp.get("/table/<table_id>")
def table(table_id):
    return _page("table.html")  # the page reads the id from its address


@bp.get("/tournament/<tournament_id>")
def tournament(tournament_id):
    return _page("tournament.html")  # the page reads the id from its address


@bp.get("/verify")
@bp.get("/verify/<game_id>")
def verify(game_id=None):
    page = inline_page(PAGES / "verify.html", STATIC)
    return _html(page.html, page.scripts, page.styles)


@bp.get("/verifier.zip")
def verifier():
    """The verifier's Python for the verify page (verifier_zip.py; docs/web.md, "The verify page")."""
    body, etag = verifier_zip()
    if request.if_none_match.contains(etag):
        resp = Response(status=304)
    else:
        resp = Response(body, mimetype="application/zip")
    resp.set_etag(etag)
    return resp


@bp.errorhandler(ApiError)
def _refused(exc: ApiError):
    """A page for a person, not problem JSON: only a malformed id in a page's address gets here."""
    resp = _page("missing.html")
    resp.status_code = exc.status
    return resp


@bp.after_request
def _static_headers(resp: Response) -> Response:
    resp.headers.setdefault("X-Content-Type-Options", "nosniff")
    resp.headers.setdefault("Cache-Control", "no-cache")  # revalidate (ETag): a new release shows at once
    return resp
