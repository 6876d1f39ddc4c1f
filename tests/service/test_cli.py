"""The fairdeal command: keys, export, sweep; and serve under a real gunicorn on a loopback port."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest
from click.testing import CliRunner

from fairdeal.cli import main
from fairdeal.verifier.reader import parse_transcript
from tests.service.checks import check_finished
from tests.service.client import Api, play_to_end
from tests.service.conftest import make_app
from tests.service.redis_servers import free_port


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


class Http:
    """The Api client's interface over real HTTP."""

    def __init__(self, base: str):
        self.base = base

    class Resp:
        def __init__(self, status, body: bytes, ctype: str):
            self.status_code, self._body, self.mimetype = status, body, ctype.split(";")[0]

        def get_json(self):
            return json.loads(self._body)

        def get_data(self, as_text=False):
            return self._body.decode() if as_text else self._body

    def _req(self, method, path, json_body=None, headers=None):
        data = json.dumps(json_body).encode() if json_body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=dict(headers or {}))
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return self.Resp(r.status, r.read(), r.headers.get("Content-Type", ""))
        except urllib.error.HTTPError as e:
            return self.Resp(e.code, e.read(), e.headers.get("Content-Type", ""))

    def post(self, path, json=None, headers=None):
        return self._req("POST", path, json, headers)

    def get(self, path, headers=None):
        return self._req("GET", path, None, headers)


@pytest.fixture(params=["redis", "sqlite"])
def served(request, tmp_path):
    port = free_port()
    env = dict(os.environ, FAIRDEAL_DATA=str(tmp_path))
    env.pop("FAIRDEAL_REDIS_URL", None)
    if request.param == "redis":  # else the embedded store, shared by the two workers
        env["FAIRDEAL_REDIS_URL"] = request.getfixturevalue("redis_url")
    log = open(tmp_path / "serve.log", "wb")  # a file, not a pipe: a full pipe would block the server
    proc = subprocess.Popen([sys.executable, "-m", "fairdeal.cli", "serve", "--port", str(port), "--workers", "2"],
                            env=env, stdout=subprocess.DEVNULL, stderr=log)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/readyz", timeout=1).read()
                break
            except OSError:
                if proc.poll() is not None:
                    pytest.fail("fairdeal serve exited: " + (tmp_path / "serve.log").read_text()[-2000:])
                time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


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
