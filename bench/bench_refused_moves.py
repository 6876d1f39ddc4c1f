"""What a refused move costs the service: N moves the game refuses (a card the seat does not hold: 422
illegal-move, each with its own Idempotency-Key) posted through the Flask test client, on the embedded SQLite
store, beside N accepted moves of the same games for scale. Run for this tree and for an older revision of it
(`git archive`, default main) in the same run: one child process per tree and round, the rounds alternating, CPU
time (process_time) of the posting loop only, median of the rounds with the spread (bench/measure.py).

    python bench/bench_refused_moves.py [--moves 300] [--rounds 5] [--old-rev main]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import measure  # noqa: E402

CHILD = r"""
import json, sys, tempfile, time, uuid
from fairdeal.service.app import create_app
from fairdeal.service.config import Config
from fairdeal.service.store.sqlite import SqliteStore

n = int(sys.argv[1])
data = tempfile.mkdtemp()
app = create_app(Config(data_dir=data), store=SqliteStore(data + "/fairdeal.sqlite3"))
c = app.test_client()

def player(name):
    p = c.post("/players", json={"name": name}).get_json()
    return {"Authorization": "Bearer " + p["token"]}

def game():
    '''A spades table of four humans, clocks off: (the game id, each seat's headers).'''
    hs = [player(f"p{i}") for i in range(4)]
    t = c.post("/tables", json={"rule_set": "spades", "clocks": "off"}, headers=hs[0]).get_json()
    for h in hs[1:]:
        c.post(f"/tables/{t['id']}/join", json={}, headers=h)
    c.post(f"/tables/{t['id']}/start", headers=hs[0])
    return t["id"], hs

def post(gid, h, seq, move):
    return c.post(f"/games/{gid}/moves", json={"seq": seq, "move": move},
                  headers={**h, "Idempotency-Key": uuid.uuid4().hex})

gid, hs = game()
v = c.get(f"/games/{gid}", headers=hs[0]).get_json()
seat = v["to_move"]
mine = c.get(f"/games/{gid}", headers=hs[seat]).get_json()
held = set(mine["view"]["hand"])
wrong = next(f"{r}{s}" for s in "CDHS" for r in ("2","3","4","5","6","7","8","9","10","J","Q","K","A")
             if f"{r}{s}" not in held)
bad = {"kind": "play", "card": wrong} if mine["legal_moves"][0]["kind"] == "play" else {"kind": "bid", "value": 99}
assert post(gid, hs[seat], v["seq"], bad).status_code == 422
t0 = time.process_time()
for _ in range(n):
    r = post(gid, hs[seat], v["seq"], bad)
refused = time.process_time() - t0
assert r.status_code == 422, r.get_json()

played = 0.0
moves = 0
while moves < n:
    gid, hs = game()
    while moves < n:
        v = c.get(f"/games/{gid}", headers=hs[0]).get_json()
        if v["status"] == "over" or v["to_move"] is None:
            break
        s = v["to_move"]
        mv = c.get(f"/games/{gid}", headers=hs[s]).get_json()
        t0 = time.process_time()
        r = post(gid, hs[s], mv["seq"], mv["suggested"] or mv["legal_moves"][0])
        played += time.process_time() - t0
        assert r.status_code == 201, r.get_json()
        moves += 1
print(json.dumps({"refused": refused, "accepted": played}))
"""


def old_tree(rev: str) -> str:
    """The files of `rev` in a temporary folder (git archive: no checkout of this tree is touched)."""
    folder = tempfile.mkdtemp(prefix="fairdeal-old-")
    archive = subprocess.run(["git", "-C", ROOT, "archive", rev], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", folder], input=archive, check=True)
    return folder


def one_round(tree: str, moves: int) -> dict:
    env = dict(os.environ, PYTHONPATH=tree)
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(moves)], env=env, cwd=tree, check=True, capture_output=True, text=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--moves", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--old-rev", default="main")
    args = ap.parse_args()
    trees = {f"old ({args.old_rev})": old_tree(args.old_rev), "this tree": ROOT}
    series = {(name, kind): measure.Series(f"{name} {kind}") for name in trees for kind in ("refused", "accepted")}
    print(measure.load())
    for _ in range(args.rounds):
        for name, tree in trees.items():
            got = one_round(tree, args.moves)
            for kind in ("refused", "accepted"):
                series[(name, kind)].add(got[kind], args.moves)
    print(measure.header())
    for (name, kind), s in series.items():
        print(measure.row(f"{kind} moves, {name}", s))
    for kind in ("refused", "accepted"):
        old, new = (series[(name, kind)] for name in trees)
        print(f"{kind} moves: this tree = {measure.ratio_text(new.ratio_to(old))} the old tree's rate (CPU time)")
    print(measure.load())


if __name__ == "__main__":
    main()
