"""Idle streams' keep-alives written in batches (keepalives.py): one timer a process writes every due comment
straight to the stream's socket; a socket that takes none of it or has gone wakes the stream's own greenlet.
Under `fairdeal serve` (gunicorn, gevent) the timer writes them and the stream stays well framed around them."""

from __future__ import annotations

import http.client
import socket
import time
import urllib.request

import pytest

from fairdeal.service.keepalives import COMMENT, Beat, KeepAlives, framed
from tests.service.client import Api
from tests.service.feed_kit import pick, seated_game
from tests.service.http import Http, serving
from tests.waiting import scaled, wait_for


@pytest.fixture
def pair():
    a, b = socket.socketpair()
    a.setblocking(False)  # as gevent keeps a worker's sockets
    yield a, b
    a.close()
    b.close()


def test_a_due_comment_is_written_in_one_pass_and_the_next_one_drawn(pair):
    a, b = pair
    woken = []
    ka = KeepAlives(lambda: 5.0)
    beat = Beat(a, True, lambda: woken.append(1))
    ka.schedule(beat)
    now = time.monotonic()
    assert ka.run_due(now + 3.0) == 0  # not due yet
    assert ka.run_due(now + 5.0) == 1 and ka.written == 1 and len(ka) == 1  # written, and registered again
    assert b.recv(100) == b"E\r\n: keep-alive\n\n\r\n" == framed(COMMENT, True)
    assert ka.run_due(now + 9.0) == 0 and ka.run_due(now + 10.0) == 1  # the next one a heartbeat later
    ka.cancel(beat)
    assert len(ka) == 0 and ka.run_due(now + 100.0) == 0 and not woken


def test_a_socket_that_takes_no_more_wakes_its_stream_which_writes_the_rest_itself(pair):
    a, b = pair
    while True:  # a client that stopped reading: its socket's buffers are full
        try:
            a.send(b"x" * 65536)
        except BlockingIOError:
            break
    woken = []
    ka = KeepAlives(lambda: 1.0)
    beat = Beat(a, False, lambda: woken.append(1))
    ka.schedule(beat)
    assert ka.run_due(time.monotonic() + 1.0) == 0
    assert woken == [1] and beat.interrupted and not beat.dead and len(ka) == 0  # out of the register
    assert beat.pending == COMMENT  # what the stream's greenlet must write before anything else
    b.setblocking(False)
    drained = b""
    while True:
        try:
            drained += b.recv(1 << 20)
        except BlockingIOError:
            break
    a.setblocking(True)  # the greenlet's write waits (cooperatively, under gevent)
    beat.flush()
    assert not beat.interrupted and b.recv(100) == COMMENT


def test_a_closed_client_marks_its_stream_dead(pair):
    a, b = pair
    b.close()
    woken = []
    ka = KeepAlives(lambda: 1.0)
    beat = Beat(a, True, lambda: woken.append(1))
    ka.schedule(beat)
    ka.run_due(time.monotonic() + 1.0)
    assert beat.dead and woken == [1] and len(ka) == 0


def test_a_closed_socket_is_never_written(pair):
    """After close its descriptor may belong to another connection: the timer asks the socket, not a number."""
    a, _ = pair
    beat = Beat(a, True, lambda: None)
    a.close()
    assert beat.write() is False and beat.dead


def metric(base: str, name: str) -> float:
    text = urllib.request.urlopen(base + "/metrics", timeout=scaled(5)).read().decode()
    return sum(float(line.split()[-1]) for line in text.splitlines() if line.startswith(name + " "))


@pytest.mark.parametrize("kind", ["sqlite", "redis"])
def test_under_gunicorn_the_timer_writes_the_keepalives_and_the_stream_stays_framed(request, tmp_path, kind):
    url = request.getfixturevalue("redis_url") if kind == "redis" else None
    with serving(tmp_path, url, workers=1, FAIRDEAL_HEARTBEAT="1") as base:
        a = Api(Http(base))
        p, gid = seated_game(a)
        v = a.view(p, gid)
        host, port = base.removeprefix("http://").split(":")
        conn = http.client.HTTPConnection(host, int(port), timeout=scaled(20))
        conn.request("GET", f"/games/{gid}/stream?after={v['seq']}", headers=p["h"])
        r = conn.getresponse()
        assert r.status == 200 and r.getheader("Transfer-Encoding") == "chunked"
        lines = []

        def upto(what: str, count: int = 1) -> None:
            while sum(x.startswith(what) for x in lines) < count:
                lines.append(r.readline().decode().rstrip("\n"))  # http.client un-chunks: a bad frame raises

        upto(": keep-alive", 3)
        assert metric(base, "fairdeal_keepalives_batched_total") >= 3  # the timer's, not the stream's
        assert a.move(p, gid, v["seq"], pick(v)).status_code == 201
        upto("event: record")
        upto(": keep-alive", 5)  # the stream went back to the register after writing its events
        assert lines[lines.index("event: record") + 1].startswith("data: {")
        conn.close()


def test_under_gunicorn_a_stream_whose_client_went_away_gives_its_slot_back(tmp_path):
    with serving(tmp_path, None, workers=1, FAIRDEAL_HEARTBEAT="1") as base:
        a = Api(Http(base))
        p, gid = seated_game(a)
        host, port = base.removeprefix("http://").split(":")
        s = socket.create_connection((host, int(port)))
        s.sendall(
            f"GET /games/{gid}/stream HTTP/1.1\r\nHost: x\r\nAuthorization: {p['h']['Authorization']}\r\n\r\n".encode()
        )
        assert s.recv(100).startswith(b"HTTP/1.1 200")
        wait_for(lambda: metric(base, "fairdeal_waiting_clients") == 1, what="the stream holding its slot")
        s.close()
        wait_for(
            lambda: metric(base, "fairdeal_waiting_clients") == 0,
            timeout=10,
            what="the next keep-alive finding the client gone and the stream closing",
        )
