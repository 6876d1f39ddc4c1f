"""Client seeds are committed, then revealed (fairdeal/2): the API's side. A seat sits down with a commitment,
never the seed; the host's start fixes the seating (a signed seating record, status "revealing"); each committed
seat reveals seed and nonce, checked against its commitment; the last reveal writes the start record, and only
then does any card exist. A seat that does not reveal in time cancels the table with its signed trail."""

from __future__ import annotations

import json

import pytest

from fairdeal.core import fairness, keys
from fairdeal.core.canonical import canonical_json
from fairdeal.core.checks import verify_transcript
from fairdeal.service import sweeper
from tests.service.checks import check_ended
from tests.service.client import Api, play_to_end
from tests.service.conftest import make_app
from tests.waiting import scaled


@pytest.fixture(params=["redis", "sqlite"])
def timed(request, tmp_path, clock):
    app = make_app(tmp_path, request.param, request, now=clock, reveal_seconds=30.0)
    return Api(app.test_client()), app.extensions["fairdeal"], clock


def problem(r, status: int, code: str) -> dict:
    body = r.get_json()
    assert r.status_code == status and body["code"] == code, body
    assert r.headers["Content-Type"].startswith("application/problem+json")
    return body


def two_committed(api: Api, rule_set: str = "spades", **table):
    """A host at seat 0 and a guest at seat 2, both committed; returns (host, guest, id, nonces)."""
    host, guest = api.player("host"), api.player("guest")
    t = api.table(host, rule_set=rule_set, **table)
    nonces = {
        "host": api.commit(host, t["id"], "host's words"),
        "guest": api.commit(guest, t["id"], "guest's words", seat=2),
    }
    return host, guest, t["id"], nonces


# ----------------------------------------------------------------------------------------------- committing


def test_a_seed_in_clear_is_refused_at_the_table_and_at_join_with_the_reason(timed):
    api, svc, _ = timed
    p = api.player()
    body = problem(
        api.post("/tables", p, json={"rule_set": "spades", "client_seed": "my words"}), 422, "client-seed-in-clear"
    )
    assert "client_seed_commitment" in body["detail"] and "reveal" in body["detail"] and "last" in body["detail"]
    t = api.table(p, rule_set="spades")
    other = api.player()
    problem(api.post(f"/tables/{t['id']}/join", other, json={"client_seed": "mine"}), 422, "client-seed-in-clear")
    problem(api.post(f"/tables/{t['id']}/join", other, json={"nonce": "00" * 32}), 422, "client-seed-in-clear")
    assert svc.store.get_doc("table", t["id"])[0]["seats"][1]["player"] is None, "a refusal changes nothing"


def test_a_commitment_cannot_come_before_the_table_has_its_id(timed):
    api, _, _ = timed
    p = api.player()
    body = problem(
        api.post("/tables", p, json={"rule_set": "spades", "client_seed_commitment": "ab" * 32}),
        422,
        "commitment-needs-table",
    )
    assert "/join" in body["detail"]


@pytest.mark.parametrize("bad", ["AB" * 32, "ab" * 31, 5, "zz" * 32])
def test_a_malformed_commitment_is_refused(timed, bad):
    api, _, _ = timed
    p = api.player()
    t = api.table(p, rule_set="spades")
    problem(
        api.post(f"/tables/{t['id']}/join", p, json={"client_seed_commitment": bad}), 422, "bad-client-seed-commitment"
    )


def test_the_host_commits_after_creating_and_may_replace_it_while_open(timed):
    api, svc, _ = timed
    p = api.player()
    t = api.table(p, rule_set="spades")
    assert [s["committed"] for s in t["seats"]] == [False] * 4
    first = api.commit(p, t["id"], "first words")
    second = api.commit(p, t["id"], "second words")
    doc = svc.store.get_doc("table", t["id"])[0]
    assert doc["seats"][0]["client_seed_commitment"] == fairness.client_seed_commitment(t["id"], "second words", second)
    assert first != second
    table = api.get(f"/tables/{t['id']}").get_json()
    assert table["seats"][0]["committed"] and not table["seats"][0]["revealed"]
    problem(api.post(f"/tables/{t['id']}/join", p, json={}), 409, "already-seated")


# ----------------------------------------------------------------------------------------------- revealing


