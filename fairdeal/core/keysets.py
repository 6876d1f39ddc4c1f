"""The set of service keys a user trusts: every key a service has signed with, and when each was its current key.

A service rotates its signing key (`fairdeal keys rotate`); games committed before the rotation stay signed with
the key their commit names. So an auditor checks each game against a key set, not one key. A key set comes from:

  - a key text, 'ed25519:' + 43 base64url characters (`--key`, repeatable);
  - a file of keys: one key text a line (blank lines and lines starting with # are ignored); or the saved JSON of
    the service's `GET /keys`, {"current": KEY, "keys": [{"key", "key_id", "created", "retired", "current"}]},
    which says when each key was made and retired; or a JSON list of such entries; or {"key": KEY};
  - the pinned keys (fairdeal.verify.pins).

A game's signer is judged at the game's time, its commit's "created": the key was "current" then when it was
made at or before that time and not retired before it; "retired" when the game is later than the key's
retirement (a retired key should sign nothing new: its game deserves a look); "not-yet-created" when the game
is older than the key; "unknown" when the key set holds no times for the key (a bare key text).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, cast

from fairdeal.core import keys

CURRENT, RETIRED, NOT_YET, UNKNOWN = "current", "retired", "not-yet-created", "unknown"


class KeySetError(ValueError):
    """A key, file or JSON that cannot be used as keys; the message says what is wrong."""


def parse_time(text: Any) -> datetime | None:
    """An ISO 8601 time as the service writes them ("2026-01-01T00:00:00Z"); None when absent or unreadable."""
    if not isinstance(text, str) or not text:
        return None
    try:
        moment = datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith("Z") else text)
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def _same_second(text: str | None, moment: datetime, whole: datetime) -> bool:
    """A key time written to the second only (older key folders) covers that whole second."""
    return text is not None and "." not in text and moment.replace(microsecond=0) == whole


@dataclass(frozen=True)
class TrustedKey:
    key: str
    origin: str  # where the user gave it: "--key", a file's name, the service it is pinned for
    created: str | None = None
    retired: str | None = None  # None: still current (or not known)

    @property
    def key_id(self) -> str:
        return keys.key_id(self.key)

    def status_at(self, when: Any) -> str:
        """Whether this key was the current one at the time `when` (an ISO 8601 text), per the module's words."""
        moment, made, gone = parse_time(when), parse_time(self.created), parse_time(self.retired)
        if moment is None or (made is None and gone is None):
            return UNKNOWN
        if made is not None and moment < made:
            return NOT_YET
        if gone is not None and moment > gone and not _same_second(self.retired, moment, gone):
            return RETIRED
        return CURRENT

    def to_json(self, when: Any = None) -> dict[str, Any]:
        return {
            "key": self.key,
            "key_id": self.key_id,
            "origin": self.origin,
            "created": self.created,
            "retired": self.retired,
            "status": self.status_at(when),
        }


class KeySet:
    """Trusted keys in the order given, one entry a key (a key given twice keeps the entry that knows its times)."""

    def __init__(self, entries: Iterable[TrustedKey] = ()):
        self._by_key: dict[str, TrustedKey] = {}
        for entry in entries:
            self.add(entry)

    def add(self, entry: TrustedKey) -> None:
        known = self._by_key.get(entry.key)
        if known is None or (known.created is None and entry.created is not None):
            self._by_key[entry.key] = entry

    def __iter__(self) -> Iterator[TrustedKey]:
        return iter(self._by_key.values())

    def __len__(self) -> int:
        return len(self._by_key)

    def __contains__(self, key: Any) -> bool:
        return key in self._by_key

    def find(self, key: Any) -> TrustedKey | None:
        return self._by_key.get(key) if isinstance(key, str) else None

    @property
    def only(self) -> TrustedKey | None:
        """The one key of a set of one."""
        return next(iter(self._by_key.values())) if len(self._by_key) == 1 else None

    @property
    def current(self) -> TrustedKey | None:
        """The key that signs now: the only key of the set, else its one key with times and not retired (a /keys
        answer's current key); None when that is not one key."""
        if len(self._by_key) == 1:
            return self.only
        live = [e for e in self if e.retired is None and e.created is not None]
        return live[-1] if len(live) == 1 else None

    @classmethod
    def of(cls, given: Any, origin: str = "--key") -> KeySet | None:
        """A key set from what a caller hands in: a KeySet, one key text, or None (no key set)."""
        if given is None or isinstance(given, KeySet):
            return given
        return cls([TrustedKey(given, origin)])

    @classmethod
    def of_pins(cls, pins: Any) -> KeySet | None:
        """The pinned keys as a key set: a KeySet, or a mapping service -> key text (pins.load_pins)."""
        if not pins:
            return None
        if isinstance(pins, KeySet):
            return pins
        return cls(TrustedKey(k, name) for name, k in sorted(pins.items()))


