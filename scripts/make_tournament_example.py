"""Writes docs/examples/tournament/spades-swiss.json: the example tournament of docs/tournaments.md, played by the
policies and signed with the example key (docs/examples/example-key.txt). Pure: the same bytes every run."""

import json
import sys
from pathlib import Path

from fairdeal.core.keys import private_key_from_hex
from fairdeal.core.tournament.play import play_tournament

EXAMPLE_KEY = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"  # RFC 8032's test key 1
OUT = Path(__file__).resolve().parents[1] / "docs" / "examples" / "tournament" / "spades-swiss.json"


def example() -> dict:
    entries = [
        {"name": name, "members": [f"{name} North", f"{name} South"], "bot": bot, "client_seed": seed}
        for name, bot, seed in [
            ("Aces", False, "aces pick this"),
            ("Bots A", True, None),
            ("Clubs", False, "clubs' own words"),
            ("Bots B", True, None),
            ("Deuces", False, "2222"),
        ]
    ]
    return play_tournament(
        private_key_from_hex(EXAMPLE_KEY),
        bytes(range(32)),
        tournament_id="T-example-spades",
        rule_set="spades",
        fmt="swiss",
        rounds=2,
        entries=entries,
    )


if __name__ == "__main__":
    OUT.write_text(json.dumps(example(), sort_keys=True, separators=(",", ":")) + "\n")
    sys.stdout.write(f"wrote {OUT}\n")
