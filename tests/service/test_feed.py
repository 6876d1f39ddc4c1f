"""The event feed (feed.py): long-poll and server-sent events wake on a move made through another instance of
the service (on Redis, Redis Cluster and the embedded store), a client that comes back with its last seq misses
nothing, an idle waiter reads nothing, a waiting table's clock still fires, and the caps answer 429/503 with a
problem and Retry-After."""

from __future__ import annotations

import collections
import json
import threading
import time

import pytest

from fairdeal.service.app import create_app
from fairdeal.service.config import Config
from fairdeal.service.store.redis import RedisStore
from fairdeal.service.store.sqlite import SqliteStore
from tests.service.client import Api
from tests.service.feed_kit import pick, seated_game
from tests.service.http import Http, serving
from tests.service.sse import in_thread, sse_lines
from tests.waiting import scaled, wait_for


def open_store(kind: str, request, tmp_path):
    if kind == "sqlite":
        return SqliteStore(str(tmp_path / "data" / "fairdeal.sqlite3"))
    return RedisStore(request.getfixturevalue("redis_url" if kind == "redis" else "redis_cluster_url"))


@pytest.fixture(params=["sqlite", "redis", "cluster"])
def two_instances(request, tmp_path):
    """Two apps on one store (one data dir: the same signing key), each with its own store client and
    listener, as on two machines."""
    cfg = Config(data_dir=str(tmp_path / "data"))
    apps = [create_app(cfg, store=open_store(request.param, request, tmp_path)) for _ in range(2)]
    yield [Api(a.test_client()) for a in apps]
    for a in apps:
        a.extensions["fairdeal"].store.close()


def test_a_move_through_one_instance_answers_a_long_poll_on_the_other(two_instances):
    a, b = two_instances
    p, gid = seated_game(a)
    v = a.view(p, gid)
    th, out = in_thread(lambda: b.get(f"/games/{gid}/events?after={v['seq']}&wait=20", p).get_json())
    time.sleep(0.3)  # the waiter is waiting
    assert th.is_alive()
    assert a.move(p, gid, v["seq"], pick(v)).status_code == 201
    th.join(scaled(10))
    r = out["value"]
    assert out["seconds"] < scaled(5)
    assert r["records"][0]["seq"] == v["seq"] + 1 and r["records"][0]["by"] == "player"
    assert r["seq"] >= v["seq"] + 1 and r["game"]["seq"] == r["seq"]


def test_a_client_that_comes_back_with_its_last_seq_misses_nothing(two_instances):
    """A waiter on one instance long-polls again and again with the last seq it saw while a whole game is
    played through the other: it gets every record once, in order, and no wait outlives the game's moves."""
    a, b = two_instances
    p, gid = seated_game(a)
    got, stalls = [], []
    done = threading.Event()

    def follow():
        after = 0
        while True:
            t0 = time.monotonic()
            r = b.get(f"/games/{gid}/events?after={after}&wait=5", p).get_json()
            if not r["records"] and not r["ended"] and not done.is_set():
                stalls.append(time.monotonic() - t0)  # a full wait while moves were still coming
            got.extend(x["seq"] for x in r["records"])
            after = r["seq"]
            if r["ended"]:
                return

    th = threading.Thread(target=follow)
    th.start()
    for _ in range(60):  # moves with pauses the follower sleeps through
        v = a.view(p, gid)
        if v["status"] == "over":
            break
        assert a.move(p, gid, v["seq"], pick(v)).status_code == 201
        time.sleep(0.01)
    if a.view(p, gid)["status"] != "over":
        assert a.post(f"/tables/{gid}/cancel", p).status_code == 200
    done.set()
    th.join(20)
    final = a.get(f"/games/{gid}/events?after=0&wait=0", p).get_json()
    assert got == [x["seq"] for x in final["records"]] == list(range(1, final["seq"] + 1))
    assert stalls == []


def records_of(lines):
    return [
        json.loads(x[len("data: ") :])
        for i, x in enumerate(lines)
        if x.startswith("data: ") and i and lines[i - 1] == "event: record"
    ]


def test_a_stream_on_one_instance_carries_a_move_made_through_the_other(two_instances):
    a, b = two_instances
    p, gid = seated_game(a)
    v = a.view(p, gid)
    want = v["seq"] + 1
    th, out = in_thread(
        lambda: sse_lines(
            b,
            f"/games/{gid}/stream",
            p,
            headers={"Last-Event-ID": str(v["seq"])},
            stop=lambda ls: any(r["seq"] == want for r in records_of(ls)),
        )
    )
    time.sleep(0.3)
    assert a.move(p, gid, v["seq"], pick(v)).status_code == 201
    th.join(scaled(10))
    seqs = [r["seq"] for r in records_of(out["value"])]
    assert seqs[0] == want and seqs == sorted(seqs)  # from Last-Event-ID on: nothing before it again
    assert out["seconds"] < scaled(5)


