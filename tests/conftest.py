"""Fixtures for the whole suite."""
import pytest


@pytest.fixture(autouse=True)
def _own_pinned_keys_file(tmp_path, monkeypatch):
    # fairdeal-verify remembers pinned keys in the user's config dir; a test must never read or write the real one.
    monkeypatch.setenv("FAIRDEAL_PINNED_KEYS", str(tmp_path / "pinned-keys.json"))
