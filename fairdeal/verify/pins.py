"""Pinned public keys: the service keys a user has decided to trust, remembered between runs.

A small JSON file, by default `~/.config/fairdeal/pinned-keys.json` (`$XDG_CONFIG_HOME/fairdeal/...` when that is
set; the environment variable FAIRDEAL_PINNED_KEYS names another file, which the tests use):

    {"pins": {"<service>": {"key": "ed25519:...", "key_id": "0123456789abcdef",
                            "keys": [{"key": "ed25519:...", "key_id": "...", "created": "...", "retired": "..."}]}}}

"key" is the service's key pinned last; "keys" (optional, older files have none) every key pinned for it, with the
times the service published for them (its /keys answer), so games signed before a rotation still verify against
the pins. Pinning adds keys; it never drops one. A service is named by the host of the URL its transcript came
from, or else the key's id.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from fairdeal.core.keys import key_id, load_public_key
from fairdeal.core.keysets import KeySet, KeySetError, TrustedKey, keys_from_json

ENV_VAR = "FAIRDEAL_PINNED_KEYS"


class PinError(Exception):
    """The pin file exists but cannot be used; the message says what to do."""


def pin_file() -> Path:
    explicit = os.environ.get(ENV_VAR)
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "fairdeal" / "pinned-keys.json"


def _read(path: Path) -> dict[str, Any]:
    """The file's "pins" object ({} when there is no pin file yet), every key in it checked."""
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise PinError(f"The pinned keys file {path} could not be read: {exc.strerror or exc}.") from None
    try:
        pins: dict[str, Any] = json.loads(raw)["pins"]
        for name, entry in pins.items():
            load_public_key(entry["key"])
            if entry.get("keys"):
                keys_from_json(entry["keys"], str(name))
    except (ValueError, KeyError, TypeError, AttributeError, KeySetError):
        raise PinError(
            f"The pinned keys file {path} is damaged; fix or delete it (it maps each service to its public keys)."
        ) from None
    return pins


def load_pins(path: Path | None = None) -> dict[str, str]:
    """service -> the public key text pinned last for it ({} when there is no pin file yet)."""
    return {str(name): entry["key"] for name, entry in _read(path or pin_file()).items()}


def _entries(name: str, entry: dict[str, Any]) -> list[TrustedKey]:
    listed = keys_from_json(entry["keys"], name) if entry.get("keys") else []
    return listed + [TrustedKey(entry["key"], name)]


def pinned_key_set(service: str | None = None, path: Path | None = None) -> KeySet | None:
    """Every key pinned (for `service` only, when given) as a key set; None when nothing is pinned. A service
    with no pin is a PinError that names the services pinned."""
    pins = _read(path or pin_file())
    if service is not None:
        if service not in pins:
            known = ", ".join(sorted(pins)) or "none"
            raise PinError(f"No key is pinned for the service {service!r} (pinned: {known}).")
        pins = {service: pins[service]}
    found = KeySet(e for name, entry in sorted(pins.items()) for e in _entries(str(name), entry))
    return found if len(found) else None


def pinned_key(service: str, path: Path | None = None) -> str | None:
    return load_pins(path).get(service)


def _entry_json(e: TrustedKey) -> dict[str, Any]:
    return {"key": e.key, "key_id": e.key_id, "created": e.created, "retired": e.retired}


def save_pin(service: str, key: str, path: Path | None = None, also: Iterable[TrustedKey] = ()) -> Path:
    """Record `key` as the pinned key of `service` (the caller has decided to trust it), and the keys `also`
    beside it (a key set's other keys); the keys pinned before for it stay. Returns the file."""
    path = path or pin_file()
    load_public_key(key)
    pins = _read(path)
    kept = KeySet(_entries(service, pins[service]) if service in pins else [])
    for entry in [*also, TrustedKey(key, service)]:
        kept.add(entry)
    pins[service] = {"key": key, "key_id": key_id(key), "keys": [_entry_json(e) for e in kept]}
    data: dict[str, Any] = {"pins": dict(sorted(pins.items()))}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        os.replace(tmp, path)  # a reader never sees half a file
    except OSError as exc:
        raise PinError(f"The pinned keys file {path} could not be written: {exc.strerror or exc}.") from None
    return path
