"""Regenerate docs/examples/: whole 120s-auction games played by fairdeal.core.selfplay, signed with the
example key (RFC 8032's first test key, docs/examples/example-key.txt), server seed 00 01 .. 1f and the client
seeds of fairness.md's vectors.

  120s-auction-game.json             fairdeal/1 (the seeds in clear); it must never change: fairdeal/1 transcripts
                                     keep verifying byte for byte, and a test checks this script still makes it
  120s-auction-game-fairdeal-2.json  the same game under fairdeal/2 (seeds committed, then revealed)

The transcripts record every bot and timeout move, so they depend on the rules engine and the policies: the
test suite checks that `fairdeal-verify` passes both and that this script makes exactly what docs/ holds.

Run: python scripts/make_example_game.py
"""

from __future__ import annotations

import json
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

from fairdeal.core.keys import private_key_from_hex, public_key_text  # noqa: E402
from fairdeal.core.selfplay import selfplay  # noqa: E402

KEY = private_key_from_hex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
NAMES = {"fairdeal/1": "120s-auction-game.json", "fairdeal/2": "120s-auction-game-fairdeal-2.json"}


def example(protocol: str) -> dict:
    return selfplay(
        "120s-auction",
        KEY,
        bytes(range(32)),
        bots=(1, 3),
        game_id="g-example-120s",
        client_seeds=["alice's lucky seed", None, 'Bob says "hi" \\o/', None],
        names=["alice", "Bot 1", "bob", "Bot 3"],
        timeout_every=4,
        variety_every=3,
        protocol=protocol,
    )


def examples() -> dict[str, str]:
    """File name -> its text, for every file of docs/examples."""
    out = {name: json.dumps(example(protocol), indent=1, ensure_ascii=False) + "\n" for protocol, name in NAMES.items()}
    out["example-key.txt"] = public_key_text(KEY) + "\n"
    return out


def main() -> None:
    folder = os.path.join(ROOT, "docs", "examples")
    for name, text in examples().items():
        with open(os.path.join(folder, name), "w", encoding="utf-8") as fh:
            fh.write(text)
        print(f"docs/examples/{name}: {len(text)} characters")


if __name__ == "__main__":
    main()
