"""An auditor's key set across a real key rotation: games signed before and after `fairdeal keys rotate`, audited
in one run with the service's saved `GET /keys` answer, or with each key given by `--key`."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from fairdeal.cli import main as fairdeal_main
from fairdeal.core.keys import key_id
from tests.service.client import Api, play_to_end
from tests.service.conftest import make_app
from tests.verifier.cli_run import run


def _finish_game(api: Api, p: dict) -> str:
    t = api.table(p, rule_set="spades", clocks="off")
    api.start(p, t["id"])
    play_to_end(api, t["id"], [p])
    return t["id"]


@pytest.fixture(scope="module")
def rotated(tmp_path_factory, request):
    """Two games under key A, a rotation by the service's command, two games under key B; the export, the /keys
    answer saved to a file, and both keys."""
    tmp = tmp_path_factory.mktemp("rotation")
    data = str(tmp / "data")
    app = make_app(tmp, "sqlite", request)
    api = Api(app.test_client())
    p = api.player()
    key_a = api.get("/keys").get_json()["current"]
    before = [_finish_game(api, p) for _ in range(2)]
    log_before = _log_copy(app, tmp / "log-before.json", before[-1])  # a head signed by key A
    r = CliRunner().invoke(fairdeal_main, ["-d", data, "keys", "rotate"])
    assert r.exit_code == 0, r.output
    published = api.get("/keys").get_json()
    key_b = published["current"]
    assert key_b != key_a
    after = [_finish_game(api, p) for _ in range(2)]
    log_after = _log_copy(app, tmp / "log-after.json", after[-1])  # a head signed by key B
    export = tmp / "export.jsonl"
    r = CliRunner().invoke(fairdeal_main, ["-d", data, "export", "-o", str(export)])
    assert r.exit_code == 0, r.output
    keys_json = tmp / "keys.json"
    keys_json.write_text(json.dumps(published))
    signed = {
        json.loads(line)["commit"]["game_id"]: json.loads(line)["commit"]["key"]
        for line in export.read_text().splitlines()
    }
    assert signed == {**{g: key_a for g in before}, **{g: key_b for g in after}}
    return {
        "export": export,
        "keys_json": keys_json,
        "a": key_a,
        "b": key_b,
        "published": published,
        "log_before": log_before,
        "log_after": log_after,
    }


def _log_copy(app, path, game_id: str):
    """The service's log as a watcher sees it, saved: a head covering `game_id` is signed for it first."""
    from fairdeal.core import logwatch

    client = app.test_client()
    assert client.get(f"/log/games/{game_id}").status_code == 200

    def get(url):
        return client.get(url.replace("http://fairdeal.test", "")).get_json()

    logwatch.save_copy(str(path), logwatch.watch_source("http://fairdeal.test", logwatch.LogCopy(), get=get).copy)
    return path


def test_keys_lists_both_keys_with_created_and_retired(rotated):
    a, b = rotated["published"]["keys"]
    assert (a["key"], a["current"], b["key"], b["current"]) == (rotated["a"], False, rotated["b"], True)
    assert a["retired"] is not None and a["retired"] >= a["created"] and b["retired"] is None
    assert b["created"] >= a["retired"]


def _audit(args, capsys):
    code, out, err = run(["audit", "--jobs", "1", "--json", *args], capsys)
    return code, json.loads(out)


def test_the_saved_keys_json_verifies_games_from_before_and_after_the_rotation(rotated, capsys):
    code, summary = _audit(["--key", str(rotated["keys_json"]), str(rotated["export"])], capsys)
    assert code == 0 and (summary["games"], summary["passed"]) == (4, 4)
    assert summary["signed_by"] == sorted(
        [
            {"key_id": key_id(rotated["a"]), "status": "current", "games": 2},
            {"key_id": key_id(rotated["b"]), "status": "current", "games": 2},
        ],
        key=str,
    )


def test_the_text_summary_names_each_key(rotated, capsys):
    code, out, _ = run(["audit", "--jobs", "2", "--key", str(rotated["keys_json"]), str(rotated["export"])], capsys)
    assert code == 0 and "4 passed, 0 failed" in out
    for k in ("a", "b"):
        assert f"key {key_id(rotated[k])} 2 game(s) (current at the game's time)" in out


def test_key_given_twice_uses_both(rotated, capsys):
    code, summary = _audit(["--key", rotated["a"], "--key", rotated["b"], str(rotated["export"])], capsys)
    assert code == 0 and summary["passed"] == 4
    # no times with bare keys: which key signed is known, not when it was current
    assert {s["status"] for s in summary["signed_by"]} == {"unknown"}


