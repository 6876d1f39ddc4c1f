"""The verify page running fairdeal-verify's Python (issue 24 §3): its load and one game's check, in Chromium.

    python bench/bench_verify_page.py [--rounds 3]

Each round opens a fresh page (new browser context: nothing cached) and times
  - load: from the page's address to the verifier ready (Pyodide started in its worker, GET /verifier.zip unpacked,
    fairdeal.core.checks imported: `<html data-verifier="python">`);
  - check: one finished 120s-auction game (fairdeal.core.selfplay, 4 seats, bots, timeouts) dropped in, to
    "Checked.": the JS checks, then the Python's `verify_transcript` in the worker;
  - baseline: `verify_transcript` on the same transcript in this process (CPython, the real `cryptography`),
    which is what `fairdeal-verify` does after reading the file.
Wall milliseconds for the page (what a person waits) with the CPU seconds the Chromium processes used meanwhile
(/proc: on 2 shared cores the wall time measures the neighbours too); CPU milliseconds for the baseline. Median of
the rounds with the spread; load average before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_blind_browser import ARGS, CHROMIUM, chromium_pids  # noqa: E402
from bench.measure import cpu, cpu_seconds, load  # noqa: E402
from fairdeal.core.checks import verify_transcript  # noqa: E402
from fairdeal.core.keys import private_key_from_hex, public_key_text  # noqa: E402
from fairdeal.core.selfplay import selfplay  # noqa: E402
from tests.web.conftest import Server  # noqa: E402

KEY = private_key_from_hex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")


def summary(name: str, values: list[float], unit: str) -> str:
    return f"{name:<28} median {statistics.median(values):8.0f} {unit}  (spread {min(values):.0f} to {max(values):.0f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    t = selfplay("120s-auction", KEY, bytes([1] * 32), bots=(1,), timeout_every=7)
    path = Path(tempfile.mkdtemp()) / "fairdeal-game-bench.json"
    path.write_text(json.dumps(t))
    print(load(), "before;", len(t["records"]), "moves")
    server = Server(tempfile.mkdtemp(dir="/dev/shm" if os.path.isdir("/dev/shm") else None))
    rows: dict[str, list[float]] = {k: [] for k in ("load ms", "load cpu ms", "check ms", "check cpu ms", "base")}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            for _ in range(args.rounds):
                ctx = browser.new_context()
                page = ctx.new_page()
                page.set_default_timeout(600_000)
                pids = chromium_pids(os.getpid())
                c0, t0 = cpu_seconds(pids), time.monotonic()
                page.goto(server.url + "/verify")
                page.wait_for_selector("html[data-verifier]")
                assert page.get_attribute("html", "data-verifier") == "python"
                pids = chromium_pids(os.getpid())
                rows["load ms"].append((time.monotonic() - t0) * 1000)
                rows["load cpu ms"].append((cpu_seconds(pids) - c0) * 1000)
                page.click("#options summary")
                page.fill("#keys", public_key_text(KEY))
                c0, t0 = cpu_seconds(pids), time.monotonic()
                page.set_input_files("#file", str(path))
                page.wait_for_selector("#status:text-is('Checked.')")
                rows["check ms"].append((time.monotonic() - t0) * 1000)
                rows["check cpu ms"].append((cpu_seconds(pids) - c0) * 1000)
                assert page.get_attribute("#report", "data-engine") == "python"
                ctx.close()
                b0 = cpu()
                assert verify_transcript(t, key=public_key_text(KEY)).ok
                rows["base"].append((cpu() - b0) * 1000)
            browser.close()
    finally:
        server.stop()
    print(summary("page load (wall)", rows["load ms"], "ms"))
    print(summary("  Chromium CPU meanwhile", rows["load cpu ms"], "ms"))
    print(summary("page check, one game (wall)", rows["check ms"], "ms"))
    print(summary("  Chromium CPU meanwhile", rows["check cpu ms"], "ms"))
    print(summary("baseline: CPython check (CPU)", rows["base"], "ms"))
    print(load(), "after")


if __name__ == "__main__":
    main()
