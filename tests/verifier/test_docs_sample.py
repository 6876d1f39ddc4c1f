"""docs/verify.md shows the real output of fairdeal-verify on the example game, so the two cannot drift apart."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COMMAND = "$ fairdeal-verify --key docs/examples/example-key.txt docs/examples/120s-auction-game-fairdeal-2.json"


def test_the_sample_report_in_verify_md_is_what_the_command_prints():
    doc = (ROOT / "docs" / "verify.md").read_text()
    start = doc.index(COMMAND) + len(COMMAND) + 1
    sample = doc[start : doc.index("```", start)]
    args = COMMAND.split()[2:]
    out = subprocess.run(
        [sys.executable, "-m", "fairdeal.verify.cli", *args], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert out.returncode == 0
    assert out.stdout == sample