# ------------------------------------------------------------------------------------------- reading


def _checked(text: Any, where: str) -> str:
    try:
        keys.load_public_key(text)
    except ValueError as exc:
        raise KeySetError(f"{where}: {exc}") from None
    return cast(str, text)  # load_public_key took it: a key text


def _time_or_none(value: Any, what: str, where: str) -> str | None:
    if value is None:
        return None
    if parse_time(value) is None:
        raise KeySetError(f"{where}: the key's {what} time {value!r} is not an ISO 8601 time.")
    return cast(str, value)  # parse_time read it: a time text


def keys_from_json(obj: Any, origin: str) -> list[TrustedKey]:
    """The keys of a JSON value: the `GET /keys` answer, a list of its entries, or {"key": KEY}."""
    if isinstance(obj, Mapping) and isinstance(obj.get("keys"), list):
        entries = obj["keys"]
    elif isinstance(obj, list):
        entries = obj
    elif isinstance(obj, Mapping) and any(isinstance(obj.get(k), str) for k in ("key", "public_key", "current")):
        text = next(obj[k] for k in ("key", "public_key", "current") if isinstance(obj.get(k), str))
        return [TrustedKey(_checked(text, origin), origin)]
    else:
        raise KeySetError(f"{origin} holds JSON that is neither the service's /keys answer nor a key.")
    out = []
    for n, entry in enumerate(entries, start=1):
        where = f"{origin}, key {n}"
        if isinstance(entry, str):
            entry = {"key": entry}
        if not isinstance(entry, Mapping) or "key" not in entry:
            raise KeySetError(f'{where}: an entry of the key list is an object with a "key".')
        out.append(
            TrustedKey(
                _checked(entry["key"], where),
                origin,
                _time_or_none(entry.get("created"), "created", where),
                _time_or_none(entry.get("retired"), "retired", where),
            )
        )
    if not out:
        raise KeySetError(f"{origin} holds no key.")
    return out


def keys_from_text(text: str, origin: str) -> list[TrustedKey]:
    """The keys of a file's text: JSON (see keys_from_json), or one key text a line."""
    body = text.strip()
    if body.startswith(("{", "[")):
        try:
            obj = json.loads(body)
        except ValueError as exc:
            raise KeySetError(f"{origin} is not valid JSON: {exc}.") from None
        return keys_from_json(obj, origin)
    out = []
    for number, line in enumerate(body.splitlines(), start=1):
        line = line.strip()
        if line and not line.startswith("#"):
            out.append(TrustedKey(_checked(line, f"{origin}, line {number}"), origin))
    if not out:
        raise KeySetError(f"{origin} holds no key.")
    return out


def read_key_option(value: str) -> list[TrustedKey]:
    """One --key value: a key text, or the name of a file of keys."""
    text = value.strip()
    if text.startswith(keys.KEY_PREFIX):
        return [TrustedKey(_checked(text, "--key"), "--key")]
    try:
        raw = Path(value).expanduser().read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        raise KeySetError(
            f"--key takes a public key ('ed25519:...') or a file of keys (one a line, or the "
            f"service's /keys JSON); {value!r} is neither."
        ) from None
    return keys_from_text(raw, value)


def read_key_options(values: Iterable[str]) -> KeySet | None:
    """Every --key value together (None: no --key given)."""
    values = list(values)
    if not values:
        return None
    return KeySet(entry for value in values for entry in read_key_option(value))