def test_the_start_waits_for_every_committed_seat_and_no_card_exists_before(timed):
    api, svc, clock = timed
    host, guest, gid, nonces = two_committed(api)
    started = api.start(host, gid)
    assert started["status"] == "revealing" and started["protocol"] == "fairdeal/2"
    assert started["reveal_deadline"] == "2027-01-15T08:00:30.000Z"
    assert [(s["bot"], s["committed"], s["revealed"]) for s in started["seats"]] == [
        (False, True, False),
        (True, False, False),
        (False, True, False),
        (True, False, False),
    ]
    header = api.get(f"/games/{gid}/start").get_json()
    assert header["start"] is None and header["seating"] is not None
    assert keys.verify(started["key"], canonical_json(header["seating"]), header["seating_signature"])
    assert header["seating"]["reveal_deadline"] == started["reveal_deadline"]
    view = api.view(host, gid)
    assert view["status"] == "revealing" and view["view"] is None and view["legal_moves"] == []
    problem(api.move(host, gid, 0, {"kind": "bid", "value": 3}), 409, "not-started")
    assert svc.games.get(gid).live is None, "no game state, so no deal, before every reveal"

    after_one = api.reveal(guest, gid, "guest's words", nonces["guest"])
    assert after_one["status"] == "revealing" and after_one["seats"][2]["revealed"]
    assert "guest's words" not in json.dumps(api.get(f"/tables/{gid}").get_json())
    assert api.get(f"/games/{gid}/start").get_json()["start"] is None
    again = api.reveal(guest, gid, "guest's words", nonces["guest"])  # a retry is harmless
    assert again["status"] == "revealing"

    playing = api.reveal(host, gid, "host's words", nonces["host"])
    assert playing["status"] == "playing" and playing["started"]
    start = api.get(f"/games/{gid}/start").get_json()["start"]
    assert [(s["client_seed"], s["nonce"]) for s in start["seats"]] == [
        ("host's words", nonces["host"]),
        (None, None),
        ("guest's words", nonces["guest"]),
        (None, None),
    ]
    assert [s["client_seed_commitment"] for s in start["seats"]] == [
        s["client_seed_commitment"] for s in header["seating"]["seats"]
    ]
    assert api.view(host, gid)["view"]["hand"], "cards exist now"


def test_a_reveal_that_does_not_open_the_commitment_is_refused_and_changes_nothing(timed):
    api, svc, _ = timed
    host, guest, gid, nonces = two_committed(api)
    api.start(host, gid)
    before = svc.store.get_doc("table", gid)
    for body in (
        {"client_seed": "guest's wordz", "nonce": nonces["guest"]},
        {"client_seed": "guest's words", "nonce": fairness.new_nonce()},
        {"client_seed": "host's words", "nonce": nonces["host"]},
    ):  # another seat's opening
        body_ = problem(api.post(f"/tables/{gid}/reveal", guest, json=body), 422, "bad-reveal")
        assert "do not open your commitment" in body_["detail"]
    problem(
        api.post(f"/tables/{gid}/reveal", guest, json={"client_seed": "é", "nonce": nonces["guest"]}), 422, "bad-reveal"
    )
    problem(api.post(f"/tables/{gid}/reveal", guest, json={"client_seed": "x", "nonce": "short"}), 422, "bad-reveal")
    problem(api.post(f"/tables/{gid}/reveal", guest, json={"client_seed": "x"}), 400, "bad-request")
    # an unknown member is 422 unknown-field here too, named (it was 400 bad-request, alone among requests)
    extra = problem(
        api.post(
            f"/tables/{gid}/reveal", guest, json={"client_seed": "guest's words", "nonce": nonces["guest"], "salt": "x"}
        ),
        422,
        "unknown-field",
    )
    assert "'salt'" in extra["detail"]
    assert svc.store.get_doc("table", gid) == before


def test_who_may_reveal_and_when(timed):
    api, _, _ = timed
    host, guest, gid, nonces = two_committed(api)
    problem(
        api.post(f"/tables/{gid}/reveal", guest, json={"client_seed": "guest's words", "nonce": nonces["guest"]}),
        409,
        "table-not-revealing",
    )
    silent = api.player()
    api.post(f"/tables/{gid}/join", silent, json={"seat": 1})  # sits down without committing
    api.start(host, gid)
    problem(
        api.post(f"/tables/{gid}/reveal", api.player(), json={"client_seed": "x", "nonce": "00" * 32}),
        403,
        "not-seated",
    )
    problem(
        api.post(f"/tables/{gid}/reveal", silent, json={"client_seed": "x", "nonce": "00" * 32}), 409, "no-commitment"
    )


def test_a_table_where_nobody_committed_starts_at_once(timed):
    api, _, _ = timed
    p = api.player()
    t = api.table(p, rule_set="spades")
    started = api.start(p, t["id"])
    assert started["status"] == "playing" and started["reveal_deadline"] is None
    header = api.get(f"/games/{t['id']}/start").get_json()
    assert header["seating"]["reveal_deadline"] is None and header["start"] is not None


def test_a_whole_game_with_committed_seeds_verifies_and_checks_each_players_seed(timed):
    api, _, _ = timed
    host, guest, gid, nonces = two_committed(api, clocks="off")
    api.start_revealing(host, gid, [(host, "host's words", nonces["host"]), (guest, "guest's words", nonces["guest"])])
    final = play_to_end(api, gid, [host, guest])
    assert final["end_reason"] == "finished"
    t = api.get(f"/games/{gid}/transcript").get_json()
    report = verify_transcript(
        t, key=api.get("/keys").get_json()["current"], client_seeds=[(0, "host's words"), (2, "guest's words")]
    )
    assert report.exit_code == 0, [c.to_json() for c in report.failed]
    assert report.check("client-seeds").fields["given"] == 2


