"""The fairdeal command: keys, export, sweep; and serve under a real gunicorn on a loopback port."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from fairdeal.cli import main
from fairdeal.core.reader import parse_transcript
from tests.service.checks import check_finished
from tests.service.client import Api, finished_game, play_to_end
from tests.service.conftest import make_app
from tests.service.http import Http
from tests.service.served import served  # noqa: F401 - the live-server fixture
from tests.waiting import scaled


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
        play_to_end(
            api,
            t["id"],
            [p],
            choose=lambda v: v["suggested"] if v["suggested"] in v["legal_moves"] else v["legal_moves"][0],
        )
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
    audit = subprocess.run(
        [sys.executable, "-c", "from fairdeal.verify.cli import main; main()", "audit", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )
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
    svc.games.cache.reset(svc.games.cache.slot(t["id"]))  # forget this process's copy: the sweeper ran elsewhere
    assert svc.games.get(t["id"]).transcript["end"]["reason"] == "abandoned"


def test_a_full_game_through_gunicorn(served):
    api = Api(Http(served))
    _, transcript = finished_game(api)
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
        p.join(scaled(20))
    assert len({out.get() for _ in procs}) == 1
    assert len(list((tmp_path / "keys").glob("*.pem"))) == 1


def raw_http(base: str, request: bytes) -> tuple[int, dict, bytes]:
    """Send bytes as they are (no client library would send these) and read the whole answer."""
    host, port = base.split("//")[1].split(":")
    with socket.create_connection((host, int(port)), timeout=10) as s:
        s.sendall(request)
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), headers, body


@pytest.mark.parametrize("served", ["sqlite"], indirect=True)
def test_gunicorns_own_refusals_are_problem_json(served):
    """gunicorn answers these before the app sees them; they were HTML pages."""
    cases = {
        414: b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
        431: b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 9000 + b"\r\n\r\n",
        400: b"GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header Name: 1\r\n\r\n",
    }
    for status, request in cases.items():
        code, headers, body = raw_http(served, request)
        assert code == status, (status, body[:200])
        assert headers["Content-Type"] == "application/problem+json"
        problem = json.loads(body)
        assert problem["status"] == status and problem["type"] == "urn:fairdeal:problem:" + problem["code"]
        assert b"<html" not in body and b"bbbb" not in body and b"aaaa" not in body


def test_serve_takes_bind_workers_and_connections_from_the_environment_and_options(tmp_path, monkeypatch):
    """Without starting anything: the settings `fairdeal serve` hands gunicorn (gevent workers)."""
    from gunicorn.app.base import BaseApplication

    seen = {}
    monkeypatch.setattr(
        BaseApplication,
        "run",
        lambda self: seen.update(
            bind=self.cfg.bind,
            workers=self.cfg.workers,
            connections=self.cfg.worker_connections,
            worker_class=self.cfg.worker_class_str,
        ),
    )
    monkeypatch.setenv("FAIRDEAL_BIND", "0.0.0.0:9001")
    monkeypatch.setenv("FAIRDEAL_WORKERS", "3")
    monkeypatch.setenv("FAIRDEAL_CONNECTIONS", "2000")
    monkeypatch.setenv("FAIRDEAL_SWEEPER", "off")
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path / "metrics"))
    r = CliRunner().invoke(main, ["-d", str(tmp_path), "serve"])
    assert r.exit_code == 0, r.output
    assert seen == {"bind": ["0.0.0.0:9001"], "workers": 3, "connections": 2000, "worker_class": "gevent"}
    r = CliRunner().invoke(main, ["-d", str(tmp_path), "serve", "--port", "9002", "-w", "1", "--connections", "500"])
    assert r.exit_code == 0, r.output
    assert seen == {"bind": ["0.0.0.0:9002"], "workers": 1, "connections": 500, "worker_class": "gevent"}
    monkeypatch.delenv("FAIRDEAL_BIND")
    r = CliRunner().invoke(main, ["-d", str(tmp_path), "serve"])
    assert seen["bind"] == ["127.0.0.1:8000"]  # the code's default: loopback (the image sets 0.0.0.0:8000)


def finished_games(tmp_path, request, at: list[float]) -> list[str]:
    """Spades games played to the end at the given times (the app's clock)."""
    from tests.service.conftest import Clock

    clock = Clock(at[0])
    app = make_app(tmp_path, "sqlite", request, now=clock)
    api = Api(app.test_client())
    p = api.player()
    out = []
    for t in at:
        clock.t = t
        table = api.table(p, rule_set="spades", clocks="off")
        api.start(p, table["id"])
        play_to_end(
            api,
            table["id"],
            [p],
            choose=lambda v: v["suggested"] if v["suggested"] in v["legal_moves"] else v["legal_moves"][0],
        )
        out.append(table["id"])
    return out


def test_export_since_takes_a_date_an_iso_time_or_unix_seconds(tmp_path, request):
    import datetime as dt

    nov1 = dt.datetime(2026, 11, 1, tzinfo=dt.timezone.utc).timestamp()
    old, new = finished_games(tmp_path, request, [nov1 - 3600, nov1 + 3600])
    for since in ("2026-11-01", "2026-11-01T00:00:00Z", "2026-11-01T01:00:00+01:00", str(int(nov1))):
        r = CliRunner().invoke(main, ["-d", str(tmp_path / "data"), "export", "--since", since])
        assert r.exit_code == 0, r.output
        games = [json.loads(x)["commit"]["game_id"] for x in r.stdout.splitlines() if x.startswith("{")]
        assert games == [new], since
    r = CliRunner().invoke(main, ["-d", str(tmp_path / "data"), "export", "--since", "1 Nov"])
    assert r.exit_code == 2 and "is not a date (2026-11-01)" in r.output


def test_a_verifier_only_install_says_to_install_the_service_extras():
    """flask and redis blocked (as if not installed): the service commands say what to install; play and
    --version still work."""
    block = (
        "import sys; sys.modules['flask'] = None; sys.modules['redis'] = None; from fairdeal.cli import main; main()"
    )
    r = subprocess.run([sys.executable, "-c", block, "serve"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2
    assert "needs the service extras" in r.stderr and "pip install 'fairdeal[service]'" in r.stderr
    assert "Traceback" not in r.stderr
    r = subprocess.run([sys.executable, "-c", block, "--version"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.startswith("fairdeal")
    r = subprocess.run([sys.executable, "-c", block, "play", "--help"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "Traceback" not in r.stderr


def test_both_commands_say_the_one_version_of_the_package():
    """`fairdeal --version` said 0.2.0 and `fairdeal-verify --version` 0.1.0: both say the installed package's."""
    from importlib import metadata

    import fairdeal
    from fairdeal.verify.cli import cli as verify_cli

    want = metadata.version("fairdeal")
    assert CliRunner().invoke(main, ["--version"]).output.strip() == f"fairdeal, version {want}"
    assert CliRunner().invoke(main, ["-V"]).output.strip() == f"fairdeal, version {want}"
    assert CliRunner().invoke(verify_cli, ["--version"]).output.strip().endswith(f"version {want}")
    assert fairdeal.__version__ == want


def test_help_and_version():
    from fairdeal import __version__

    r = CliRunner().invoke(main, ["-h"])
    assert r.exit_code == 0 and all(c in r.output for c in ("serve", "sweep", "keys", "export", "play"))
    r = CliRunner().invoke(main, ["--version"])
    assert r.exit_code == 0 and r.output.strip() == f"fairdeal, version {__version__}"
    r = CliRunner().invoke(main, ["serve", "-h"])
    assert r.exit_code == 0 and "FAIRDEAL_BIND" in r.output and "FAIRDEAL_WORKERS" in r.output