def test_a_stream_ends_when_the_game_is_cancelled_through_the_other_instance(two_instances):
    a, b = two_instances
    p, gid = seated_game(a)
    th, out = in_thread(lambda: sse_lines(b, f"/games/{gid}/stream", p, stop=lambda ls: "event: end" in ls))
    time.sleep(0.3)
    assert a.post(f"/tables/{gid}/cancel", p).status_code == 200
    th.join(scaled(10))
    lines = out["value"]
    assert "event: end" in lines and lines[lines.index("event: end") + 1] == 'data: "cancelled"'
    assert out["seconds"] < scaled(5)


def test_an_idle_stream_sends_heartbeats(request, tmp_path):
    app = create_app(
        Config(data_dir=str(tmp_path), heartbeat=0.1, stream_max=0.55), store=SqliteStore(str(tmp_path / "h.sqlite3"))
    )
    api = Api(app.test_client())
    p, gid = seated_game(api)
    lines = sse_lines(api, f"/games/{gid}/stream", p)
    assert lines.count(": keep-alive") >= 3
    assert lines[0].startswith("retry: ")
    first = next(x for x in lines[1:] if x)
    assert first.startswith("id: ") or first == "event: game"


def test_each_stream_tells_its_client_a_reconnection_time_drawn_at_random(tmp_path):
    """So that the clients of a restarted server do not all come back in the same instant."""
    from fairdeal.service import feed

    app = create_app(Config(data_dir=str(tmp_path), stream_max=0.05), store=SqliteStore(str(tmp_path / "r.sqlite3")))
    api = Api(app.test_client())
    p, gid = seated_game(api)
    retries = []
    for _ in range(12):
        lines = sse_lines(api, f"/games/{gid}/stream", p, stop=lambda ls: any(x == "event: game" for x in ls))
        assert lines[0].startswith("retry: ") and lines[1] == ""
        retries.append(int(lines[0][len("retry: ") :]))
    low, high = feed.RETRY_MS
    assert all(low <= r <= high for r in retries) and len(set(retries)) > 6


class CountingStore:
    """A store whose every call is counted (the listener's own reads are the Changes object's, not counted)."""

    def __init__(self, inner):
        self._inner = inner
        self.calls: collections.Counter = collections.Counter()

    def __getattr__(self, name):
        attr = getattr(self._inner, name)
        if not callable(attr) or name == "changes":
            return attr

        def counted(*args, **kwargs):
            self.calls[name] += 1
            return attr(*args, **kwargs)

        return counted


@pytest.mark.parametrize("kind", ["sqlite", "redis"])
def test_a_waiting_client_reads_nothing_while_it_waits(request, tmp_path, kind):
    store = CountingStore(open_store(kind, request, tmp_path))
    api = Api(create_app(Config(data_dir=str(tmp_path / "data")), store=store).test_client())
    p, gid = seated_game(api)
    v = api.view(p, gid)
    reads = store.calls["doc_and_records"]
    th, out = in_thread(lambda: api.get(f"/games/{gid}/events?after={v['seq']}&wait=1.5", p).get_json())
    time.sleep(0.3)
    before = sum(store.calls.values())
    time.sleep(0.9)
    idle = sum(store.calls.values()) - before
    th.join(5)
    assert idle == 0, store.calls
    assert out["value"]["records"] == [] and 1.4 < out["seconds"] < 3
    assert store.calls["doc_and_records"] - reads == 1  # one read of the game: none when the time ran out


@pytest.mark.parametrize("kind", ["sqlite", "redis"])
def test_a_long_poll_of_a_game_evicted_from_the_cache_writes_nothing_when_it_expires(request, tmp_path, kind):
    """More games than the cache holds: each expiry replays its game afresh. Its due time is already in the
    sweeper's index: the expiry reads it (index_score) and writes nothing (it wrote it every time: a
    transaction with an fsync on the embedded store, 5.85 ms of CPU an expiry against Redis's 1.6: issue 25)."""
    store = CountingStore(open_store(kind, request, tmp_path))
    api = Api(create_app(Config(data_dir=str(tmp_path / "data"), cache_size=2), store=store).test_client())
    games = [seated_game(api) for _ in range(4)]
    seqs = [api.view(p, gid)["seq"] for p, gid in games]
    store.calls.clear()
    for _ in range(2):
        for (p, gid), seq in zip(games, seqs, strict=True):
            ev = api.get(f"/games/{gid}/events?after={seq}&wait=0.01", p).get_json()
            assert ev["records"] == []
    assert store.calls["index_set"] == 0 and store.calls["index_remove"] == 0, store.calls
    assert store.calls["index_score"] >= 4  # the games were evicted and read again


