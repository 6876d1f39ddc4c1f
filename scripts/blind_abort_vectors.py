"""Prints the test vectors of docs/blind.md's abort record ("The abort record") as JSON, from the reference code:

    python scripts/blind_abort_vectors.py > tests/vectors/blind-abort.json

One stalled blind game (a selfplay table of four humans, stopped before its first move; the first deal stops at
seat 2's lock, which never comes, and seat 2 reveals nothing) and abort records for it, each with the verdict of
fairdeal.core.blind.stall: `stall-ok`, `stall-framed/<reason>` or `stall-unknown`. tests/blind/test_abort_vectors.py
checks that the file is what this prints and computes every verdict again from the specification alone (no
fairdeal.core.blind). The game has no move record, so which deal is in play (deal 0) and whose step it is need no
rules engine; a move stall does (tests/blind/test_stall.py).
"""

from __future__ import annotations

import copy
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey  # noqa: E402

from fairdeal.core.blind import check, stall  # noqa: E402
from fairdeal.core.blind.deal import pack_texts, spades_holders  # noqa: E402
from fairdeal.core.blind.selfplay import blind_selfplay  # noqa: E402
from fairdeal.core.integrity import game_seed_of  # noqa: E402

KEY = Ed25519PrivateKey.from_private_bytes(bytes([7] * 32))
SEED = bytes([0x5A] * 32)
CLOCKS = {"card": 20, "other": 20}  # a step's time is the "other" clock: the deadline is at least 20 s on
AT, DEADLINE = "2026-01-01T00:00:51.000Z", "2026-01-01T00:00:51.000Z"  # started 00:00:01; 20 s + a 30 s grace


def stalled() -> dict:
    def stop_at_lock(messages):
        cut = next(i for i, m in enumerate(messages) if (m["type"], m["seat"], m.get("deal")) == ("lock", 2, 0))
        return messages[:cut] + [m for m in messages[cut:] if m["type"] == "reveal"]

    return blind_selfplay(
        KEY,
        SEED,
        bots=(),
        stop_after=0,
        edit=stop_at_lock,
        unrevealed=(2,),
        blame=[2],
        clocks=CLOCKS,
        game_id="g-blind-abort-0001",
    )


def cases(after: int) -> list[tuple[str, dict]]:
    ok = {"seat": 2, "why": "step-timeout", "deal": 0, "step": "lock", "after": after, "at": AT, "deadline": DEADLINE}
    return [
        ("the stalled lock", ok),
        ("a seat whose lock is in", {**ok, "seat": 1}),
        ("a seat not in turn", {**ok, "seat": 3}),
        ("a shuffle that is in", {**ok, "seat": 0, "step": "shuffle"}),
        ("a release not yet due", {**ok, "step": "release"}),
        ("after cut short", {**ok, "after": after - 1}),
        ("after past the first reveal", {**ok, "after": after + 1}),
        ("a deal not in play", {**ok, "deal": 1}),
        ("declared before its deadline", {**ok, "at": "2026-01-01T00:00:50.999Z"}),
        ("declared after the end", {**ok, "at": "2026-01-01T01:00:00.001Z", "deadline": "2026-01-01T01:00:00.000Z"}),
        ("a deadline before the clock allows", {**ok, "deadline": "2026-01-01T00:00:20.980Z"}),
        ("the earliest deadline the clock allows", {**ok, "deadline": "2026-01-01T00:00:21.000Z"}),
        ("no after", {k: v for k, v in ok.items() if k != "after"}),
        ("a member more", {**ok, "seq": 1}),
        ("an unknown why", {**ok, "why": "slow"}),
        ("a move step for a step timeout", {**ok, "step": "move", "seq": 1}),
        ("a null deadline", {**ok, "deadline": None}),
        ("a time without its Z", {**ok, "at": "2026-01-01T00:00:51.000"}),
        ("a seat out of range", {**ok, "seat": 4}),
    ]


def verdict(t: dict, abort: dict) -> str:
    t = copy.deepcopy(t)
    t["blind"]["abort"] = abort
    seats = t["commit"]["rules"]["players"]
    holders = {d["hand"]: spades_holders(d["dealer"], seats) for d in t["end"]["deals"]}
    audit = check.audit(t["commit"]["game_id"], seats, t["blind"]["messages"], holders, pack_texts())
    found = stall.check(t, audit, game_seed_of(t), len(pack_texts()))
    assert found is not None
    return found.code + (f"/{found.fields['reason']}" if found.code == "stall-framed" else "")


def vectors() -> dict:
    t = stalled()
    after = [m["type"] for m in t["blind"]["messages"]].index("reveal")
    return {
        "transcript": t,
        "after": after,
        "cases": [{"name": name, "abort": abort, "verdict": verdict(t, abort)} for name, abort in cases(after)],
    }


if __name__ == "__main__":
    print(json.dumps(vectors(), indent=1, ensure_ascii=False))
