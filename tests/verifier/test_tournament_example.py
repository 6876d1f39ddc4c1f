"""The example tournament of docs/tournaments.md verifies, prints what the page shows, and is what its script
makes; changed, it fails with exit status 1."""

import json
import subprocess
import sys
from pathlib import Path

from scripts.make_tournament_example import example

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "examples" / "tournament" / "spades-swiss.json"
COMMAND = "$ fairdeal-verify tournament --key docs/examples/example-key.txt docs/examples/tournament/spades-swiss.json"


def run(*args):
    return subprocess.run(
        [sys.executable, "-m", "fairdeal.verify.cli", *args], capture_output=True, text=True, cwd=ROOT, timeout=120
    )


def test_the_example_verifies_and_prints_what_the_page_shows():
    doc = (ROOT / "docs" / "tournaments.md").read_text()
    start = doc.index(COMMAND) + len(COMMAND) + 1
    out = run(*COMMAND.split()[2:])
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout == doc[start : doc.index("```", start)]


def test_the_example_is_what_its_script_makes():
    assert json.loads(EXAMPLE.read_text()) == example()


def test_a_changed_example_fails_with_status_1(tmp_path):
    data = json.loads(EXAMPLE.read_text())
    data["end"]["standings"][0]["points"] += 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    out = run("tournament", "--key", "docs/examples/example-key.txt", str(bad))
    assert out.returncode == 1
    assert "FAIL  tournament-signatures" in out.stdout


def test_a_table_of_the_example_verifies_alone_with_its_board_seed(tmp_path):
    rnd = json.loads(EXAMPLE.read_text())["rounds"][0]
    game = tmp_path / "game.json"
    game.write_text(json.dumps(rnd["games"][0]))
    ok = run("--key", "docs/examples/example-key.txt", str(game), "--board-seed", rnd["result"]["board_seed"])
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert run("--key", "docs/examples/example-key.txt", str(game)).returncode == 2