def test_a_waiting_tables_clock_runs_out_on_time_without_a_sweeper(request, tmp_path):
    """The seat to move waits on its own table: the wait wakes at the deadline, and its read records the
    timeout move (nobody else calls, no sweeper runs)."""
    app = create_app(
        Config(data_dir=str(tmp_path), card_clock=5, other_clock=5),  # the shortest clocks
        store=SqliteStore(str(tmp_path / "c.sqlite3")),
    )
    api = Api(app.test_client())
    p = api.player()
    t = api.table(p, rule_set="spades")
    api.start(p, t["id"])
    v = api.view(p, t["id"])
    assert v["your_turn"] and v["deadline"]
    t0 = time.monotonic()
    r = api.get(f"/games/{t['id']}/events?after={v['seq']}&wait=20", p).get_json()
    assert time.monotonic() - t0 < 7
    assert r["records"][0]["by"] == "timeout" and r["records"][0]["seat"] == 0


# -------------------------------------------------------------------------------------------------- caps


def problem_of(r, status, code):
    assert r.status_code == status, r.get_data(as_text=True)
    body = r.get_json()
    assert r.mimetype == "application/problem+json"
    assert body["status"] == status and body["code"] == code and body["type"].endswith(code) and body["detail"]
    assert int(r.headers["Retry-After"]) > 0
    return body


@pytest.fixture
def capped(request, tmp_path):
    app = create_app(
        Config(data_dir=str(tmp_path), max_waits=3, max_waits_per_player=2),
        store=SqliteStore(str(tmp_path / "cap.sqlite3")),
    )
    return Api(app.test_client()), app.extensions["fairdeal"]


def test_a_player_past_the_per_player_cap_gets_429_and_others_still_wait(capped):
    api, svc = capped
    p, gid = seated_game(api)
    v = api.view(p, gid)
    assert api.move(p, gid, v["seq"], pick(v)).status_code == 201  # so there is a record to answer with
    v = api.view(p, gid)
    path = f"/games/{gid}/events?after={v['seq']}&wait=1"
    threads = [in_thread(lambda: api.get(path, p))[0] for _ in range(2)]
    wait_for(lambda: svc.waits.open == 2, interval=0.01, what="two waits open")
    body = problem_of(api.get(path, p), 429, "too-many-waits")
    assert "at most 2" in body["detail"]
    # a request that has something to answer takes no slot: it is never refused
    assert api.get(f"/games/{gid}/events?after=0&wait=5", p).status_code == 200
    other = api.player()
    th, out = in_thread(lambda: api.get(path, other))
    wait_for(lambda: svc.waits.open == 3, interval=0.01, what="three waits open")
    problem_of(api.get(path, api.player()), 503, "server-busy")  # the process is full
    for t in threads + [th]:
        t.join(5)
    assert out["value"].status_code == 200 and svc.waits.open == 0
    assert api.get(path.replace("wait=1", "wait=0.05"), p).status_code == 200  # the slots came back


def test_a_stream_holds_its_slot_until_it_closes(capped):
    api, svc = capped
    p, gid = seated_game(api)
    r = api.c.get(f"/games/{gid}/stream", headers=p["h"], buffered=False)
    assert svc.waits.open == 1
    r2 = api.c.get(f"/games/{gid}/stream", headers=p["h"], buffered=False)
    problem_of(api.c.get(f"/games/{gid}/stream", headers=p["h"]), 429, "too-many-waits")
    r2.close()  # closed before it was read at all: the slot is released all the same
    assert svc.waits.open == 1
    r.close()
    assert svc.waits.open == 0


def test_the_feed_says_503_when_it_cannot_listen(tmp_path):
    from fairdeal.service.store.changes import ChangesUnavailable

    class Deaf(SqliteStore):
        def changes(self):
            class NoChanges:
                def watch(self, game_id, also=()):
                    raise ChangesUnavailable("away")

            return NoChanges()

    api = Api(create_app(Config(data_dir=str(tmp_path)), store=Deaf(str(tmp_path / "x.sqlite3"))).test_client())
    p, gid = seated_game(api)
    v = api.view(p, gid)
    assert api.move(p, gid, v["seq"], pick(v)).status_code == 201  # so there is a record to answer with
    v = api.view(p, gid)
    problem_of(api.get(f"/games/{gid}/events?after={v['seq']}&wait=1", p), 503, "feed-unavailable")
    problem_of(api.c.get(f"/games/{gid}/stream", headers=p["h"]), 503, "feed-unavailable")
    assert api.get(f"/games/{gid}/events?after={v['seq']}&wait=0.2", p).status_code == 503
    assert api.get(f"/games/{gid}/events?after=0&wait=1", p).status_code == 200  # nothing to wait for


