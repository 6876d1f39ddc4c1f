"""bench_engine's and bench_audit's work on this code tree beside an older commit's, measured in the same run.

Issue 22 restructures the code with behaviour unchanged, and says bench_engine and bench_audit are to be no slower
than before. This bench extracts the older commit's tree (default 5201581, before the restructure) into a
temporary directory (`git archive`: nothing is added to the repository, not even a worktree entry, if the bench is
stopped) and runs the same work with both trees:
  - engine: bench_engine's validated replay (its recorded random games of every 120s table, each move checked by
    `apply`) and its random play (every move chosen from `legal_moves` and pushed), both dealt the decks recorded
    at set-up;
  - audit: bench_audit's one-core audit (`run_checks`, jobs=1) of one export of selfplayed games of every rule set,
    made once by this tree before the rounds (not timed) and read by both.
Each measurement runs in a subprocess of its own, which imports only its tree's `fairdeal` (the child checks where
it came from) and times the work with CPU time (process_time), its setup untimed. Rounds alternate (this tree,
then the old, then the other way round the next round); every figure is the median of the rounds with their
spread, every ratio the median of the per-round ratios; the load is printed before and after (bench/measure.py).
The work functions are bench_engine's and bench_audit's own: for a tree from before the core's rename
(fairdeal.verifier), the child maps the names those benches import onto the old modules.

Run: python bench/bench_restructure.py [--against COMMIT] [--rounds R] [--games N]   (about 3 minutes)
Exits 0 whether or not the new tree is as fast (the verdict is printed); 1 when the work differs between trees.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import measure as ms  # noqa: E402

DEFAULT_AGAINST = "5201581"  # the last commit before issue 22's restructure
# Before the restructure the shared core and the verify tool were one package, fairdeal.verifier.
OLD_NAMES = {
    "fairdeal.core": "fairdeal.verifier",
    "fairdeal.core.games": "fairdeal.verifier.games",
    "fairdeal.core.keys": "fairdeal.verifier.keys",
    "fairdeal.core.selfplay": "fairdeal.verifier.selfplay",
    "fairdeal.verify": "fairdeal.verifier",
    "fairdeal.verify.audit": "fairdeal.verifier.audit",
}


# ------------------------------------------------------------------------------------------ the child's side


def load_tree(tree: str) -> None:
    """Import `fairdeal` from `tree` before anything else can (the benches put this checkout on sys.path), and
    alias the names the benches import when the tree predates them."""
    sys.path.insert(0, tree)
    import fairdeal

    where = os.path.realpath(os.path.dirname(fairdeal.__file__))
    if where != os.path.realpath(os.path.join(tree, "fairdeal")):
        raise SystemExit(f"imported fairdeal from {where}, not from the tree {tree}")
    if not os.path.isdir(os.path.join(tree, "fairdeal", "core")):
        for new, old in OLD_NAMES.items():
            sys.modules[new] = importlib.import_module(old)


def child_engine() -> dict[str, float]:
    import bench_engine as be

    offered = set(be.available())
    seconds = {"replay": 0.0, "random": 0.0}
    moves = {"replay": 0, "random": 0}
    for rule_set, players in be.TABLES:
        if rule_set not in offered:
            continue
        rules = be.make_rules(rule_set, {}, players)
        games = be.record_games(rules, range(be.GAMES))  # setup, not timed
        s, n = be.engine_replay(rules, games)
        seconds["replay"] += s
        moves["replay"] += n
        s, n = be.engine_random_play(rules, games)
        seconds["random"] += s
        moves["random"] += n
    return {f"{k}_s": seconds[k] for k in seconds} | {f"{k}_moves": moves[k] for k in moves}


def child_audit(export: str) -> dict[str, float]:
    import bench_audit as ba

    ba.time_audit(export, 1)  # warm: first imports of the engines and the checks, not timed
    cpu, _, _ = ba.time_audit(export, 1)
    with open(export, "rb") as fh:
        moves = sum(len(json.loads(line)["records"]) for line in fh if line.strip())
    return {"audit_s": cpu, "audit_moves": moves}


def child(tree: str, work: str, export: str | None) -> None:
    load_tree(tree)
    out = child_engine() if work == "engine" else child_audit(export or "")
    print(json.dumps(out))


# ----------------------------------------------------------------------------------------- the parent's side


def extract(commit: str, into: str) -> str:
    """The commit's tree under `into` (git archive: the files only, no checkout in the repository)."""
    tree = os.path.join(into, commit)
    os.makedirs(tree)
    archive = os.path.join(into, "tree.tar")
    with open(archive, "wb") as fh:
        subprocess.run(["git", "-C", REPO, "archive", "--format=tar", commit], stdout=fh, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(tree, filter="data")
    os.remove(archive)
    return tree


def run_child(tree: str, work: str, export: str) -> dict[str, float]:
    # without PYTHONPATH: the child puts `tree` first on its path itself
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(
        [sys.executable, os.path.abspath(__file__), "--child", tree, "--work", work, "--export", export],
        capture_output=True,
        text=True,
        env=env,
        cwd=tree,
    )
    if done.returncode != 0:
        raise SystemExit(f"the {work} child on {tree} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def make_export(path: str, per_rule_set: int) -> tuple[int, int]:
    import bench_audit as ba  # this tree's selfplay writes the games both trees audit

    return ba.make_export(path, per_rule_set)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default=DEFAULT_AGAINST, help=f"the older commit (default {DEFAULT_AGAINST})")
    parser.add_argument("--rounds", type=int, default=7, help="alternating rounds (default 7)")
    parser.add_argument("--games", type=int, default=8, help="audited games per rule set (default 8)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--work", choices=["engine", "audit"], help=argparse.SUPPRESS)
    parser.add_argument("--export", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.work, args.export)
        return 0

    head = subprocess.run(["git", "-C", REPO, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    dirty = subprocess.run(["git", "-C", REPO, "status", "--porcelain", "--", "fairdeal", "bench"], capture_output=True)
    new_name = f"this tree ({head.stdout.strip()}{', with changes' if dirty.stdout.strip() else ''})"
    old_name = f"old tree ({args.against})"
    print(f"{ms.load()} before the run")
    with tempfile.TemporaryDirectory(prefix="fairdeal-bench-") as tmp:
        old_tree = extract(args.against, tmp)
        export = os.path.join(tmp, "export.jsonl")
        t0 = time.perf_counter()
        games, moves = make_export(export, args.games)
        print(
            f"setup (not timed): {old_name} extracted; {games} selfplayed games, {moves} moves, in "
            f"{time.perf_counter() - t0:.1f} s; {args.rounds} alternating rounds, each measurement a subprocess"
        )
        series = {
            (tree, what): ms.Series(what)
            for tree in ("new", "old")
            for what in ("engine validated replay", "engine random play", "audit, 1 core")
        }
        work_seen: dict[tuple[str, str], set] = {}

        def measure(tree: str) -> None:
            path = REPO if tree == "new" else old_tree
            e = run_child(path, "engine", export)
            a = run_child(path, "audit", export)
            series[tree, "engine validated replay"].add(e["replay_s"], int(e["replay_moves"]))
            series[tree, "engine random play"].add(e["random_s"], int(e["random_moves"]))
            series[tree, "audit, 1 core"].add(a["audit_s"], int(a["audit_moves"]))
            for key, n in (("replay", e["replay_moves"]), ("random", e["random_moves"]), ("audit", a["audit_moves"])):
                work_seen.setdefault((tree, key), set()).add(n)

        for r in range(args.rounds):
            for tree in ("new", "old") if r % 2 == 0 else ("old", "new"):
                measure(tree)
        print(f"{ms.load()} after the run")

    print()
    print(ms.header() + "   (moves per CPU second)")
    ok = True
    verdicts = []
    for what in ("engine validated replay", "engine random play", "audit, 1 core"):
        new, old = series["new", what], series["old", what]
        print(what)
        print(ms.row(f"  {new_name}", new))
        print(ms.row(f"  {old_name}", old))
        verdicts.append(ms.verdict(f"{what}: this tree", new.ratio_to(old), f"the {old_name}", 1.0)[0])
        if new.units != old.units:
            print(f"  the work differs: {new.units} moves on this tree, {old.units} on the old")
            ok = False
    print()
    for line in verdicts:
        print(line.replace("(target 1x, median)", "(no slower: median >= 1x)"))
    if any(len(s) > 1 for s in work_seen.values()):
        print("the work differed between rounds of one tree")
        ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
