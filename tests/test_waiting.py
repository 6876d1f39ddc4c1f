"""The tests' one waiting helper (tests/waiting.py): deadlines stretch with the setting or the load, and a wait
returns the condition's value, treats its exceptions as "not yet", and fails naming what it waited for."""

import os

import pytest

from tests import waiting


def test_the_scale_is_the_setting_else_the_load_per_core_within_bounds(monkeypatch):
    monkeypatch.setenv("FAIRDEAL_TEST_TIME_SCALE", "3")
    assert waiting.scale() == 3.0 and waiting.scaled(2) == 6.0
    monkeypatch.setenv("FAIRDEAL_TEST_TIME_SCALE", "0.1")  # never shorter than on an idle machine
    assert waiting.scale() == 1.0
    monkeypatch.delenv("FAIRDEAL_TEST_TIME_SCALE")
    cores = os.cpu_count() or 1
    monkeypatch.setattr(os, "getloadavg", lambda: (6.0 * cores, 0.0, 0.0))
    assert waiting.scale() == pytest.approx(6.0)
    monkeypatch.setattr(os, "getloadavg", lambda: (1000.0 * cores, 0.0, 0.0))
    assert waiting.scale() == waiting.MAX_SCALE
    monkeypatch.setattr(os, "getloadavg", lambda: (0.1, 0.0, 0.0))
    assert waiting.scale() == 1.0


def test_wait_for_returns_the_value_and_fails_naming_what_it_waited_for(monkeypatch):
    monkeypatch.setenv("FAIRDEAL_TEST_TIME_SCALE", "1")
    tries = iter([ConnectionRefusedError("not yet"), 0, "ready"])

    def condition():
        value = next(tries)
        if isinstance(value, Exception):
            raise value
        return value

    assert waiting.wait_for(condition, timeout=5, interval=0.001) == "ready"
    with pytest.raises(AssertionError, match=r"the moon: not within 0\.1 s .*last error: ValueError"):
        waiting.wait_for(lambda: int("x"), timeout=0.1, interval=0.01, what="the moon")
