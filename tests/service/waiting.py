"""Waiting for a condition with a deadline, never for a fixed time: the deadline is generous (a busy machine
may be slow), the poll quick (an idle one is not kept waiting)."""
from __future__ import annotations

import time


def wait_until(pred, what: str, timeout: float = 30.0, every: float = 0.01) -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < deadline, f"timed out waiting until {what}"
        time.sleep(every)
