"""Regenerate docs/examples/120s-auction-game.json: a whole 120s-auction game played by fairdeal.verifier.selfplay,
signed with the example key (RFC 8032's first test key, docs/examples/example-key.txt), server seed 00 01 .. 1f
and the client seeds of fairness.md's vectors.

The transcript records every bot and timeout move, so it depends on the rules engine and the policies: run this
after changing them (the test suite checks that `fairdeal-verify` passes the example).

Run: python scripts/make_example_game.py
"""
from __future__ import annotations

import json
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

from fairdeal.verifier.keys import private_key_from_hex, public_key_text  # noqa: E402
from fairdeal.verifier.selfplay import selfplay  # noqa: E402

KEY = private_key_from_hex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")


def main() -> None:
    t = selfplay("120s-auction", KEY, bytes(range(32)), bots=(1, 3), game_id="g-example-120s",
                 client_seeds=["alice's lucky seed", None, 'Bob says "hi" \\o/', None],
                 names=["alice", "Bot 1", "bob", "Bot 3"], timeout_every=4, variety_every=3)
    out = os.path.join(ROOT, "docs", "examples")
    with open(os.path.join(out, "120s-auction-game.json"), "w", encoding="utf-8") as fh:
        fh.write(json.dumps(t, indent=1, ensure_ascii=False) + "\n")
    with open(os.path.join(out, "example-key.txt"), "w", encoding="utf-8") as fh:
        fh.write(public_key_text(KEY) + "\n")
    print(f"docs/examples/120s-auction-game.json: {len(t['records'])} moves, result {t['end']['result']}")


if __name__ == "__main__":
    main()
