"""Tournaments through the API (docs/api.md, "Tournaments"): created, registered with committed seeds, revealed,
started and played by the policies; the export verifies with `fairdeal-verify tournament`; bad input gets a
problem and changes nothing."""

from fairdeal.core.canonical import canonical_json, sha256_hex
from fairdeal.core.fairness import new_nonce
from fairdeal.core.tournament.check import CHECKS, verify_tournament
from fairdeal.core.tournament.seeds import entry_commitment


def _create(api, organiser, **body):
    r = api.post(
        "/tournaments",
        organiser,
        json={"rule_set": "spades", "format": "swiss", "rounds": 2, "play": "policies", **body},
    )
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def _sweep_until_over(app, api, tid, rounds):
    """The sweeper's passes, in process: one round each; the standings after every round are published."""
    from fairdeal.service.sweeper import sweep_once

    for r in range(1, rounds + 1):
        sweep_once(app.extensions["fairdeal"])
        t = api.get(f"/tournaments/{tid}").get_json()
        assert t["round"] == r and len(t["played"]) == r and t["standings"] == t["played"][-1]["standings"]
        assert t["status"] == ("over" if r == rounds else "playing")
        if r < rounds:  # no export, and no later board seed, while it is played
            assert api.get(f"/tournaments/{tid}/export").status_code == 409
    return t


def test_a_tournament_through_the_api_verifies(app):
    from tests.service.client import Api

    api = Api(app.test_client())
    org, alice = api.player(), api.player()
    t = _create(api, org)
    tid = t["id"]
    assert t["status"] == "registering" and len(t["commitment"]) == 64
    seed, nonce = "alice picks these words", new_nonce()
    r = api.post(
        f"/tournaments/{tid}/entries",
        alice,
        json={
            "name": "Alice's team",
            "members": ["alice", "alice's partner"],
            "client_seed_commitment": entry_commitment(tid, seed, nonce),
        },
    )
    assert r.status_code == 201, r.get_json()
    mine = r.get_json()["you"]["entry"]
    for i in range(4):
        r = api.post(
            f"/tournaments/{tid}/entries", org, json={"name": f"bots {i}", "members": [f"b{i}n", f"b{i}s"], "bot": True}
        )
        assert r.status_code == 201, r.get_json()
    assert api.get(f"/tournaments/{tid}/export").status_code == 409  # no seeds before the end
    assert api.post(f"/tournaments/{tid}/close", org).status_code == 200
    assert api.post(f"/tournaments/{tid}/start", org).get_json()["type"].endswith("reveals-missing")
    bad = api.post(f"/tournaments/{tid}/entries/{mine}/reveal", alice, json={"client_seed": "other", "nonce": nonce})
    assert bad.status_code == 422 and bad.get_json()["type"].endswith("bad-reveal")
    ok = api.post(f"/tournaments/{tid}/entries/{mine}/reveal", alice, json={"client_seed": seed, "nonce": nonce})
    assert ok.status_code == 200, ok.get_json()
    started = api.post(f"/tournaments/{tid}/start", org)
    assert started.status_code == 200, started.get_json()
    assert started.get_json()["status"] == "playing" and started.get_json()["round"] == 0
    _sweep_until_over(app, api, tid, 2)
    standings = api.get(f"/tournaments/{tid}/standings").get_json()
    assert [s["rank"] for s in standings["standings"]] == [1, 2, 3, 4, 5]
    assert "alice" in standings["ratings"] and standings["ratings"]["alice"]["sigma"] < 25 / 3
    export = api.get(f"/tournaments/{tid}/export").get_json()
    key = api.get("/keys").get_json()
    report = verify_tournament(export, key=export["tournament"]["key"])
    assert {c: s for c, s, _ in report.checks} == {**{c: "pass" for c in CHECKS}, "tournament-log": "pass"}, (
        report.checks
    )
    assert export["start"]["seeds"][mine]["client_seed"] == seed
    assert key  # the key the export names is one the service publishes
    assert export["tournament"]["key"] in str(key)


