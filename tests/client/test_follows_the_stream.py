"""`fairdeal play` follows a game on the server-sent events stream (GET /games/{id}/stream), not by long-polling:
each batch of records comes on the one open stream, a stream the service closes is opened again after the last
record told (nothing missed, nothing told twice), and while the service is away the stream is asked again with
backoff until it answers. Against the service in this process (a threaded WSGI server on a loopback port)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from werkzeug.serving import make_server

from fairdeal.client.http import Client
from fairdeal.client.session import Session
from fairdeal.service.app import create_app
from fairdeal.service.config import Config
from tests.waiting import wait_for


class Recorded:
    """The app, noting each request's path and query (what the client asked for, in order)."""

    def __init__(self, app):
        self.app, self.asked = app, []

    def __call__(self, environ, start_response):
        self.asked.append(environ["PATH_INFO"] + ("?" + environ["QUERY_STRING"] if environ["QUERY_STRING"] else ""))
        return self.app(environ, start_response)


@contextmanager
def serving(app, port: int = 0) -> Iterator:
    httpd = make_server("127.0.0.1", port, app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield httpd
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(10)


@pytest.fixture
def app(tmp_path):
    # streams closed by the service after 2 s, so that the client's reopening is seen
    return Recorded(create_app(Config(data_dir=str(tmp_path / "data"), stream_max=2.0)))


def _seat_at_a_spades_table(base: str) -> tuple[Client, str]:
    anon = Client(base)
    me = anon.post("/players", {"name": "follower"})
    c = Client(base, me["token"])
    t = c.post("/tables", {"rule_set": "spades", "clocks": "off"})
    c.post(f"/tables/{t['id']}/start")
    return c, t["id"]


def _move(c: Client, gid: str, game: dict) -> None:
    c.move(gid, game["seq"], game["suggested"] or game["legal_moves"][0])


def _streams(app, gid: str) -> list[int]:
    """The `after` of every stream the client opened, in order; and no long-poll was asked."""
    feed = [a for a in app.asked if a.startswith(f"/games/{gid}/") and "/moves" not in a]
    assert all(a.startswith(f"/games/{gid}/stream?after=") for a in feed), feed
    return [int(a.rsplit("=", 1)[1]) for a in feed]


def test_the_terminal_follows_the_game_on_the_stream_and_reopens_it_after_the_last_record(app, capsys):
    with serving(app) as httpd:
        c, gid = _seat_at_a_spades_table(f"http://127.0.0.1:{httpd.server_port}")
        s = Session(c, gid, rule_set="spades")
        game = s.feed(0)
        assert game["your_turn"] and _streams(app, gid) == [0], "a new Spades table: the host bids at once"
        start = game["seq"]
        _move(c, gid, game)
        # our bid and the bots' after it come on the stream; the service closes each stream after stream_max, and
        # the client opens the next one after the last record it told (each opening answers with the view at once)
        wait_for(lambda: s.feed(20)["your_turn"] and len(_streams(app, gid)) >= 3, timeout=30, what="streams reopened")
        opened = _streams(app, gid)
        assert opened == sorted(opened) and opened[0] == 0 and opened[-1] == s.seq > start + 1
        bots = [
            r
            for r in c.get(f"/games/{gid}/transcript")["transcript"]["records"]
            if r["by"] == "bot" and r["seq"] <= s.seq
        ]
    told = capsys.readouterr().out
    assert told.count("  Bot ") == len(bots), "each bot move told once, none missed"


def test_while_the_service_is_away_the_stream_is_asked_again_with_backoff(app, capsys):
    with serving(app) as httpd:
        port = httpd.server_port
        c, gid = _seat_at_a_spades_table(f"http://127.0.0.1:{port}")
        s = Session(c, gid, rule_set="spades", patience=120)
        game = s.feed(0)
    # the service is gone: the next batch is asked for again and again, with a growing jittered wait
    got: list[dict] = []
    follower = threading.Thread(target=lambda: got.append(s.feed(20)), daemon=True)
    follower.start()
    said = []

    def retrying() -> bool:
        said.append(capsys.readouterr().err)
        return "".join(said).count("No answer from the service") >= 2

    wait_for(retrying, timeout=60, what="the client retrying")
    with serving(app, port):  # back, on the same address and store
        follower.join(60)
        assert got and got[0]["seq"] == game["seq"] and got[0]["your_turn"], "the view once it answers again"
    assert "trying again in" in "".join(said) and _streams(app, gid)[-1] == game["seq"]
