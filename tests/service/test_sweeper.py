"""The sweeper is driven by the schedule index: a sweep reads the entries that are due and touches those games
only (the others are never read), rewrites what it swept, and backs off a game whose sweep fails."""

from __future__ import annotations

import pytest

from fairdeal.service import sweeper
from fairdeal.service.app import build_services, create_app
from fairdeal.service.config import Config
from tests.service import redis_servers
from tests.service.client import Api
from tests.service.conftest import make_app


class ReadCounting:
    """The store, with the games each touch read (doc_and_records) written down."""

    def __init__(self, inner):
        self._inner = inner
        self.touched: list[str] = []

    def doc_and_records(self, kind, doc_id, game_id, start):
        self.touched.append(game_id)
        return self._inner.doc_and_records(kind, doc_id, game_id, start)

    def __getattr__(self, name):
        return getattr(self._inner, name)


@pytest.fixture
def own_redis(tmp_path):
    """A Redis of the test's own: the schedule index is one key, and these tests count all of its entries."""
    proc, port = redis_servers.start_server(str(tmp_path))
    yield f"redis://127.0.0.1:{port}/0"
    redis_servers.stop([proc])


@pytest.fixture(params=["redis", "sqlite"])
def room(request, tmp_path, clock):
    if request.param == "redis":
        from fairdeal.service.store.redis import RedisStore

        app = create_app(
            Config(data_dir=str(tmp_path / "data")), RedisStore(request.getfixturevalue("own_redis")), now=clock
        )
    else:
        app = make_app(tmp_path, "sqlite", request, now=clock)
    svc = app.extensions["fairdeal"]
    # the sweeper is a process of its own: its own services on the same store, an empty cache
    store = ReadCounting(svc.store)
    swept = build_services(Config(data_dir=str(tmp_path / "data")), store, now=clock)
    return Api(app.test_client()), svc, swept, store, clock


def started(api, n):
    ids = []
    for _ in range(n):
        p = api.player()
        t = api.table(p, rule_set="spades")  # the 30-second clock for the opening bid
        api.start(p, t["id"])
        ids.append(t["id"])
    return ids


def test_a_sweep_touches_the_due_games_and_reads_no_other(room):
    api, svc, swept, store, clock = room
    early = started(api, 6)
    clock.advance(20)
    late = started(api, 6)
    clock.advance(15)  # early ones are 35 s in (due), late ones 15 s (not)
    assert sweeper.sweep_once(swept) == 6
    assert sorted(store.touched) == sorted(early)
    for gid in early:
        assert any(r["by"] == "timeout" for r in swept.games.get(gid).transcript["records"])
    store.touched.clear()
    assert sweeper.sweep_once(swept) == 0 and store.touched == []  # they were rescheduled, not left due
    assert sweeper.next_due(swept) == pytest.approx(
        min(s for g, s in svc.store.index_range("schedule", limit=50) if g in early + late)
    )


def test_a_stale_entry_in_the_past_is_rewritten_by_the_sweep(room):
    api, svc, swept, store, clock = room
    [gid] = started(api, 1)
    svc.store.index_set("schedule", gid, clock() - 100)  # written long ago by some process
    assert sweeper.sweep_once(swept) == 1
    ((member, score),) = [x for x in svc.store.index_range("schedule", limit=50) if x[0] == gid]
    assert score > clock()  # the game's real next due time: its bid clock
    assert sweeper.sweep_once(swept) == 0


def test_a_game_whose_sweep_fails_is_looked_at_again_later_not_at_every_sweep(room, monkeypatch):
    api, svc, swept, store, clock = room
    [gid] = started(api, 1)
    clock.advance(31)

    def broken(game_id):
        raise RuntimeError("replay failed")

    monkeypatch.setattr(swept.games, "touch", broken)
    assert sweeper.sweep_once(swept) == 1
    assert sweeper.sweep_once(swept) == 0
    ((_, score),) = [x for x in svc.store.index_range("schedule", limit=50) if x[0] == gid]
    assert score == pytest.approx(clock() + sweeper.RETRY_FAILED)


class Stop(Exception):
    pass


def test_run_sweeps_batch_after_batch_then_sleeps_until_the_next_due_time(room):
    api, svc, swept, store, clock = room
    ids = []
    for _ in range(5):
        ids += started(api, 1)
        clock.advance(1)
    clock.advance(30)  # all five are due, the first one most overdue
    sleeps = []

    def sleep(seconds):
        sleeps.append(seconds)
        raise Stop  # the loop ends at its first sleep

    with pytest.raises(Stop):
        sweeper.run(swept, interval=1.0, limit=2, sleep=sleep)
    assert store.touched == ids  # in batches of two, earliest first, with no sleep between batches
    assert sleeps == [1.0]  # nothing is due within the interval
    svc.store.index_set("schedule", "not-a-game", clock() + 0.25)
    with pytest.raises(Stop):
        sweeper.run(swept, interval=1.0, limit=2, sleep=sleep)
    assert sleeps[1] == pytest.approx(0.25)  # wakes when the next entry is due, not a whole interval later


class Flaky:
    """The store, away (Redis refusing connections) for the first `down` rounds of the sweeper."""

    def __init__(self, inner, down: int):
        self._inner, self.down = inner, down

    def index_range(self, *args, **kwargs):
        import redis

        if self.down > 0:
            self.down -= 1
            raise redis.ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        return self._inner.index_range(*args, **kwargs)

    def __getattr__(self, name):
        return getattr(self._inner, name)


def test_a_store_outage_is_one_line_when_it_starts_and_one_when_it_ends(tmp_path, caplog):
    """The sweeper logged a traceback each round while the store was away."""
    import logging

    from fairdeal.service.store.sqlite import SqliteStore

    store = Flaky(SqliteStore(str(tmp_path / "s.sqlite3")), down=25)
    svc = build_services(Config(data_dir=str(tmp_path / "data")), store)
    rounds = []

    def sleep(seconds):
        rounds.append(seconds)
        if len(rounds) >= 30:
            raise KeyboardInterrupt  # the test's way out of the sweeper's endless loop

    caplog.set_level(logging.INFO, logger="fairdeal")
    with pytest.raises(KeyboardInterrupt):
        sweeper.run(svc, interval=0.01, sleep=sleep)
    lines = [r for r in caplog.records if r.name.startswith("fairdeal") and r.levelno >= logging.WARNING]
    assert [r.getMessage() for r in lines] == ["store unavailable", "store available again"]
    assert not any(r.exc_info for r in caplog.records)
    assert lines[1].fields["refused"] == 24  # the rounds refused after the first