def test_bad_input_gets_a_problem_and_changes_nothing(api):
    org, other = api.player(), api.player()
    for body, code in [
        ({"format": "knockout"}, "bad-tournament"),
        ({"rounds": 0}, "bad-tournament"),
        ({"players": 5}, "bad-settings"),
        ({"colour": "red"}, "unknown-field"),
        ({"rule_set": "twenty-down", "format": "round-robin"}, "bad-tournament"),
    ]:
        r = api.post("/tournaments", org, json={"rule_set": "spades", **body})
        assert r.status_code in (400, 422) and r.get_json()["type"].endswith(code), (body, r.get_json())
    tid = _create(api, org)["id"]
    before = api.get(f"/tournaments/{tid}").get_json()
    for who, body, code in [
        (org, {"name": "x", "members": ["only one"]}, "bad-entry"),
        (other, {"name": "x", "members": ["a", "b"], "bot": True}, "bad-entry"),
        (org, {"name": "", "members": ["a", "b"]}, "bad-name"),
        (org, {"name": "x", "members": ["a", "b"], "client_seed_commitment": "zz"}, "bad-client-seed-commitment"),
    ]:
        r = api.post(f"/tournaments/{tid}/entries", who, json=body)
        assert r.status_code == 422 and r.get_json()["type"].endswith(code), (body, r.get_json())
    assert api.post(f"/tournaments/{tid}/close", other).status_code == 403
    assert api.post(f"/tournaments/{tid}/close", org).get_json()["type"].endswith("too-few-entries")
    assert api.get(f"/tournaments/{tid}").get_json() == before
    assert api.get("/tournaments/T-0000000000000000").status_code == 404
    assert api.get("/tournaments/{nope}").status_code == 404


def test_the_commitment_is_in_the_transparency_log_before_any_entry_and_the_ending_after(app):
    import json

    from fairdeal.core.transcript import record_hash
    from tests.service.client import Api

    api = Api(app.test_client())
    store = app.extensions["fairdeal"].store
    org = api.player()
    t = _create(api, org, rounds=1)

    def leaves():
        store.tlog_sequence()
        return [json.loads(x) for x in store.tlog_leaves(0, store.tlog_size()) if json.loads(x)["game_id"] == t["id"]]

    record = api.get(f"/tournaments/{t['id']}").get_json()
    (commit,) = leaves()
    assert commit["type"] == "commitment" and commit["commitment"] == t["commitment"] == record["commitment"]
    for i in range(2):
        api.post(
            f"/tournaments/{t['id']}/entries", org, json={"name": f"b{i}", "members": [f"{i}n", f"{i}s"], "bot": True}
        )
    api.post(f"/tournaments/{t['id']}/close", org)
    assert api.post(f"/tournaments/{t['id']}/start", org).status_code == 200
    assert len(leaves()) == 1  # no ending while it is played
    _sweep_until_over(app, api, t["id"], 1)
    export = api.get(f"/tournaments/{t['id']}/export").get_json()
    first, ending = leaves()
    assert first["commit"] == record_hash(export["tournament"])
    assert ending["type"] == "ending" and ending["time"] == export["end"]["ended"]
    # the served export proves both leaves in the log: fairdeal-verify tournament checks them under the key
    assert set(export["log"]) >= {"head", "commitment", "ending"}
    key = export["tournament"]["key"]
    report = verify_tournament(export, key=key)
    assert report.status("tournament-log") == "pass" and not report.failed, report.checks
    assert ending["transcript"] == sha256_hex(canonical_json({k: v for k, v in export.items() if k != "log"}))


def _tampered(export, change):
    import copy

    out = copy.deepcopy(export)
    change(out)
    return out


def test_a_tampered_log_proof_or_leaf_fails_the_tournament_log_check(app):
    from tests.service.client import Api

    api = Api(app.test_client())
    org = api.player()
    tid = _create(api, org, rounds=1)["id"]
    for i in range(2):
        api.post(f"/tournaments/{tid}/entries", org, json={"name": f"b{i}", "members": [f"{i}n", f"{i}s"], "bot": True})
    api.post(f"/tournaments/{tid}/close", org)
    api.post(f"/tournaments/{tid}/start", org)
    _sweep_until_over(app, api, tid, 1)
    export = api.get(f"/tournaments/{tid}/export").get_json()
    key = export["tournament"]["key"]
    assert verify_tournament(export, key=key).status("tournament-log") == "pass"

    def flip(h):
        return ("0" if h[0] != "0" else "1") + h[1:]

    def bad_proof(ex):
        proof = ex["log"]["ending"]["proof"]
        if proof:
            proof[0] = flip(proof[0])
        else:  # a log of one leaf has no proof: another index then
            ex["log"]["ending"]["index"] += 1

    def other_leaf(ex):  # the ending's proof is the commitment's: another leaf of the log
        ex["log"]["ending"] = dict(ex["log"]["commitment"])

    def stranger_head(ex):
        ex["log"]["head"]["key"] = "ed25519:" + "A" * 43

    for change in (bad_proof, other_leaf, stranger_head):
        report = verify_tournament(_tampered(export, change), key=key)
        assert report.failed == ["tournament-log"], (change.__name__, report.checks)
    no_log = _tampered(export, lambda ex: ex.pop("log"))
    assert verify_tournament(no_log, key=key).status("tournament-log") is None  # reported only when carried
