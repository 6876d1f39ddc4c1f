"""Games begun under fairdeal/1 before an upgrade go on under fairdeal/1: an open table starts with the seeds its
players gave in clear, a running game takes moves and ends with a fairdeal/1 end record, and both verify. A
fairdeal/1 table takes no commitment (it has no seating record to hold one)."""

from __future__ import annotations

import pytest

from fairdeal.core import fairness, writer
from fairdeal.core.checks import verify_transcript
from fairdeal.core.games import make_rules
from fairdeal.service.game import entry_text
from fairdeal.service.isotime import iso
from fairdeal.service.tables import new_id
from tests.service.client import Api, play_to_end
from tests.service.conftest import make_app


@pytest.fixture(params=["sqlite", "redis"])
def service(request, tmp_path, clock):
    app = make_app(tmp_path, request.param, request, now=clock)
    return Api(app.test_client()), app.extensions["fairdeal"]


def old_table(svc, host: dict, client_seed: str, started: bool) -> str:
    """A table as the fairdeal/1 service left it: its commit (and, started, its start) in the log, the seeds in
    clear in the table document, which has no "protocol" member."""
    rules = make_rules("spades", {}, 4)
    gid = new_id()  # the service refuses ids that are not its own (16 hex digits), old games' included
    seed = fairness.new_server_seed()
    svc.store.put_secret(gid, seed.hex())
    key = svc.keyring.current_key
    private = svc.keyring.private_for(key)
    now = iso(svc.games.now())
    commit = writer.make_commit(
        gid,
        rules.to_json(),
        fairness.commitment(seed, gid, rules.to_json(), "fairdeal/1"),
        key,
        now,
        protocol="fairdeal/1",
    )
    t = writer.new_transcript(private, commit)
    svc.store.append(gid, 0, entry_text({"commit": commit, "commit_signature": t["commit_signature"]}), 0.0)
    seats = [{"player": None, "name": f"Bot {i}", "bot": True, "client_seed": None, "gone": False} for i in range(4)]
    seats[0] = {"player": host["id"], "name": host["name"], "bot": False, "client_seed": client_seed, "gone": False}
    doc = {
        "id": gid,
        "host": host["id"],
        "host_name": host["name"],
        "rule_set": "spades",
        "players": 4,
        "settings": {},
        "clocks": {"card": None, "other": None},
        "status": "open",
        "created": now,
        "started": None,
        "ended": None,
        "end_reason": None,
        "seats": seats,
        "spectators": [],
        "commitment": commit["commitment"],
        "key": key,
    }
    if started:
        start = writer.make_start(
            commit,
            [writer.make_seat(i, s["name"], s["bot"], s["client_seed"]) for i, s in enumerate(seats)],
            doc["clocks"],
            now,
        )
        svc.store.append(
            gid, 1, entry_text({"start": start, "start_signature": writer.sign_record(private, start)}), 0.0
        )
        doc.update(status="playing", started=now)
    else:
        for s in seats[1:]:
            s.update(player=None, name=None, bot=False)
    svc.store.put_doc("table", gid, doc, 0)
    return gid


def test_a_running_fairdeal_1_game_ends_as_fairdeal_1_and_verifies(service):
    api, svc = service
    host = api.player("host")
    gid = old_table(svc, host, "old words", started=True)
    final = play_to_end(api, gid, [host])
    assert final["end_reason"] == "finished"
    t = api.get(f"/games/{gid}/transcript").get_json()
    assert t["protocol"] == "fairdeal/1"
    assert "deals" not in t["end"] and "seating" not in t
    report = verify_transcript(t, key=svc.keyring.current_key, client_seeds=[(0, "old words")])
    assert report.exit_code == 0 and report.protocol == "fairdeal/1", [c.to_json() for c in report.failed]


def test_an_open_fairdeal_1_table_starts_with_its_seeds_in_clear_and_takes_no_commitment(service):
    api, svc = service
    host = api.player("host")
    gid = old_table(svc, host, "old words", started=False)
    table = api.get(f"/tables/{gid}").get_json()
    assert table["protocol"] == "fairdeal/1" and table["status"] == "open"
    guest = api.player("guest")
    r = api.post(f"/tables/{gid}/join", guest, json={"client_seed_commitment": "ab" * 32})
    assert r.status_code == 409 and r.get_json()["code"] == "protocol-mismatch"
    started = api.start(host, gid)
    assert started["status"] == "playing"
    assert api.post(f"/tables/{gid}/cancel", host).status_code == 200
    t = api.get(f"/games/{gid}/transcript").get_json()
    assert t["protocol"] == "fairdeal/1" and t["start"]["seats"][0]["client_seed"] == "old words"
    assert verify_transcript(t, key=svc.keyring.current_key).exit_code == 0
