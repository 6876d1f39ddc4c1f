"""`fairdeal tournament`, the terminal command, against a real `fairdeal serve` (the `served` fixture): it
registers the teams with committed seeds, fills with bots, runs the tournament, saves the export and verifies it;
the export verifies with `fairdeal-verify tournament` under the service's published key."""

import json
import subprocess
import sys
import urllib.request

from click.testing import CliRunner

from fairdeal.cli import main
from fairdeal.core.tournament.check import verify_tournament
from tests.service.served import served_fixture  # noqa: F401 - the live-server fixture


def test_a_tournament_run_from_the_terminal_verifies(served, tmp_path):
    out = tmp_path / "t.json"
    r = CliRunner().invoke(
        main,
        [
            "tournament",
            "--server",
            served,
            "--team",
            "Us=ann,bob",
            "--team",
            "Them=cy,di",
            "--bots",
            "2",
            "--rounds",
            "2",
            "--out",
            str(out),
        ],
    )
    assert r.exit_code == 0, r.output
    assert "every check passed" in r.output and "Us" in r.output and "bots 2 (bot)" in r.output
    export = json.loads(out.read_text())
    with urllib.request.urlopen(served + "/keys", timeout=30) as answer:
        keys = json.loads(answer.read())
    key = export["tournament"]["key"]
    assert key in json.dumps(keys)
    report = verify_tournament(export, key=key)
    assert report.exit_code == 0 and not report.failed
    assert [e["name"] for e in export["registration"]["entries"]] == ["Us", "Them", "bots 1", "bots 2"]
    assert all(s["client_seed"] for s in export["start"]["seeds"][:2])  # the teams' seeds were revealed
    tid = export["tournament"]["tournament_id"]
    # fairdeal-verify tournament URL: the export fetched from the service, checked under its key
    by_url = subprocess.run(
        [sys.executable, "-m", "fairdeal.verify.cli", "tournament", f"{served}/tournaments/{tid}/export", "--key", key],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert by_url.returncode == 0, by_url.stdout + by_url.stderr
    assert "every check passed" in by_url.stdout
    shown = CliRunner().invoke(main, ["tournament", "--server", served, "--show", tid])
    assert shown.exit_code == 0 and f"tournament {tid} (over)" in shown.output


def test_a_refused_request_says_why(served):
    r = CliRunner().invoke(
        main,
        [
            "tournament",
            "--server",
            served,
            "--rules",
            "spades",
            "--format",
            "round-robin",
            "--rounds",
            "9",
            "--bots",
            "2",
        ],
    )
    assert r.exit_code == 1 and "the service refused" in r.output


def test_a_person_joins_a_live_tournament_from_the_terminal_and_plays_its_tables(served, tmp_path):
    """`fairdeal tournament --join ID --member ... --auto`: registers with a committed seed, reveals it when
    registration closes, plays its live tables (the suggestion), and verifies the export."""
    from tests.waiting import scaled, wait_for
    from tests.web.client import HttpApi

    org = HttpApi(served).player("organiser")
    tid = org.post("/tournaments", {"rule_set": "spades", "rounds": 2})["id"]
    out = tmp_path / "joined.json"
    cli = subprocess.Popen(
        [sys.executable, "-m", "fairdeal.cli", "tournament", "--server", served, "--join", tid]
        + ["--member", "ann", "--member", "ann's partner", "--auto", "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        wait_for(lambda: len(org.get(f"/tournaments/{tid}")["entries"]) == 1, timeout=60, what="the terminal's entry")
        for i in range(2):
            org.post(f"/tournaments/{tid}/entries", {"name": f"bots {i}", "members": [f"b{i}n", f"b{i}s"], "bot": True})
        org.post(f"/tournaments/{tid}/close")
        wait_for(lambda: _started(org, tid), timeout=60, what="the terminal's reveal, then the start")
        output, _ = cli.communicate(timeout=scaled(600))
    finally:
        if cli.poll() is None:
            cli.kill()
            cli.wait(30)
    assert cli.returncode == 0, output
    assert "every check passed" in output and "seat" in output, output
    export = json.loads(out.read_text())
    assert export["registration"]["entries"][0]["name"] == "ann" and export["start"]["seeds"][0]["client_seed"]
    hers = [g for rnd in export["rounds"] for g in rnd["games"] if "ann" in [s["name"] for s in g["start"]["seats"]]]
    assert any(r["by"] == "player" for g in hers for r in g["records"]), "the terminal played no move of its own"


def _started(org, tid) -> bool:
    """The organiser's start, taken once every committed entry has revealed (refused with reveals-missing
    before)."""
    from fairdeal.client.http import Problem

    try:
        org.post(f"/tournaments/{tid}/start")
    except Problem as exc:
        if exc.code == "reveals-missing":
            return False
        raise
    return True
