"""Nothing acknowledged is lost when Redis restarts, with Redis as deploy/ ships it (deploy/redis.conf, only its
port and dir replaced, and docker-compose.yml's ACL user): games played through the service with their receipts
kept, then redis-server is killed (-9), or stopped cleanly, or has its AOF rewritten and is killed, and started
again from its files. Every acknowledged move is in the store as it was, the service goes on with each game, and
each game's transcript verifies with the receipts given before the restart.

With `user default off` alone (the earlier redis.conf) the restart dropped every Lua append: Redis replays a
script's writes as MULTI/EXEC checked against the `default` user (redis/redis#14541)."""

from __future__ import annotations

import pytest

from fairdeal.service.store.redis import RedisStore
from tests.service.checks import check_ended, run_verifier
from tests.service.client import Api, play_to_end, suggested_or_first
from tests.service.deployed_redis import DeployedRedis

pytestmark = pytest.mark.redis


@pytest.fixture
def deployed(tmp_path):
    server = DeployedRedis(tmp_path).start()
    yield server
    server.close()


def _app(tmp_path, url: str):
    from fairdeal.service.app import create_app
    from fairdeal.service.config import Config

    return create_app(Config(data_dir=str(tmp_path / "data"), redis_url=url))


def _play(api: Api, p: dict, gid: str, moves: int, receipts: dict[int, str]) -> None:
    for _ in range(moves):
        v = api.view(p, gid)
        if v["status"] == "over":
            return
        r = api.move(p, gid, v["seq"], suggested_or_first(v))
        assert r.status_code == 201, r.get_json()
        receipts[r.get_json()["seq"]] = r.get_json()["receipt"]


RESTARTS = {
    "kill -9": lambda server: server.kill9(),
    "clean shutdown": lambda server: server.stop_cleanly(),
    "kill -9 after an AOF rewrite": None,  # rewritten half way through the play, below
}


@pytest.mark.parametrize("restart", list(RESTARTS))
def test_every_acknowledged_move_survives_a_redis_restart(deployed, tmp_path, restart):
    api = Api(_app(tmp_path, deployed.url).test_client())
    store = RedisStore(deployed.url)
    p = api.player()
    # 120s (House rules) for two: a whole game is some 45 moves of the player's and as many of the bot's
    finished, running = (api.table(p, rule_set="120s-house", players=2, clocks="off")["id"] for _ in range(2))
    receipts: dict[str, dict[int, str]] = {finished: {}, running: {}}
    for gid in (finished, running):
        api.start(p, gid)
    _play(api, p, running, 5, receipts[running])
    if restart == "kill -9 after an AOF rewrite":
        deployed.rewrite_aof()  # what was played so far is now in the rewritten base file
    _play(api, p, running, 5, receipts[running])
    play_to_end(api, finished, [p], choose=suggested_or_first, receipts=receipts[finished])
    before = {gid: store.records(gid) for gid in (finished, running)}
    assert len(before[running]) > 10 and len(before[finished]) > 40 and api.view(p, finished)["status"] == "over"

    (RESTARTS[restart] or (lambda server: server.kill9()))(deployed)
    deployed.start()

    after = RedisStore(deployed.url)
    for gid in (finished, running):
        assert after.records(gid) == before[gid], f"{gid}: records lost or changed by the restart ({restart})"
    assert "CRITICAL" not in deployed.log_text()  # no command refused while Redis loaded its files
    # the service goes on with the game it was playing (its pool reconnects), and both games verify
    _play(api, p, running, 3, receipts[running])
    assert api.post(f"/tables/{running}/cancel", p).status_code == 200
    for gid, reason in ((finished, "finished"), (running, "cancelled")):
        t = api.get(f"/games/{gid}/transcript").get_json()
        check_ended(t, reason)
        run_verifier(t, receipts=receipts[gid])