# ------------------------------------------------------------------------------------- real processes


@pytest.mark.parametrize("kind", ["sqlite", "redis"])
def test_a_move_through_one_server_wakes_a_waiter_on_another(request, tmp_path, kind):
    """Two `fairdeal serve` processes (gunicorn, gevent workers) on one store: on Redis, as on two machines;
    on the embedded store, as two servers on one machine sharing the data dir."""
    url = request.getfixturevalue("redis_url") if kind == "redis" else None
    with (
        serving(tmp_path, url, workers=1, log_name="a.log") as base_a,
        serving(tmp_path, url, workers=1, log_name="b.log") as base_b,
    ):
        a, b = Api(Http(base_a)), Api(Http(base_b))
        p, gid = seated_game(a)
        v = a.view(p, gid)
        th, out = in_thread(lambda: b.get(f"/games/{gid}/events?after={v['seq']}&wait=20", p).get_json())
        wait_for(lambda: waiting_clients(base_b) == 1, what="the long-poll waiting on the other server")
        assert a.move(p, gid, v["seq"], pick(v)).status_code == 201
        th.join(scaled(10))
        # woken by the move (its record), not by the 20 s wait running out
        assert out["value"]["records"][0]["seq"] == v["seq"] + 1 and out["seconds"] < 19


def waiting_clients(base: str) -> float:
    """fairdeal_waiting_clients as a server's /metrics says (its one worker's waits)."""
    import urllib.request

    text = urllib.request.urlopen(base + "/metrics", timeout=scaled(5)).read().decode()
    return next(float(line.split()[-1]) for line in text.splitlines() if line.startswith("fairdeal_waiting_clients "))


def test_a_long_poll_of_a_game_that_does_not_exist_leaves_no_subscription(redis_app):
    api = Api(redis_app.test_client())
    changes = redis_app.extensions["fairdeal"].store.changes()
    before = changes.subscribed
    r = api.get("/games/nosuchgame/events?after=0&wait=5")
    assert r.status_code == 404 and r.get_json()["code"] == "table-not-found"
    assert changes.subscribed == before


def test_long_waits_are_spread_over_their_last_fifth_and_short_ones_kept():
    from fairdeal.service.feed import spread

    longs = [spread(25.0) for _ in range(200)]
    assert all(20.0 <= x <= 25.0 for x in longs) and max(longs) - min(longs) > 2.5
    assert spread(1.5) == 1.5 and spread(0.2) == 0.2


@pytest.mark.parametrize("feed_kind", ["long-poll", "stream"])
def test_a_held_wait_holds_no_connection_of_the_redis_command_pool(request, tmp_path, feed_kind):
    """With a command pool of one connection, requests still run beside held waits: a wait keeps no pool
    connection while it waits (5,000 held long-polls had emptied a pool of 128: issue 25)."""
    store = RedisStore(request.getfixturevalue("redis_url"), max_connections=1)
    app = create_app(Config(data_dir=str(tmp_path / "data"), redis_connections=1), store=store)
    api = Api(app.test_client())
    p, gid = seated_game(api)
    seq = api.view(p, gid)["seq"]
    waits, streaming = [], set()

    def moved_on(i, lines):
        """A stream's stop: it has told its first view (it waits from then on), and a record past `seq` came."""
        if "event: game" in lines:
            streaming.add(i)
        return any(r["seq"] > seq for r in records_of(lines))

    for i in range(3):
        if feed_kind == "long-poll":
            waits.append(in_thread(lambda: api.get(f"/games/{gid}/events?after={seq}&wait=25", p).get_json()))
        else:
            waits.append(
                in_thread(
                    lambda i=i: sse_lines(api, f"/games/{gid}/stream?after={seq}", p, stop=lambda ls: moved_on(i, ls))
                )
            )
    holding = app.extensions["fairdeal"].waits
    wait_for(lambda: holding.open == 3, timeout=10, interval=0.01, what="three held waits")
    # a stream's first view is read when its generator first runs: the move must come after it, or the stream
    # tells the move in its first view and then waits for a change that never comes (seen on a loaded machine)
    if feed_kind == "stream":
        wait_for(lambda: len(streaming) == 3, timeout=10, interval=0.01, what="three streams past their first view")
    v = api.view(p, gid)  # a quick request needs the pool's one connection...
    assert v["seq"] == seq
    assert holding.open == 3  # ...and got it while all three waits were still held
    api.post(f"/games/{gid}/moves", p, {"seq": seq, "move": pick(v)})  # and wakes the waits
    for th, out in waits:
        th.join(scaled(20))
        assert not th.is_alive()
        got = out["value"]  # woken by the move, not by the wait's own end
        assert records_of(got) if feed_kind == "stream" else got["records"], got
    store.close()
