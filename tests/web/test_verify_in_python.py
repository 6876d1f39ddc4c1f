"""The verify page runs fairdeal-verify's own Python (Pyodide in a worker, the installed fairdeal/core from
GET /verifier.zip): for a game of every rule set (bots, timeouts, a stand-in, a dealer-blind deal) every check
of `fairdeal-verify --json` runs in the page with the same result; a tampered move fails at its own record, as
the command line says; and a page loaded once checks with the network gone."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from fairdeal.core.blind.selfplay import blind_selfplay
from fairdeal.core.keys import private_key_from_hex, public_key_text
from fairdeal.core.selfplay import selfplay
from tests.web.conftest import shot

KEY = private_key_from_hex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
PUBLIC = public_key_text(KEY)
RULE_SETS = ["120s-auction", "120s-house", "120s-traditional", "spades", "twenty-down"]


def game(name: str) -> dict:
    seed = bytes([RULE_SETS.index(name) + 1 if name in RULE_SETS else 9] * 32)
    if name == "spades-blind":  # its first hands: a whole game is some 12,000 P-256 multiplications (docs/web.md)
        return blind_selfplay(KEY, seed, bots=(3,), stop_after=30)
    # a bot, a seat the table's bot stood in for a while, timeouts: every kind of move the engine checks
    return selfplay(name, KEY, seed, bots=(1,), stand_ins={3: (8, 20)}, timeout_every=7)


def written(tmp_path: Path, name: str, t: dict) -> Path:
    path = tmp_path / f"fairdeal-game-{name}.json"
    path.write_text(json.dumps(t))
    return path


def command_line(path: Path) -> dict:
    out = subprocess.run(
        [sys.executable, "-m", "fairdeal.verify", str(path), "--json", "--key", PUBLIC],
        capture_output=True,
        text=True,
        check=False,
    )
    return json.loads(out.stdout)


def in_the_page(page, path: Path) -> dict:
    """{check id: (status, the Why cell)} once the page has checked the file."""
    page.evaluate("document.getElementById('status').textContent = ''")
    if not page.locator("#options[open]").count():
        page.click("#options summary")
    page.fill("#keys", PUBLIC)
    page.set_input_files("#file", str(path))
    page.wait_for_selector("#status:text-is('Checked.'), #status.error")
    assert page.get_attribute("#report", "data-engine") == "python"
    rows = page.locator("#checks tr").all()
    return {
        r.get_attribute("data-check"): (r.get_attribute("data-status"), r.locator("td").nth(1).inner_text())
        for r in rows
    }


def expected(report: dict) -> dict:
    return {
        c["id"]: (c["status"], c["detail"] + (f" (record {c['seq']})" if c["seq"] else "")) for c in report["checks"]
    }


@pytest.mark.parametrize("name", [*RULE_SETS, "spades-blind"])
def test_every_check_of_the_command_line_runs_in_the_page(verify_page, tmp_path, name):
    path = written(tmp_path, name, game(name))
    got = in_the_page(verify_page, path)
    want = command_line(path)
    assert want["ok"], want["failed"]
    assert got == expected(want)
    assert all(got[c][0] == "pass" for c in ("moves-legal", "bot-moves", "timeout-moves", "result", "deals"))
    verdict = verify_page.inner_text("#verdict")
    assert verdict.startswith("Every check of fairdeal-verify ran in this page, with its own code (fairdeal "), verdict
    assert "Not checked here" not in verdict
    if name == "spades-blind":
        assert all(got[c][0] == "pass" for c in ("blind-messages", "blind-deal", "blind-opens", "blind-blame"))
        shot(verify_page, "verify-python-blind")


def test_a_stalled_blind_game_is_judged_in_the_page_as_on_the_command_line(verify_page, tmp_path):
    """The abort record's stall check (fairdeal/core/blind/stall.py, with its replay without the hands) runs in the
    page as on the command line: the seat whose card never came is named, by the abort record alone."""
    from fairdeal.core.blind.hidden import blind_live_game
    from fairdeal.core.integrity import game_seed_of
    from fairdeal.core.writer import sign_transcript

    seed = bytes([9] * 32)
    t = blind_selfplay(KEY, seed, bots=(), stop_after=30)
    live = blind_live_game(t["start"], game_seed_of(t))
    for record in t["records"]:
        live.apply_record(record, chain=False, policies=False)
    seat = live.state.to_move
    t = blind_selfplay(KEY, seed, bots=(), stop_after=30, blame=[seat])
    after = [m["type"] for m in t["blind"]["messages"]].index("reveal")
    t["blind"]["abort"] = {
        "seat": seat,
        "why": "move-timeout",
        "deal": live.state.hand_number,
        "step": "move",
        "seq": 31,
        "after": after,
        "at": "2026-01-01T00:30:00.000Z",
        "deadline": "2026-01-01T00:29:30.000Z",
    }
    t["signature"] = sign_transcript(KEY, t)
    path = written(tmp_path, "spades-blind-stall", t)
    want = command_line(path)
    assert want["ok"], want["failed"]
    assert in_the_page(verify_page, path) == expected(want)
    status, why = expected(want)["blind-blame"]
    assert status == "pass" and f"seat {seat} by the abort record" in why


def test_a_tampered_move_fails_at_its_own_record(verify_page, tmp_path):
    t = copy.deepcopy(game("120s-auction"))
    plays = [r for r in t["records"] if r["move"]["kind"] == "play"]
    a = plays[0]
    b = next(r for r in plays[1:] if r["seat"] == a["seat"])
    a["move"]["card"] = b["move"]["card"]  # the card the same seat plays later, played now
    path = written(tmp_path, "tampered", t)
    got = in_the_page(verify_page, path)
    want = command_line(path)
    assert got == expected(want)
    failed = {c: why for c, (status, why) in got.items() if status == "fail"}
    assert "signature-transcript" in failed and "hash-chain" in failed
    # an illegal move blamed on the changed record, not on the later, honest one that plays the card again
    assert failed["moves-legal"].endswith(f"(record {a['seq']})"), f"blamed on another: {failed['moves-legal']}"
    assert f"again at record {b['seq']}" in failed["moves-legal"]
    assert verify_page.inner_text("#verdict").startswith("FAILED:")
    shot(verify_page, "verify-python-tampered")


def test_a_page_loaded_once_checks_offline(verify_page, tmp_path):
    path = written(tmp_path, "offline", game("twenty-down"))
    verify_page.context.set_offline(True)
    try:
        got = in_the_page(verify_page, path)
    finally:
        verify_page.context.set_offline(False)
    assert got == expected(command_line(path))
