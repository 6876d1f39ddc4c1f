"""FAIRDEAL_REDIS_WAIT_REPLICAS: an append is acknowledged only once that many replicas have it (Redis WAIT), on a
throwaway primary with one replica; too few replicas in time is a 503 that a retry with the same key settles."""

from __future__ import annotations

import json
import uuid

import pytest
import redis

from fairdeal.service.store.base import DUPLICATE, OK, StoreUnavailable
from fairdeal.service.store.redis import RedisStore
from tests.service import redis_servers
from tests.service.client import Api
from tests.waiting import wait_for

pytestmark = pytest.mark.redis


@pytest.fixture(scope="module")
def primary_with_replica(tmp_path_factory):
    d = tmp_path_factory.mktemp("replicated")
    (d / "p").mkdir()
    (d / "r").mkdir()
    primary, port = redis_servers.start_server(str(d / "p"))
    replica, rport = redis_servers.start_server(str(d / "r"), "--replicaof", "127.0.0.1", "0")
    r = redis.Redis(port=rport, decode_responses=True)
    r.replicaof("127.0.0.1", port)
    wait_for(lambda: r.info("replication").get("master_link_status") == "up", timeout=20, what="the replica in sync")
    yield f"redis://127.0.0.1:{port}/0", r
    redis_servers.stop([replica, primary])


def test_an_append_waits_for_the_replica_and_is_on_it(primary_with_replica):
    url, replica = primary_with_replica
    store = RedisStore(url, wait_replicas=1, wait_timeout=5)
    g = uuid.uuid4().hex[:16]
    assert store.append(g, 0, "r0", 1.0).status == OK
    assert store.append(g, 1, "r1", 2.0, "k", "h").status == OK
    # acknowledged means replicated: the replica has it the moment the append returns
    assert replica.lrange(f"fd:{{{g}}}:log", 0, -1) == ["r0", "r1"]


def test_too_few_replicas_in_time_is_unavailable_and_a_retry_is_acknowledged(primary_with_replica):
    url, _ = primary_with_replica
    strict = RedisStore(url, wait_replicas=2, wait_timeout=0.05)  # there is only one replica
    g = uuid.uuid4().hex[:16]
    with pytest.raises(StoreUnavailable, match="1 of the 2 replicas"):
        strict.append(g, 0, "r0", 1.0, "k", "h")
    assert strict.records(g) == ["r0"]  # written on the primary: a retry must not write it twice
    again = RedisStore(url, wait_replicas=1, wait_timeout=5).append(g, 0, "r0", 1.0, "k", "h")
    assert (again.status, again.seq) == (DUPLICATE, 0)


def test_the_service_answers_503_with_retry_after_when_replicas_lag(primary_with_replica, tmp_path, request):
    url, _ = primary_with_replica
    from fairdeal.service.app import create_app
    from fairdeal.service.config import Config

    app = create_app(Config(data_dir=str(tmp_path), redis_url=url, redis_wait_replicas=1, redis_wait_timeout=5))
    api = Api(app.test_client())
    p = api.player()
    t = api.table(p, rule_set="spades", clocks="off")
    api.start(p, t["id"])
    v = api.view(p, t["id"])
    assert api.move(p, t["id"], v["seq"], v["legal_moves"][0]).status_code == 201
    strict = create_app(Config(data_dir=str(tmp_path), redis_url=url, redis_wait_replicas=2, redis_wait_timeout=0.05))
    v = api.view(p, t["id"])
    r = Api(strict.test_client()).move(p, t["id"], v["seq"], v["legal_moves"][0], key="retry-me")
    assert r.status_code == 503 and r.headers["Retry-After"] == "5", r.get_json()
    assert r.get_json()["code"] == "store-unavailable"
    r = api.move(p, t["id"], v["seq"], v["legal_moves"][0], key="retry-me")  # the client's retry
    assert r.status_code in (200, 201) and r.get_json()["replayed"] is True, r.get_json()


def test_a_commit_or_end_record_written_with_its_log_leaf_waits_for_the_replica_too(primary_with_replica):
    url, replica = primary_with_replica
    g = uuid.uuid4().hex[:16]
    leaf = json.dumps({"game_id": g, "type": "commitment"})
    assert (
        RedisStore(url, wait_replicas=1, wait_timeout=5).append_with_leaf(g, 0, "c", 1.0, "commitment", leaf).status
        == OK
    )
    assert replica.lrange(f"fd:{{{g}}}:log", 0, -1) == ["c"]
    with pytest.raises(StoreUnavailable):
        RedisStore(url, wait_replicas=2, wait_timeout=0.05).append_with_leaf(g, 1, "e", 2.0, "ending", leaf)


# ---- Redis Cluster: the append that waits for replicas goes through a pipeline to the game's primary itself, so it
# must follow the cluster's redirections (a MovedError answered 500 at a failover). The session's cluster has no
# replica, so WAIT counts 0 and the append ends in StoreUnavailable (503), once it has been appended where the slot is.


def _primaries(store, game_id: str):
    from fairdeal.service.store import keys

    cluster = store.r
    slot = cluster.keyslot(keys.log(game_id))
    owner = cluster.nodes_manager.get_node_from_slot(slot)
    other = next(n for n in cluster.get_primaries() if n.name != owner.name)
    return cluster, slot, owner, other


def test_on_a_cluster_an_append_that_waits_follows_moved(redis_cluster_url):
    store = RedisStore(redis_cluster_url, wait_replicas=1, wait_timeout=0.05)
    g = uuid.uuid4().hex[:16]
    cluster, slot, owner, other = _primaries(store, g)
    cluster.nodes_manager.slots_cache[slot] = [other]  # the slot moved (a failover) and this client has not heard
    with pytest.raises(StoreUnavailable):
        store.append(g, 0, "r0", 1.0)
    assert store.records(g) == ["r0"]  # appended once, where the slot is
    assert cluster.nodes_manager.get_node_from_slot(slot).name == owner.name  # and the slot map mended
    store.close()


def test_on_a_cluster_an_append_that_waits_follows_ask_during_a_migration(redis_cluster_url):
    """The source answers ASK (the game's keys are not there); on the target the three-key script is refused with
    TRYAGAIN while the slot is being rehashed: 503 (StoreUnavailable), nothing appended, and a retry once the
    slot is stable is appended."""
    store = RedisStore(redis_cluster_url, wait_replicas=1, wait_timeout=0.05)
    g = uuid.uuid4().hex[:16]
    cluster, slot, owner, other = _primaries(store, g)
    src, dst = (redis.Redis(host=n.host, port=n.port, decode_responses=True) for n in (owner, other))
    src_id, dst_id = src.execute_command("CLUSTER", "MYID"), dst.execute_command("CLUSTER", "MYID")
    dst.execute_command("CLUSTER", "SETSLOT", slot, "IMPORTING", src_id)
    src.execute_command("CLUSTER", "SETSLOT", slot, "MIGRATING", dst_id)
    try:
        with pytest.raises(StoreUnavailable, match="moving"):
            store.append(g, 0, "r0", 1.0)
    finally:  # the session's cluster as it was
        for r in (src, dst):
            r.execute_command("CLUSTER", "SETSLOT", slot, "STABLE")
    assert store.records(g) == []
    with pytest.raises(StoreUnavailable, match="replicas"):  # appended on the owner; no replica to wait for
        store.append(g, 0, "r0", 1.0)
    assert store.records(g) == ["r0"]
    store.delete_game(g)
    store.close()
