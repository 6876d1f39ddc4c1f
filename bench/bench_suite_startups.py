"""What the test suite pays each time a fixture starts a process it could share (issue 25's suite target): a
`fairdeal serve` (gunicorn's master, two gevent workers and the sweeper) started, answering and stopped, and
playwright's driver with Chromium started and stopped (with one browser context, and with six: the difference is
what a context costs, which every browser test pays anyway); and an interpreter started and stopped (the floor of
any process).

    python bench/bench_suite_startups.py [--rounds 3]

CPU seconds of this process and its waited-for children (bench/measure.py), wall seconds beside them; the median
of alternating rounds with the spread; the load average before and after.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' helpers
sys.path.insert(0, str(Path(__file__).resolve().parent))

from measure import alternate, cpu_with_children, load  # noqa: E402

from tests.service.http import serving  # noqa: E402
from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402


def measured(series: dict[str, list[tuple[float, float]]], name: str, work) -> None:
    cpu, wall = cpu_with_children(), time.monotonic()
    work()
    series.setdefault(name, []).append((cpu_with_children() - cpu, time.monotonic() - wall))


def serve_once() -> None:
    with tempfile.TemporaryDirectory() as data, serving(data, None, workers=2):
        pass


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    print(load())
    series: dict[str, list[tuple[float, float]]] = {}

    def browser_session(contexts: int) -> None:
        # Chromium is the driver's child: its CPU reaches ours when the driver has exited (and waited for it)
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
            for _ in range(contexts):
                ctx = b.new_context()
                ctx.new_page().goto("about:blank")
                ctx.close()
            b.close()

    alternate(
        args.rounds,
        [
            lambda: measured(series, "fairdeal serve: start, answer, stop", serve_once),
            lambda: measured(series, "browser: driver, Chromium, 1 context, stop", lambda: browser_session(1)),
            lambda: measured(series, "browser: driver, Chromium, 6 contexts, stop", lambda: browser_session(6)),
            lambda: measured(
                series, "python -c pass", lambda: subprocess.run([sys.executable, "-c", "pass"], check=True)
            ),
        ],
    )
    print(f"{'':44}{'CPU s (median, min to max)':>30}{'wall s (median)':>18}")
    for name, rounds in series.items():
        cpus = [c for c, _ in rounds]
        walls = [w for _, w in rounds]
        spread = f"{statistics.median(cpus):.2f} ({min(cpus):.2f} to {max(cpus):.2f})"
        print(f"{name:44}{spread:>30}{statistics.median(walls):>18.1f}")
    print(load())


if __name__ == "__main__":
    main()
