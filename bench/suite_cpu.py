"""Where the test suite's CPU goes: a pytest plugin that records each test's CPU seconds (its process and the
children it waited for: gunicorn, redis-server, Chromium, `fairdeal` commands) and wall seconds, setup to
teardown, one JSON line per test, in a file per xdist worker under $SUITE_CPU_DIR.

    SUITE_CPU_DIR=/tmp/cpu PYTHONPATH=bench bash scripts/test -p suite_cpu
    python bench/suite_cpu.py /tmp/cpu          # the CPU per area and per file, and the wall-time estimate

A module- or session-scoped fixture's start and stop land on the test that set it up or tore it down, so the
per-file sums are right and the per-test figures are not always. The estimate of the suite's wall time on an
idle machine is the larger of (all CPU) / (cores) and the longest one worker's share could take if its tests'
wall times were their CPU times plus their idle waits (wall minus CPU, measured, an upper bound under load).
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from collections import defaultdict
from pathlib import Path


def _cpu() -> float:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


class _Recorder:
    def __init__(self, path: Path):
        self.out = path.open("a", encoding="utf-8")
        self.start_cpu, self.start_wall = _cpu(), time.monotonic()

    def record(self, **fields: object) -> None:
        self.out.write(json.dumps(fields) + "\n")
        self.out.flush()


_recorder: _Recorder | None = None


def pytest_configure(config) -> None:
    global _recorder
    folder = os.environ.get("SUITE_CPU_DIR")
    if not folder:
        return
    Path(folder).mkdir(parents=True, exist_ok=True)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    _recorder = _Recorder(Path(folder) / f"{worker}.jsonl")
    _recorder.record(worker=worker, event="start", load=os.getloadavg()[0])


def pytest_runtest_protocol(item, nextitem):
    if _recorder is None:
        return None
    cpu, wall = _cpu(), time.monotonic()
    from _pytest.runner import runtestprotocol

    item.ihook.pytest_runtest_logstart(nodeid=item.nodeid, location=item.location)
    reports = runtestprotocol(item, nextitem=nextitem)
    item.ihook.pytest_runtest_logfinish(nodeid=item.nodeid, location=item.location)
    _recorder.record(
        test=item.nodeid,
        cpu=round(_cpu() - cpu, 4),
        wall=round(time.monotonic() - wall, 4),
        outcome=next((r.outcome for r in reports if r.outcome != "passed"), "passed"),
    )
    return True


def pytest_unconfigure(config) -> None:
    # the session fixtures (redis-server) have stopped by now: their CPU lands here
    if _recorder is not None:
        _recorder.record(
            event="end",
            cpu=round(_cpu() - _recorder.start_cpu, 3),
            wall=round(time.monotonic() - _recorder.start_wall, 3),
            load=os.getloadavg()[0],
        )


def _area(test: str) -> str:
    parts = test.split("::")[0].split("/")
    return "/".join(parts[:2]) if len(parts) > 2 else parts[0] + " (top level)"


def summarise(folder: str, cores: int = 2) -> None:
    tests: list[dict] = []
    workers: dict[str, dict] = {}
    for path in sorted(Path(folder).glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if "test" in row:
                row["worker"] = path.stem
                tests.append(row)
            elif row.get("event") == "end":
                workers[path.stem] = row
    by_area: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0])
    by_file: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0])
    for t in tests:
        for table, key in ((by_area, _area(t["test"])), (by_file, t["test"].split("::")[0])):
            table[key][0] += t["cpu"]
            table[key][1] += t["wall"]
            table[key][2] += 1
    total_cpu = sum(t["cpu"] for t in tests)
    print(f"{len(tests)} tests, {total_cpu:.0f} s CPU in the tests (workers' totals: ", end="")
    print(", ".join(f"{w} {r['cpu']:.0f} s CPU {r['wall']:.0f} s wall" for w, r in sorted(workers.items())) + ")")
    print(f"\n{'area':34} {'tests':>6} {'CPU s':>8} {'wall s':>8}")
    for area, (c, w, n) in sorted(by_area.items(), key=lambda kv: -kv[1][0]):
        print(f"{area:34} {n:6d} {c:8.1f} {w:8.1f}")
    print(f"\n{'file (the 30 costliest)':70} {'tests':>6} {'CPU s':>8} {'wall s':>8}")
    for f, (c, w, n) in sorted(by_file.items(), key=lambda kv: -kv[1][0])[:30]:
        print(f"{f:70} {n:6d} {c:8.1f} {w:8.1f}")
    print(f"\n{'test (the 25 longest wall)':100} {'CPU s':>7} {'wall s':>7}")
    for t in sorted(tests, key=lambda t: -t["wall"])[:25]:
        print(f"{t['test'][:100]:100} {t['cpu']:7.1f} {t['wall']:7.1f}")
    # idle waits: what a test spent neither on CPU of its own nor of its children (sleeps, other processes)
    idle = sum(max(0.0, t["wall"] - t["cpu"]) for t in tests)
    longest = max((t["cpu"] for t in tests), default=0.0)
    whole = max(total_cpu / cores, longest)
    print(
        f"\nquiet estimate: {total_cpu:.0f} s CPU / {cores} cores = {total_cpu / cores:.0f} s; longest test "
        f"{longest:.0f} s CPU; idle wait (wall - CPU, summed, an upper bound under load) {idle:.0f} s. "
        f"Lower bound {whole:.0f} s."
    )


if __name__ == "__main__":
    summarise(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 2)
