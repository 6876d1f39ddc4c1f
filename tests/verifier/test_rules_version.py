"""A transcript of a rule-set version this verifier does not have is refused as unusable (exit 2), not failed."""
import json
from pathlib import Path

import subprocess
import sys

from fairdeal.verifier.checks import verify_transcript
from fairdeal.verifier.keys import private_key_from_hex
from fairdeal.verifier.writer import sign_record, sign_transcript

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
    out = subprocess.run([sys.executable, "-m", "fairdeal.verifier.cli", str(path)], capture_output=True, text=True,
                         cwd=DOCS.parent, timeout=60)
    assert out.returncode == 2 and "Traceback" not in out.stdout + out.stderr
    assert "version 2 of 120s-auction" in out.stdout + out.stderr


def test_the_same_version_still_verifies():
    # control: the re-signing above is not what makes the difference
    report = verify_transcript(_with_version(1))
    assert report.exit_code == 0, [c.to_json() for c in report.failed]
