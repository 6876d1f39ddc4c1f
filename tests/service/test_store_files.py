"""The embedded store's files hold every running game's seed (so its hidden cards): the owner alone may read
them, like the signing keys."""

from __future__ import annotations

import os
import stat

from fairdeal.service.store.sqlite import SqliteStore
from tests.service.client import Api
from tests.service.conftest import make_app


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_the_database_and_its_wal_and_shm_are_0600_in_a_0700_folder(tmp_path, request):
    old = os.umask(0o022)  # a usual umask: files 0644 unless the store says otherwise
    try:
        app = make_app(tmp_path, "sqlite", request)
        api = Api(app.test_client())
        p = api.player()
        api.start(p, api.table(p, rule_set="spades")["id"])
    finally:
        os.umask(old)
    data = tmp_path / "data"
    files = sorted(f.name for f in data.iterdir() if f.name.startswith("fairdeal.sqlite3"))
    assert files == ["fairdeal.sqlite3", "fairdeal.sqlite3-shm", "fairdeal.sqlite3-wal", "fairdeal.sqlite3-writers"]
    assert {f: oct(mode(data / f)) for f in files} == {f: "0o600" for f in files}
    assert mode(data) == 0o700
    assert mode(data / "keys") == 0o700


def test_files_an_older_version_left_readable_are_made_private(tmp_path):
    path = tmp_path / "fairdeal.sqlite3"
    SqliteStore(str(path)).put_doc("table", "0123456789abcdef", {"a": 1}, 0)
    for suffix in ("", "-wal", "-shm"):
        os.chmod(f"{path}{suffix}", 0o644)
    store = SqliteStore(str(path))
    assert store.get_doc("table", "0123456789abcdef")[0] == {"a": 1}
    assert all(mode(f"{path}{s}") == 0o600 for s in ("", "-wal", "-shm"))


def test_a_new_data_dir_is_0700_whatever_the_store(tmp_path):
    """On Redis the data dir holds only the signing keys, and the key ring made it (once 0755 under a 0022 umask)."""
    from fairdeal.service.signing import KeyRing

    old = os.umask(0o022)
    try:
        KeyRing(str(tmp_path / "new" / "data"))
    finally:
        os.umask(old)
    assert mode(tmp_path / "new" / "data") == mode(tmp_path / "new" / "data" / "keys") == 0o700