# ---------------------------------------------------------------------------------- a seat that does not reveal


def test_a_seat_that_does_not_reveal_by_the_deadline_cancels_the_table_on_the_next_touch(timed):
    api, svc, clock = timed
    host, guest, gid, nonces = two_committed(api)
    api.start(host, gid)
    api.reveal(host, gid, "host's words", nonces["host"])
    clock.advance(29)
    assert api.get(f"/tables/{gid}").get_json()["status"] == "revealing"
    clock.advance(1)
    over = api.get(f"/tables/{gid}").get_json()
    assert over["status"] == "over" and over["end_reason"] == "not-revealed"
    problem(
        api.post(f"/tables/{gid}/reveal", guest, json={"client_seed": "guest's words", "nonce": nonces["guest"]}),
        409,
        "table-not-revealing",
    )
    t = api.get(f"/games/{gid}/transcript").get_json()
    check_ended(t, "not-revealed")
    assert "start" not in t and t["end"]["unrevealed"] == [2]
    assert t["end"]["reveals"] == [{"seat": 0, "client_seed": "host's words", "nonce": nonces["host"]}]
    assert t["end"]["server_seed"] == svc.store.get_secret(gid)
    report = verify_transcript(t, key=over["key"], client_seeds=[(0, "host's words")])
    assert report.exit_code == 0 and "seat 2 did not reveal" in report.check("result").detail


def test_the_sweeper_cancels_a_table_whose_reveal_deadline_passed(timed):
    api, svc, clock = timed
    host, guest, gid, nonces = two_committed(api)
    api.start(host, gid)
    sweeper.sweep_once(svc)
    assert not svc.games.get(gid).ended, "not before the deadline"
    clock.advance(31)
    assert sweeper.sweep_once(svc) >= 1
    assert svc.games.get(gid).ended
    assert svc.store.get_doc("table", gid)[0]["end_reason"] == "not-revealed"
    assert svc.store.get_doc("table", gid)[0]["status"] == "over"
    check_ended(api.get(f"/games/{gid}/transcript").get_json(), "not-revealed")


def test_a_committed_seat_that_leaves_before_revealing_cancels_the_table_at_once(timed):
    api, _, _ = timed
    host, guest, gid, nonces = two_committed(api)
    api.start(host, gid)
    left = api.post(f"/tables/{gid}/leave", guest).get_json()
    assert left["status"] == "over" and left["end_reason"] == "not-revealed"
    t = api.get(f"/games/{gid}/transcript").get_json()
    assert t["end"]["unrevealed"] == [0, 2] and t["end"]["reveals"] == []
    check_ended(t, "not-revealed")


def test_the_host_may_cancel_while_the_seats_reveal(timed):
    api, _, _ = timed
    host, guest, gid, nonces = two_committed(api)
    api.start(host, gid)
    api.reveal(guest, gid, "guest's words", nonces["guest"])
    assert api.post(f"/tables/{gid}/cancel", host).get_json()["end_reason"] == "cancelled"
    t = api.get(f"/games/{gid}/transcript").get_json()
    check_ended(t, "cancelled")
    assert t["end"]["reveals"][0]["seat"] == 2 and t["end"]["unrevealed"] == [0]


# --------------------------------------------------------------------------------------- nothing leaks early


def test_no_answer_shows_a_seed_or_nonce_before_the_start_record(timed):
    api, svc, _ = timed
    host, guest, gid, nonces = two_committed(api)
    watcher = api.player()
    api.post(f"/tables/{gid}/watch", watcher)
    api.start(host, gid)
    api.reveal(guest, gid, "guest's words", nonces["guest"])
    secrets_ = ["guest's words", nonces["guest"], "host's words", nonces["host"]]
    for who in (host, watcher, None):
        for path in (
            f"/tables/{gid}",
            f"/games/{gid}",
            f"/games/{gid}/transcript",
            f"/games/{gid}/start",
            f"/games/{gid}/events?after=0&wait=0",
            "/lobby",
        ):
            text = api.get(path, who).get_data(as_text=True)
            assert not any(s in text for s in secrets_), (path, who and who["name"])


def test_the_event_feed_answers_when_the_last_reveal_starts_the_game(timed):
    import threading
    import time

    api, svc, _ = timed
    host, guest, gid, nonces = two_committed(api)
    api.start(host, gid)
    api.reveal(host, gid, "host's words", nonces["host"])
    answer = {}

    def wait():
        t0 = time.monotonic()
        answer["events"] = api.get(f"/games/{gid}/events?after=0&wait=20", host).get_json()
        answer["seconds"] = time.monotonic() - t0

    waiter = threading.Thread(target=wait)
    waiter.start()
    time.sleep(0.3)
    api.reveal(guest, gid, "guest's words", nonces["guest"])
    waiter.join(scaled(25))
    # woken by the reveal, not by the 20 s wait running out (however busy the machine)
    assert answer["events"]["game"]["status"] == "playing" and answer["seconds"] < 19
