"""Pinned public keys: the service keys a user has decided to trust, remembered between runs.

A small JSON file, by default `~/.config/fairdeal/pinned-keys.json` (`$XDG_CONFIG_HOME/fairdeal/...` when that is
set; the environment variable FAIRDEAL_PINNED_KEYS names another file, which the tests use):

    {"pins": {"<service>": {"key": "ed25519:...", "key_id": "0123456789abcdef"}}}

A service is named by what the transcript says it is (see fairdeal.verifier.checks.service_name). Pinning only records a
key; it never replaces a pinned key silently (the command says so and needs --repin).
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from fairdeal.verifier.keys import key_id, load_public_key

ENV_VAR = "FAIRDEAL_PINNED_KEYS"


class PinError(Exception):
    """The pin file exists but cannot be used; the message says what to do."""


def pin_file() -> Path:
    explicit = os.environ.get(ENV_VAR)
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "fairdeal" / "pinned-keys.json"


def load_pins(path: Path | None = None) -> dict[str, str]:
    """service -> public key text ({} when there is no pin file yet)."""
    path = path or pin_file()
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise PinError(f"The pinned keys file {path} could not be read: {exc.strerror or exc}.") from None
    try:
        data = json.loads(raw)
        pins = data["pins"]
        out = {str(name): entry["key"] for name, entry in pins.items()}
        for key in out.values():
            load_public_key(key)
    except (ValueError, KeyError, TypeError, AttributeError):
        raise PinError(f"The pinned keys file {path} is damaged; fix or delete it "
                       f"(it maps each service to its public key).") from None
    return out


def pinned_key(service: str, path: Path | None = None) -> str | None:
    return load_pins(path).get(service)


def save_pin(service: str, key: str, path: Path | None = None) -> Path:
    """Record `key` as the pinned key of `service` (the caller has decided to trust it). Returns the file."""
    path = path or pin_file()
    load_public_key(key)
    pins = load_pins(path)
    pins[service] = key
    data: dict[str, Any] = {"pins": {name: {"key": k, "key_id": key_id(k)} for name, k in sorted(pins.items())}}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        os.replace(tmp, path)   # a reader never sees half a file
    except OSError as exc:
        raise PinError(f"The pinned keys file {path} could not be written: {exc.strerror or exc}.") from None
    return path
