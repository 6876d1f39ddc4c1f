"""Reading the event feed in tests: a stream read event by event, a request run in a thread of its own."""

from __future__ import annotations

import threading
import time

from tests.service.client import Api


def in_thread(fn):
    out = {}

    def run():
        t0 = time.monotonic()
        out["value"] = fn()
        out["seconds"] = time.monotonic() - t0

    th = threading.Thread(target=run)
    th.start()
    return th, out


def sse_lines(api: Api, path: str, p, headers=None, stop=lambda lines: False):
    """Read a stream event by event (the test client runs the generator in this thread) until `stop`."""
    r = api.c.get(path, headers={**p["h"], **(headers or {})}, buffered=False)
    assert r.status_code == 200 and r.mimetype == "text/event-stream"
    lines: list[str] = []
    try:
        for chunk in r.response:
            lines.extend((chunk.decode() if isinstance(chunk, bytes) else chunk).split("\n"))
            if stop(lines):
                break
    finally:
        r.close()
    return lines
