"""Reading a transcript from where the user points: a file, standard input ("-") or the URL of a finished game.

The URL is the verifier's only network use, and only when the user gives one. Every failure is an `InputError`
carrying a sentence (the command exits 2 with it); nothing here trusts what it reads, it only parses JSON.
"""

from __future__ import annotations

import json
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

MAX_BYTES = 64 * 1024 * 1024  # a transcript of a long game is well under a megabyte; refuse anything silly
TIMEOUT = 30  # seconds for one HTTP request


class InputError(Exception):
    """The input could not be used (unreadable, not JSON, not a transcript): exit status 2."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def is_url(source: str) -> bool:
    return source.startswith(("http://", "https://"))


def parse_json(data: bytes | str, where: str) -> Any:
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError:
            raise InputError(f"{where} is not UTF-8 text, so it is not a transcript.") from None
    if not data.strip():
        raise InputError(f"{where} is empty.")
    try:
        return json.loads(data)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{where} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); it may be truncated."
        ) from None
    except (RecursionError, ValueError) as exc:
        raise InputError(f"{where} could not be read as JSON ({exc}).") from None


def read_file(path: str | Path) -> bytes:
    p = Path(path)
    try:
        if p.is_dir():
            raise InputError(f"{p} is a folder; `fairdeal-verify audit {p}` checks every transcript in it.")
        with p.open("rb") as fh:
            data = fh.read(MAX_BYTES + 1)
    except InputError:
        raise
    except FileNotFoundError:
        raise InputError(f"There is no file {p}.") from None
    except OSError as exc:
        raise InputError(f"{p} could not be read: {exc.strerror or exc}.") from None
    if len(data) > MAX_BYTES:
        raise InputError(f"{p} is larger than {MAX_BYTES // (1024 * 1024)} MB; it is not a transcript.")
    return data


def read_stdin() -> bytes:
    try:
        data = sys.stdin.buffer.read(MAX_BYTES + 1)
    except (OSError, ValueError, AttributeError) as exc:
        raise InputError(f"Standard input could not be read: {exc}.") from None
    if len(data) > MAX_BYTES:
        raise InputError("Standard input is larger than the largest transcript allowed.")
    return data


def host_of(url: str) -> str | None:
    """The host (and port) a URL names, as pins name a service; None for a path or a URL without one."""
    return urllib.parse.urlsplit(url).netloc or None if is_url(url) else None


def fetch_url(url: str) -> bytes:
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise InputError(f"{url} is not an http(s) URL.")
    request = urllib.request.Request(url, headers={"Accept": "application/json", "User-Agent": "fairdeal-verify"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:  # noqa: S310 - the user's own URL
            data: bytes = response.read(MAX_BYTES + 1)
    except urllib.error.HTTPError as exc:
        raise InputError(f"{url} answered {exc.code} {exc.reason}; is the game finished and the URL right?") from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        raise InputError(f"{url} could not be fetched: {reason}.") from None
    if len(data) > MAX_BYTES:
        raise InputError(f"{url} sent more than the largest transcript allowed.")
    return data


def post_text(url: str, text: str) -> tuple[int, str]:
    """POST a text (text/plain, UTF-8): (status, the start of the answer's body); 0 when it could not be sent."""
    request = urllib.request.Request(
        url,
        data=text.encode("utf-8"),
        method="POST",
        headers={"Content-Type": "text/plain; charset=utf-8", "User-Agent": "fairdeal-verify"},
    )
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:  # noqa: S310 - the user's own URL
            return response.status, response.read(4096).decode("utf-8", "replace")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read(400).decode("utf-8", "replace")
    except (urllib.error.URLError, OSError, ValueError) as exc:
        return 0, str(getattr(exc, "reason", exc))


def looks_like_transcript(obj: Any) -> bool:
    return isinstance(obj, dict) and "protocol" in obj and "records" in obj


def transcript_from_url(url: str) -> Any:
    """The transcript a service serves for a finished game. The URL may be the transcript itself, or the game's
    own URL (then `<url>/transcript` is tried, or a `transcript` field / link in the game's JSON is followed)."""
    obj = parse_json(fetch_url(url), url)
    if looks_like_transcript(obj):
        return obj
    if isinstance(obj, dict):
        inner = obj.get("transcript")
        if looks_like_transcript(inner):
            return inner
        links = obj["links"] if isinstance(obj.get("links"), dict) else {}
        target = inner if isinstance(inner, str) else links.get("transcript")
        if isinstance(target, str) and target:
            nxt = urllib.parse.urljoin(url, target)
            if nxt != url:
                return parse_json(fetch_url(nxt), nxt)
    if not url.rstrip("/").endswith("/transcript"):
        nxt = url.rstrip("/") + "/transcript"
        return parse_json(fetch_url(nxt), nxt)
    return obj


def load_transcript(source: str) -> Any:
    """The parsed JSON of one transcript source (a file, "-", or a URL). Raises InputError."""
    if source == "-":
        return parse_json(read_stdin(), "standard input")
    if is_url(source):
        return transcript_from_url(source)
    return parse_json(read_file(source), str(source))
