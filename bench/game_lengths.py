"""How long games run: moves and counted deals of seeded selfplay games, per rule set and table.

This is where the Twenty Down end rule (docs/rules/twenty-down.md, "The last deals") and the service's move cap
(FAIRDEAL_MAX_MOVES, docs/operations.md) take their numbers from. Every game is fairdeal.core.selfplay's,
seeded by its index, played until it ends or until CAP moves (then counted as "not ended"):
  - "bots": every seat the table's bot;
  - "mixed": seats 1 and 3 bots, the others humans played by selfplay's mix (mostly the timeout policy's move,
    every third human move another legal move drawn from the game seed), the closest selfplay comes to real play.
Figures are counts, not times: they do not depend on the machine's load.

Run: python bench/game_lengths.py [games per table, default 200] [--version N] [--only TEXT]
     (--version: Twenty Down's rules version, default the newest; --only: the tables whose name holds TEXT)
"""

from __future__ import annotations

import hashlib
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from fairdeal.core.games.twenty_down.scoring import LAST_DEALS_FROM  # noqa: E402
from fairdeal.core.keys import private_key_from_hex  # noqa: E402
from fairdeal.core.selfplay import selfplay  # noqa: E402

CAP = 20_000
KEY = private_key_from_hex("3c" * 32)
DRIFTING = {"three_first_cards": True, "clubs_force_stay": True, "no_drop_twice": True, "standard_order": True}
TABLES = [
    ("120s-auction", 4, {}),
    ("120s-house", 4, {}),
    ("120s-house", 2, {}),
    ("120s-traditional", 4, {}),
    ("spades", 4, {}),
    ("twenty-down", 4, {}),
    ("twenty-down", 4, DRIFTING),
    ("twenty-down", 4, {"no_endgame": True}),
]
MIXES = {"bots": None, "mixed": (1, 3)}


def one_game(rule_set: str, players: int, settings: dict, bots, index: int, version: int | None):
    seed = hashlib.sha256(f"game-lengths/{index}".encode()).digest()
    t = selfplay(
        rule_set,
        KEY,
        seed,
        settings=settings,
        players=players,
        bots=bots,
        variety_every=0 if bots == tuple(range(players)) else 3,
        stop_after=CAP,
        rules_version=version,
    )
    moves = len(t["records"])
    newdeals = sum(1 for r in t["records"] if r["move"]["kind"] == "newdeal")
    deals = len(t["end"]["deals"]) - newdeals
    return moves, deals, t["end"]["reason"] == "finished"


def summary(values: list[int]) -> str:
    q = statistics.quantiles(values, n=1000, method="inclusive")
    return f"median {statistics.median(values):>5.0f}  p99 {q[989]:>6.0f}  p99.9 {q[998]:>6.0f}  max {max(values):>6}"


def main() -> None:
    args = [a for i, a in enumerate(sys.argv[1:], 1) if not a.startswith("--") and not sys.argv[i - 1].startswith("--")]
    games = int(args[0]) if args else 200
    version = int(sys.argv[sys.argv.index("--version") + 1]) if "--version" in sys.argv else None
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else ""
    print(f"{games} seeded selfplay games per table and mix; a game not ended at {CAP} moves is cut there")
    for rule_set, players, settings in TABLES:
        name = f"{rule_set} {players}p" + ("" if not settings else " " + ",".join(sorted(settings)))
        if only not in name:
            continue
        for mix, bots in MIXES.items():
            bots = tuple(range(players)) if bots is None else bots
            runs = [
                one_game(rule_set, players, settings, bots, i, version if rule_set == "twenty-down" else None)
                for i in range(games)
            ]
            print(f"{name}  [{mix}]  not ended: {sum(1 for r in runs if not r[2])}")
            print(f"    moves  {summary([r[0] for r in runs])}")
            print(
                f"    deals  {summary([r[1] for r in runs])}  reached deal {LAST_DEALS_FROM}: "
                f"{sum(1 for r in runs if r[1] >= LAST_DEALS_FROM)}"
            )


if __name__ == "__main__":
    main()
