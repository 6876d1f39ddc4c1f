"""The fairdeal command: keys, export, sweep; and serve under a real gunicorn on a loopback port."""
from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from fairdeal.cli import main
from fairdeal.verifier.reader import parse_transcript
from tests.service.checks import check_finished
from tests.service.client import Api, play_to_end
from tests.service.conftest import make_app
from tests.service.http import Http, serving


def test_keys_are_created_on_first_run_and_rotated(tmp_path):
    r = CliRunner().invoke(main, ["-d", str(tmp_path), "keys"])
    assert r.exit_code == 0 and r.output.startswith("* ed25519:")
    first = r.output.split()[1]
    r = CliRunner().invoke(main, ["-d", str(tmp_path), "keys", "rotate"])
    assert r.exit_code == 0
    lines = CliRunner().invoke(main, ["-d", str(tmp_path), "keys", "list"]).output.splitlines()
    assert len(lines) == 2 and lines[0].startswith("  " + first) and lines[1].startswith("* ")


def test_export_writes_finished_transcripts_as_json_lines(tmp_path, request):
    app = make_app(tmp_path, "sqlite", request)
    api = Api(app.test_client())
    p = api.player()
    finished = []
    for _ in range(2):
        t = api.table(p, rule_set="spades")
        api.start(p, t["id"])
        play_to_end(api, t["id"], [p], choose=lambda v: v["suggested"] if v["suggested"] in v["legal_moves"]
                    else v["legal_moves"][0])
        finished.append(t["id"])
    api.table(p, rule_set="spades")  # open: not exported
    out = tmp_path / "out.jsonl"
    r = CliRunner().invoke(main, ["-d", str(tmp_path / "data"), "export", "-o", str(out)])
    assert r.exit_code == 0, r.output
    lines = out.read_text().splitlines()
    assert [json.loads(x)["commit"]["game_id"] for x in lines] == finished
    for line in lines:
        check_finished(json.loads(line))
    # the auditors' tool reads the export as it is
    audit = subprocess.run([sys.executable, "-c", "from fairdeal.verifier.cli import main; main()", "audit", str(out)],
                           capture_output=True, text=True, timeout=120)
    assert audit.returncode == 0, audit.stdout + audit.stderr


def test_sweep_once_ends_a_silent_game(tmp_path, request, monkeypatch):
    app = make_app(tmp_path, "sqlite", request, abandon_after=0.5)
    api = Api(app.test_client())
    p = api.player()
    t = api.table(p, rule_set="spades", clocks="off")
    api.start(p, t["id"])
    time.sleep(0.7)
    monkeypatch.setenv("FAIRDEAL_ABANDON_AFTER", "0.5")
    r = CliRunner().invoke(main, ["-d", str(tmp_path / "data"), "sweep", "--once"])
    assert r.exit_code == 0, r.output
    svc = app.extensions["fairdeal"]
    svc.games._reset(svc.games.slot(t["id"]))  # forget this process's copy: the sweeper ran elsewhere
    assert svc.games.get(t["id"]).transcript["end"]["reason"] == "abandoned"


@pytest.fixture(params=["redis", "sqlite"])
def served(request, tmp_path):
    # the embedded store is shared by the two workers
    url = request.getfixturevalue("redis_url") if request.param == "redis" else None
    with serving(tmp_path, url, workers=2) as base:
        yield base


def test_a_full_game_through_gunicorn(served):
    api = Api(Http(served))
    p = api.player()
    t = api.table(p, rule_set="spades")
    api.start(p, t["id"])
    play_to_end(api, t["id"], [p], choose=lambda v: v["suggested"] if v["suggested"] in v["legal_moves"]
                else v["legal_moves"][0])
    transcript = api.get(f"/games/{t['id']}/transcript").get_json()
    check_finished(transcript, api.get("/keys").get_json()["current"])
    assert parse_transcript(transcript)["end"]["reason"] == "finished"


def _make_ring(path, out):
    from fairdeal.service.signing import KeyRing
    out.put(KeyRing(path).current_key)


def test_processes_starting_together_create_one_key(tmp_path):
    import multiprocessing
    ctx = multiprocessing.get_context("fork")
    out = ctx.Queue()
    procs = [ctx.Process(target=_make_ring, args=(str(tmp_path), out)) for _ in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(20)
    assert len({out.get() for _ in procs}) == 1
    assert len(list((tmp_path / "keys").glob("*.pem"))) == 1
