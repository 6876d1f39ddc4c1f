"""A transcript of a rule-set version this verifier does not have is refused as unusable (exit 2), not failed; one of
an older version it still has is replayed by that version's rules (Twenty Down 1 and 2)."""

import copy
import hashlib
import json
import subprocess
import sys
from functools import cache
from pathlib import Path

from fairdeal.core.checks import verify_transcript
from fairdeal.core.games.twenty_down.scoring import LAST_DEAL, LAST_DEALS_FROM
from fairdeal.core.keys import private_key_from_hex
from fairdeal.core.selfplay import selfplay
from fairdeal.core.writer import sign_record, sign_transcript
from tests.verifier.tamper_kit import SERVER_KEY, SERVER_PUBLIC, recommit, resign

DOCS = Path(__file__).resolve().parents[2] / "docs"
EXAMPLE_KEY = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"


def _with_version(version):
    t = json.loads((DOCS / "examples" / "120s-auction-game.json").read_text())
    key = private_key_from_hex(EXAMPLE_KEY)
    for part in ("commit", "start"):
        t[part]["rules"]["version"] = version
    t["commit_signature"] = sign_record(key, t["commit"])
    t["start_signature"] = sign_record(key, t["start"])
    t.pop("signature")
    t["signature"] = sign_transcript(key, t)
    return t


def test_another_rules_version_is_unusable_not_failed(tmp_path):
    report = verify_transcript(_with_version(2))
    assert report.exit_code == 2
    assert "version 2 of 120s-auction" in report.unusable
    path = tmp_path / "g.json"
    path.write_text(json.dumps(_with_version(2)))
    out = subprocess.run(
        [sys.executable, "-m", "fairdeal.verify.cli", str(path)],
        capture_output=True,
        text=True,
        cwd=DOCS.parent,
        timeout=60,
    )
    assert out.returncode == 2 and "Traceback" not in out.stdout + out.stderr
    assert "version 2 of 120s-auction" in out.stdout + out.stderr


def test_the_same_version_still_verifies():
    # control: the re-signing above is not what makes the difference
    report = verify_transcript(_with_version(1))
    assert report.exit_code == 0, [c.to_json() for c in report.failed]


# ------------------------------------------------------------------ Twenty Down: version 2 ends every game

# An all-bot Twenty Down game (default rules) whose scores drift upwards: past deal 70 under version 1.
DRIFTING_SEED = hashlib.sha256(b"game-lengths/49").digest()  # bench/game_lengths.py's game 49


@cache
def _drifting_json(version, stop_after=None):
    return selfplay(
        "twenty-down", SERVER_KEY, DRIFTING_SEED, bots=(0, 1, 2, 3), rules_version=version, stop_after=stop_after
    )


def _counted_deals(t):
    return len(t["end"]["deals"]) - sum(1 for r in t["records"] if r["move"]["kind"] == "newdeal")


def test_a_game_that_ran_on_under_version_1_ends_under_version_2_and_both_verify():
    old, new = _drifting_json(1, 1700), _drifting_json(2)
    assert old["start"]["rules"]["version"] == 1 and new["start"]["rules"]["version"] == 2
    assert old["end"]["reason"] == "abandoned" and _counted_deals(old) > LAST_DEAL  # still running at 1,700
    assert new["end"]["reason"] == "finished" and LAST_DEALS_FROM <= _counted_deals(new) <= LAST_DEAL
    # the same deals and moves until version 2's end: only the end differs
    assert [r["move"] for r in new["records"]] == [r["move"] for r in old["records"][: len(new["records"])]]
    for t in (old, new):
        report = verify_transcript(t, key=SERVER_PUBLIC)
        assert report.exit_code == 0, [c.to_json() for c in report.failed]


def _relabelled(t, version):
    """The transcript as a server would sign it had it committed to rules `version`: commitment, chain, all."""
    t = copy.deepcopy(t)
    for name in ("commit", "seating", "start"):
        t[name]["rules"]["version"] = version
    return resign(recommit(t, bytes.fromhex(t["end"]["server_seed"])))


def test_a_transcript_of_version_2_that_plays_on_past_its_end_fails():
    t = _relabelled(_drifting_json(1, 1700), 2)
    report = verify_transcript(t, key=SERVER_PUBLIC)
    assert report.exit_code == 1
    failed = {c.id for c in report.failed}
    assert failed & {"moves-legal", "bot-moves"}, failed
    assert {"signatures", "commitment", "hash-chain"}.isdisjoint(failed)  # a consistent server rewrite


def test_a_transcript_of_version_2_stopped_at_its_end_as_abandoned_fails():
    new = _drifting_json(2)
    t = _relabelled(_drifting_json(1, len(new["records"])), 2)  # version 1's game, cut where version 2 ends
    report = verify_transcript(t, key=SERVER_PUBLIC)
    failed = {c.id: c for c in report.failed}
    assert report.exit_code == 1 and failed["result"].code == "result-over"  # (and "deals": v1 dealt one more)
