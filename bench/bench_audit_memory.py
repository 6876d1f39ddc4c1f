"""Peak memory of `fairdeal-verify audit` against the size of the export: the main process finds the lines a chunk
at a time (fairdeal/verify/lines.py) and the workers read one line each, so the peak should not grow with the
export's bytes, only (slowly) with its number of games (one small Item and one Outcome kept per game).

Makes a small export and a large one (`--mib`, default 320: larger than the 300 MB target, so a reader that held
the file could not meet it) from the same selfplayed games written again and again (every line a valid, signed
transcript), then audits each with `fairdeal-verify audit --jobs 2` in a child process and reads its peak RSS
(getrusage of the children: the largest of the audit's processes). The baseline is the small export's audit, same
run. Target (issue 25): peak RSS < 300 MB whatever the export's size.

    python bench/bench_audit_memory.py [--mib 320] [--small-mib 8]    (a few minutes: the large audit checks it all)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import measure as ms  # noqa: E402

from fairdeal.core.games import available  # noqa: E402
from fairdeal.core.keys import private_key_from_hex, public_key_text  # noqa: E402
from fairdeal.core.selfplay import selfplay  # noqa: E402

KEY = private_key_from_hex("6d" * 32)
TARGET = 300 * 10**6


def lines_of_games(per_rule_set: int = 4) -> list[bytes]:
    out = []
    for rule_set in available():
        for i in range(per_rule_set):
            seed = bytes([i, 7]) + rule_set.encode()[:30].ljust(30, b"-")
            out.append(
                json.dumps(selfplay(rule_set, KEY, seed, bots=(1, 3), timeout_every=4), separators=(",", ":")).encode()
                + b"\n"
            )
    return out


def write_export(path: str, lines: list[bytes], mib: float) -> int:
    """The lines again and again until the file holds `mib` MiB; returns the number of games."""
    want, size, games = mib * 2**20, 0, 0
    with open(path, "wb") as fh:
        while size < want:
            line = lines[games % len(lines)]
            fh.write(line)
            size += len(line)
            games += 1
    return games


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def audit_peak(path: str, code_root: str = ROOT) -> tuple[float, float, str]:
    """(peak RSS in bytes of the largest process of the audit, wall seconds, its summary line) of one audit in a
    fresh child (so that the peak is its own: RUSAGE_CHILDREN's maxrss is the largest of the waited-for
    descendants, the parent's own heap not included)."""
    code = (
        "import resource, sys\n"
        "from fairdeal.verify.cli import main\n"
        "try:\n    main(sys.argv[1:])\nexcept SystemExit as e:\n    rc = e.code\n"
        "kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
        "own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "print('PEAK', max(kids, own), file=sys.stderr)\n"
    )
    t0 = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-c", code, "audit", "--key", public_key_text(KEY), "--jobs", "2", path],
        capture_output=True,
        text=True,
        cwd=code_root,
        env=dict(os.environ, PYTHONPATH=code_root),
    )
    wall = time.monotonic() - t0
    peak = next(int(line.split()[1]) for line in proc.stderr.splitlines() if line.startswith("PEAK"))
    summary = next((line for line in proc.stdout.splitlines() if "passed" in line), proc.stdout[-200:])
    return peak * 1024, wall, summary.strip()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mib", type=float, default=320.0)
    ap.add_argument("--small-mib", type=float, default=8.0)
    ap.add_argument("--code", default=ROOT, help="the checkout whose fairdeal-verify to run (an older one: before)")
    args = ap.parse_args()
    print(f"auditing with the code in {args.code}")
    print(f"{ms.load()} before the run", flush=True)
    lines = lines_of_games()
    with tempfile.TemporaryDirectory() as tmp:
        rows = []
        for name, mib in (("small (baseline)", args.small_mib), ("large", args.mib)):
            path = os.path.join(tmp, f"{name.split()[0]}.jsonl")
            games = write_export(path, lines, mib)
            peak, wall, summary = audit_peak(path, args.code)
            rows.append((name, os.path.getsize(path), games, peak, wall, summary))
            os.remove(path)
            print(
                f"  {name}: {os.path.getsize(path) if os.path.exists(path) else rows[-1][1]:,} bytes, {games:,} "
                f"games: peak RSS {peak / 2**20:.0f} MiB in {wall:.0f} s ({summary})",
                flush=True,
            )
    print(f"{ms.load()} after the run")
    print()
    print(f"{'export':18}{'MiB':>8}{'games':>9}{'peak RSS MiB':>14}")
    for name, size, games, peak, _, _ in rows:
        print(f"{name:18}{size / 2**20:>8.0f}{games:>9,}{peak / 2**20:>14.0f}")
    (_, s_size, s_games, s_peak, _, _), (_, l_size, l_games, l_peak, _, _) = rows
    per_game = (l_peak - s_peak) / max(1, l_games - s_games)
    print(
        f"peak RSS grows {per_game:,.0f} bytes a game beyond the baseline ({(l_peak - s_peak) / 2**20:.0f} MiB for "
        f"{l_size / s_size:.0f}x the bytes): "
        f"{'met' if l_peak < TARGET else 'NOT met'}, peak {l_peak / 1e6:.0f} MB (target < 300 MB)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
