"""Waiting in tests: for a condition, never for a fixed time, with a deadline that scales with how busy the
machine is (a test that holds on an idle laptop must hold beside other work on two shared cores).

The scale is FAIRDEAL_TEST_TIME_SCALE when set (a number >= 1), else the one-minute load average per core,
at least 1 and at most MAX_SCALE: at load 12 on 2 cores a 10 s deadline is 60 s. Every deadline a process
test waits on goes through `scaled` (or `wait_for`, which uses it), so one knob stretches them all.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

MAX_SCALE = 20.0


def scale() -> float:
    """How much longer than on an idle machine things may take now."""
    env = os.environ.get("FAIRDEAL_TEST_TIME_SCALE")
    if env:
        return max(1.0, float(env))
    try:
        load = os.getloadavg()[0] / (os.cpu_count() or 1)
    except OSError:  # no load average on this system
        return 1.0
    return min(MAX_SCALE, max(1.0, load))


def scaled(seconds: float) -> float:
    """A deadline of `seconds` on an idle machine, stretched by `scale()`."""
    return seconds * scale()


def wait_for(
    condition: Callable[[], T], timeout: float = 10.0, interval: float = 0.05, what: str = "the condition"
) -> T:
    """Poll `condition` until it returns something truthy (returned) or `timeout` seconds, scaled, pass
    (AssertionError naming `what` and the last exception the condition raised, if any). Exceptions from
    the condition count as "not yet": a server that is still starting refuses connections."""
    deadline = time.monotonic() + scaled(timeout)
    last: BaseException | None = None
    while True:
        try:
            value = condition()
            if value:
                return value
        except Exception as e:  # not ready yet
            last = e
        if time.monotonic() > deadline:
            raise AssertionError(
                f"{what}: not within {scaled(timeout):.1f} s (scale {scale():.1f})"
                + (f"; last error: {last!r}" if last else "")
            )
        time.sleep(interval)