def test_only_the_new_key_fails_the_old_games(rotated, capsys):
    code, summary = _audit(["--key", rotated["b"], str(rotated["export"])], capsys)
    assert code == 1 and (summary["passed"], summary["failed"]) == (2, 2)
    assert summary["failed_by_check"] == {"signature-start": 2, "signature-transcript": 2}
    # the old games' signatures do not verify under the key given: it signed only the new ones
    assert summary["signed_by"] == [{"key_id": key_id(rotated["b"]), "status": "unknown", "games": 2}]


def test_a_game_verified_alone_says_which_key_and_that_it_was_current(rotated, tmp_path, capsys):
    first = rotated["export"].read_text().splitlines()[0]
    game = tmp_path / "old.json"
    game.write_text(first)
    code, out, _ = run(["--key", str(rotated["keys_json"]), str(game)], capsys)
    assert code == 0
    assert (
        f"key: {key_id(rotated['a'])}, the key you gave ({rotated['keys_json']}); the service's current key "
        f"when the game was committed"
    ) in out
    code, out, _ = run(["--json", "--key", str(rotated["keys_json"]), str(game)], capsys)
    key = json.loads(out)["key"]
    assert key["status"] == "current" and key["retired"] == rotated["published"]["keys"][0]["retired"]


def test_a_keys_file_with_one_key_a_line(rotated, tmp_path, capsys):
    listed = tmp_path / "keys.txt"
    listed.write_text(f"# the service's keys\n{rotated['a']}\n\n{rotated['b']}\n")
    code, summary = _audit(["--key", str(listed), str(rotated["export"])], capsys)
    assert code == 0 and summary["passed"] == 4


def test_pinning_the_key_set_then_auditing_against_the_pins(rotated, tmp_path, capsys, no_pins):
    game = tmp_path / "new.json"
    game.write_text(rotated["export"].read_text().splitlines()[-1])
    code, _, err = run(["--key", str(rotated["keys_json"]), "--pin", str(game)], capsys)
    assert code == 0 and "pinned" in err
    code, summary = _audit([str(rotated["export"])], capsys)
    assert code == 0 and summary["passed"] == 4 and summary["checked_only_against_own_key"] == 0
    assert {s["status"] for s in summary["signed_by"]} == {"current"}
    service = key_id(rotated["b"])
    code, summary = _audit(["--service", service, str(rotated["export"])], capsys)
    assert code == 0 and summary["passed"] == 4
    code, out, err = run(["audit", "--service", "elsewhere", str(rotated["export"])], capsys)
    assert code == 2 and "No key is pinned for the service 'elsewhere'" in err


def test_a_key_folder_from_before_retired_times_takes_the_next_keys_created_time(tmp_path):
    from fairdeal.service.signing import KeyRing

    ring = KeyRing(str(tmp_path))
    ring.rotate()
    index = tmp_path / "keys" / "index.json"
    meta = json.loads(index.read_text())
    for m in meta:
        m.pop("retired", None)
    index.write_text(json.dumps(meta))
    old, new = KeyRing(str(tmp_path)).public_keys()
    assert old["retired"] == new["created"] and new["retired"] is None
    r = CliRunner().invoke(fairdeal_main, ["-d", str(tmp_path), "keys", "list"])
    assert f"retired {new['created']}" in r.output.splitlines()[0]


def test_the_log_watcher_keeps_going_across_the_rotation_with_the_keys_json(rotated, tmp_path, capsys):
    """Issue 23: the watcher saw heads of key A, the service rotated to key B; with the saved /keys answer every
    head is checked against the key of its time, and the state is saved on each run."""
    state, kept = tmp_path / "state.json", tmp_path / "copy.json"
    checkpoints = []
    for copy in ("log_before", "log_after"):
        code, out, err = run(
            ["log", str(rotated[copy]), "--state", str(state), "--copy", str(kept), "--key", str(rotated["keys_json"])],
            capsys,
        )
        assert code == 0 and "LOG OK" in out, out + err
        checkpoints.append(json.loads(state.read_text())["head"]["key"])  # the state keeps the latest head
    assert checkpoints == [rotated["a"], rotated["b"]]
    assert {h["key"] for h in json.loads(kept.read_text())["heads"]} == {rotated["a"], rotated["b"]}
    # the new key alone cannot vouch for the old heads (kept in the copy: the state keeps only the latest)
    code, out, _ = run(["log", str(kept), "--key", rotated["b"]], capsys)
    assert code == 1 and "head-signature" in out
    code, out, _ = run(
        ["audit", str(rotated["export"]), "--log", str(kept), "--key", str(rotated["keys_json"]), "--jobs", "1"], capsys
    )
    assert code == 0 and "FAIL" not in out and "UNCHECKED" not in out, out
