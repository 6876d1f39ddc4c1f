"""Fixtures for the whole suite."""

import pytest


@pytest.fixture(autouse=True)
def no_pins(tmp_path, monkeypatch):
    """fairdeal-verify remembers pinned keys in the user's config dir; every test gets its own (empty, not yet
    created) pin file instead, never the real one. Returns its path."""
    path = tmp_path / "pins" / "pinned-keys.json"
    monkeypatch.setenv("FAIRDEAL_PINNED_KEYS", str(path))
    return path
