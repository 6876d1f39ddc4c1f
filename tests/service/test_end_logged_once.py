""" "game ended" is logged once, by the process whose append of the end record won (issue 21, §4): another
process that finds the end in the store and marks the table over says nothing (both said it)."""

from __future__ import annotations

import logging

import pytest

from fairdeal.service.app import create_app
from fairdeal.service.config import Config
from fairdeal.service.store.redis import RedisStore
from fairdeal.service.store.sqlite import SqliteStore
from tests.service.client import Api


@pytest.mark.parametrize("kind", ["sqlite", "redis"])
def test_the_end_is_logged_by_the_process_that_appended_it_only(request, tmp_path, kind, caplog):
    def store():
        if kind == "sqlite":
            return SqliteStore(str(tmp_path / "data" / "fairdeal.sqlite3"))
        return RedisStore(request.getfixturevalue("redis_url"))

    cfg = Config(data_dir=str(tmp_path / "data"))
    a, b = (create_app(cfg, store=store()) for _ in range(2))
    api_a, api_b = Api(a.test_client()), Api(b.test_client())
    p = api_a.player()
    gid = api_a.table(p, rule_set="spades", clocks="off")["id"]
    api_a.start(p, gid)
    games_a = a.extensions["fairdeal"].games
    caplog.set_level(logging.INFO)
    logging.getLogger("fairdeal").addHandler(caplog.handler)  # the service's logs do not propagate to the root
    request.addfinalizer(lambda: logging.getLogger("fairdeal").removeHandler(caplog.handler))
    c = games_a.get(gid)
    with c.lock:  # as Games.act runs it: A appends the end, B finds it before A marks the table over, A marks it
        games_a.appender.finish(c, "cancelled")
        assert api_b.view(p, gid)["status"] == "over"
        games_a.record_end(c)
    assert api_a.view(p, gid)["status"] == "over"
    ended = [r for r in caplog.records if r.getMessage() == "game ended"]
    assert len(ended) == 1 and ended[0].fields["game"] == gid and ended[0].fields["reason"] == "cancelled"
    for x in (a, b):
        x.extensions["fairdeal"].store.close()
