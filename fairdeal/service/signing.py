"""The service's Ed25519 signing keys, kept in the data dir (keys/), created on first run.

`fairdeal keys rotate` makes a new current key; old keys stay, so games committed under them are still signed
with the key their commit names, and their public keys stay published.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import time

from fairdeal.core import keys as vkeys
from fairdeal.service.isotime import iso

FOLDER_MODE = 0o700  # the data dir holds the signing keys (and the embedded store's seeds): the owner only


def private_dir(path: str) -> None:
    """Create `path` (and any missing parents) 0700 when it is new; an existing folder keeps its mode (the
    operator's choice). makedirs' mode is masked by the umask, hence the chmod."""
    if os.path.isdir(path):
        return
    parent = os.path.dirname(os.path.abspath(path))
    if parent != path and not os.path.isdir(parent):
        private_dir(parent)
    os.makedirs(path, mode=FOLDER_MODE, exist_ok=True)
    os.chmod(path, FOLDER_MODE)


class KeyRing:
    def __init__(self, data_dir: str, create: bool = True):
        self.dir = os.path.join(data_dir, "keys")
        self._private: dict[str, object] = {}
        self._meta: list[dict] = []
        self.reload()
        if not self._meta and create:
            with self._locked():
                self.reload()  # another process may have created it while we waited
                if not self._meta:
                    self._rotate()

    @contextlib.contextmanager
    def _locked(self):
        """An exclusive lock on the key folder: processes starting together create one key, not several."""
        private_dir(os.path.dirname(self.dir))
        private_dir(self.dir)
        with open(os.path.join(self.dir, ".lock"), "w") as f:
            fcntl.flock(f, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(f, fcntl.LOCK_UN)

    def _index_mtime(self) -> float:
        try:
            return os.stat(os.path.join(self.dir, "index.json")).st_mtime
        except FileNotFoundError:
            return 0.0

    def reload(self) -> None:
        self._mtime = self._index_mtime()
        self._private.clear()
        self._meta = []
        index = os.path.join(self.dir, "index.json")
        if not os.path.exists(index):
            return
        with open(index) as f:
            self._meta = json.load(f)
        for m in self._meta:
            with open(os.path.join(self.dir, m["file"]), "rb") as f:
                self._private[m["key"]] = vkeys.private_key_from_pem(f.read())

    def rotate(self) -> dict:
        """A new current key; the old ones stay available for the games that name them."""
        with self._locked():
            self.reload()
            return self._rotate()

    def _rotate(self) -> dict:
        key = vkeys.generate_private_key()
        text = vkeys.public_key_text(key)
        kid = vkeys.key_id(text)
        name = f"ed25519-{kid}.pem"
        path = os.path.join(self.dir, name)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(vkeys.private_key_to_pem(key))
        # to the millisecond, as the games' own times are: a rotation and a game in the same second are told apart
        now = iso(time.time())
        entry = {"key": text, "key_id": kid, "file": name, "created": now}
        # the key that was current until now is retired now (an auditor checks each game's key against its time)
        meta = [dict(m, current=False, retired=m.get("retired") or now) for m in self._meta]
        meta.append(dict(entry, current=True))
        tmp = os.path.join(self.dir, "index.json.tmp")
        with open(tmp, "w") as f:
            json.dump(meta, f, indent=1)
        os.replace(tmp, os.path.join(self.dir, "index.json"))
        self.reload()
        return entry

    @property
    def current_key(self) -> str:
        if self._index_mtime() != self._mtime:
            self.reload()  # `fairdeal keys rotate` ran in another process
        for m in self._meta:
            if m.get("current"):
                return m["key"]
        raise RuntimeError("no current signing key")

    def private_for(self, public_text: str):
        if public_text not in self._private:
            self.reload()  # another process may have rotated
        return self._private[public_text]

    def public_keys(self) -> list[dict]:
        """Every key, oldest first: created, and retired (None for the current key) when the next one was made.
        A key folder written before retired times were kept takes the next key's created time."""
        out = []
        for i, m in enumerate(self._meta):
            retired = m.get("retired")
            if retired is None and not m["current"] and i + 1 < len(self._meta):
                retired = self._meta[i + 1]["created"]
            out.append(
                {
                    "key": m["key"],
                    "key_id": m["key_id"],
                    "created": m["created"],
                    "retired": retired,
                    "current": m["current"],
                }
            )
        return out
