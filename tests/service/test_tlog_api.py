"""The transparency log through the API, on both stores: every commitment and every ending is a leaf, the table
and the final transcript carry their inclusion proofs, and the log's endpoints answer what docs/log.md says."""

from __future__ import annotations

import pytest

from fairdeal.core import merkle, tlog
from fairdeal.core.reader import parse_transcript
from tests.service.client import Api
from tests.service.conftest import make_app
from tests.service.tlog_isolation import redis_url  # noqa: F401 - a database of its own


def _cancelled_game(api: Api) -> tuple[dict, dict]:
    host = api.player()
    t = api.table(host, rule_set="spades")
    table = api.get(f"/tables/{t['id']}").get_json()
    api.post(f"/tables/{t['id']}/cancel", host)
    transcript = api.get(f"/games/{t['id']}/transcript").get_json()
    return table, transcript


def test_the_table_and_the_transcript_carry_their_leaves_and_proofs(api):
    table, transcript = _cancelled_game(api)
    head = table["log"]["head"]
    tlog.check_head(head, key=table["key"])
    assert set(table["log"]) == {"head", "checkpoint", "commitment"}
    assert tlog.check_log_member(transcript, key=table["key"]) == {
        "commitment": table["log"]["commitment"]["index"],
        "ending": transcript["log"]["ending"]["index"],
    }
    parse_transcript(transcript)  # the log member is where the format reserves it
    leaf = api.get(f"/log/leaves?start={transcript['log']['ending']['index']}&limit=1").get_json()["leaves"][0]
    assert leaf == tlog.ending_leaf(transcript)
    assert leaf["reason"] == "cancelled" and leaf["dealt"] is False


def test_a_doctored_transcript_is_not_in_the_log(api):
    _, transcript = _cancelled_game(api)
    doctored = dict(transcript, end=dict(transcript["end"], reason="finished"))
    with pytest.raises(tlog.LogError):
        tlog.check_log_member(doctored)


def test_head_inclusion_consistency_and_leaves(api):
    table, _ = _cancelled_game(api)
    first = api.get("/log/head").get_json()
    tlog.check_head(first)
    _cancelled_game(api)
    second = api.get(f"/log/games/{api.table(api.player(), rule_set='spades')['id']}").get_json()["head"]
    assert second["size"] >= first["size"] + 3
    assert api.get("/log/head").get_json() == second
    c = api.get(f"/log/consistency?first={first['size']}&second={second['size']}").get_json()
    assert c["first_root"] == first["root"] and c["second_root"] == second["root"]
    assert merkle.verify_consistency(
        first["size"], second["size"], tlog.head_root(first), tlog.head_root(second), tlog.proof_bytes(c["proof"])
    )
    i = table["log"]["commitment"]["index"]
    p = api.get(f"/log/leaves/{i}/proof").get_json()
    assert p["head"] == second and p["leaf"]["game_id"] == table["id"]
    assert tlog.inclusion(p["leaf"], i, second, p["proof"])
    old = api.get(f"/log/leaves/{i}/proof?size={first['size']}").get_json()
    assert old["head"] is None and old["root"] == first["root"] and tlog.inclusion(p["leaf"], i, first, old["proof"])
    page = api.get("/log/leaves?start=0&limit=2").get_json()
    assert len(page["leaves"]) == 2 and page["next"] == 2 and page["size"] == second["size"]
    everything = []
    start = 0
    while start is not None:
        page = api.get(f"/log/leaves?start={start}&limit=3").get_json()
        everything += page["leaves"]
        start = page["next"]
    tree = merkle.Tree(tlog.leaf_hash_of(leaf) for leaf in everything)
    assert len(tree) == second["size"] and tree.root().hex() == second["root"]


@pytest.mark.parametrize(
    "path, status, code",
    [
        ("/log/leaves/999999/proof", 404, "leaf-not-found"),
        ("/log/leaves/0/proof?size=999999", 422, "bad-tree-size"),
        ("/log/consistency?first=2&second=1", 422, "bad-tree-size"),
        ("/log/consistency?first=0", 400, "bad-request"),
        ("/log/consistency?first=0&second=999999", 422, "bad-tree-size"),
        ("/log/leaves?limit=0", 400, "bad-request"),
        ("/log/leaves?start=-1", 400, "bad-request"),
        ("/log/games/0123456789abcdef", 404, "game-not-in-log"),
    ],
)
def test_bad_requests_get_problems(api, path, status, code):
    _cancelled_game(api)
    r = api.get(path)
    assert r.status_code == status, r.get_json()
    assert r.get_json()["type"].endswith(code) or r.get_json().get("code") == code, r.get_json()


def test_switched_off_there_are_no_leaves_and_no_log(tmp_path, request):
    app = make_app(tmp_path, "sqlite", request, transparency_log=False)
    api = Api(app.test_client())
    table, transcript = _cancelled_game(api)
    assert "log" not in table and "log" not in transcript
    assert api.get("/log/head").status_code == 404
    assert app.extensions["fairdeal"].store.tlog_size() == 0


def test_a_finished_game_verifies_offline_with_its_log_proof(api):
    from fairdeal.core.checks import verify_transcript
    from tests.service.client import finished_game

    t, transcript = finished_game(api)
    report = verify_transcript(transcript, key=t["key"])
    assert report.exit_code == 0 and not report.failed, [c.detail for c in report.failed]
    (log_check,) = [c for c in report.checks if c.id == "log-inclusion"]
    assert log_check.status == "pass" and "commitment and ending" in log_check.detail
    assert transcript["log"]["ending"]["index"] > transcript["log"]["commitment"]["index"]
    leaf = api.get(f"/log/leaves/{transcript['log']['ending']['index']}/proof").get_json()["leaf"]
    assert leaf["reason"] == "finished" and leaf["dealt"] is True
    # another game's proof does not pass for this one
    _, other = _cancelled_game(api)
    swapped = dict(transcript, log=other["log"])
    report = verify_transcript(swapped, key=t["key"])
    assert [c.id for c in report.failed] == ["log-inclusion"]


def test_the_export_carries_each_transcripts_log_member(tmp_path, request):
    import io
    import json

    from fairdeal.service.export import export

    app = make_app(tmp_path, "sqlite", request)
    api = Api(app.test_client())
    table, _ = _cancelled_game(api)
    out = io.StringIO()
    assert export(app.extensions["fairdeal"], out) == 1
    (t,) = [json.loads(line) for line in out.getvalue().splitlines()]
    assert tlog.check_log_member(t, key=table["key"]).keys() == {"commitment", "ending"}


@pytest.mark.parametrize("store_kind", ["sqlite", "redis"])
def test_the_sweepers_round_sequences_and_signs_a_head_at_its_interval(tmp_path, request, clock, store_kind):
    from fairdeal.service import sweeper

    app = make_app(tmp_path, store_kind, request, now=clock, log_head_seconds=10)
    api, s = Api(app.test_client()), app.extensions["fairdeal"]
    api.table(api.player(), rule_set="spades")
    sweeper.log_tick(s)
    first = s.store.tlog_head()
    assert first["size"] == s.store.tlog_size() == 1
    api.table(api.player(), rule_set="spades")
    sweeper.log_tick(s)
    assert s.store.tlog_head() == first  # grown, but the last head is younger than the interval
    assert s.store.tlog_size() == 2  # ... though the new leaf is sequenced
    clock.advance(10)
    sweeper.log_tick(s)
    assert s.store.tlog_head()["size"] == 2
    clock.advance(60)
    sweeper.log_tick(s)
    assert s.store.tlog_head()["size"] == 2  # not grown: no new head
