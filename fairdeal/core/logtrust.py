"""Which signed tree heads count (docs/log.md, "Which heads count"): a head's own signature proves only that
someone signed it; it counts for a service's log only when its key is one the verifier trusts for that service,
and was that service's key at the head's time when the key set knows the times (a rotation: `GET /keys`).

The keys trusted, in order: the keys given (--key, repeatable; a file of keys or the service's /keys answer); else
the keys pinned (for one service: the one the game's key is pinned for, or --service, or the URL's host when it is
a pinned name); else, for a transcript, the key that signed the game. With none of them (`fairdeal-verify log`
with no key and no pin) no head can be told from a stranger's, and the report says so instead of "LOG OK".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from fairdeal.core.keysets import NOT_YET, RETIRED, KeySet, TrustedKey
from fairdeal.core.results import key_id_or_none

GIVEN, PINNED, GAME, NONE = "given", "pinned", "game", "none"
SOURCE_WORDS = {GIVEN: "a key you gave", PINNED: "a pinned key", GAME: "the key that signed the game"}


def names(trusted: KeySet) -> str:
    return ", ".join(f"{e.origin} ({key_id_or_none(e.key)})" for e in trusted)


def head_keys(given: KeySet | None, pinned: KeySet | None, game_key: Any) -> tuple[KeySet, str]:
    """For a transcript's head: the keys given; else the keys pinned for the service the game's key is pinned
    for (every pinned key when the game's key is not pinned: its signatures fail anyway); else the key that
    signed the game, the only key the transcript ties to its service."""
    if given is not None:
        return given, GIVEN
    if pinned is not None:
        signer = pinned.find(game_key)
        return (pinned if signer is None else service_keys(pinned, signer.origin)), PINNED
    return KeySet([TrustedKey(game_key, "the game's key")] if isinstance(game_key, str) else []), GAME


def service_keys(pinned: KeySet, service: str) -> KeySet:
    """The pinned keys of one service (a pin's origin is the service it is pinned for)."""
    return KeySet(e for e in pinned if e.origin == service)


def head_key_problem(head: Mapping[str, Any], trusted: KeySet, source: str) -> dict[str, Any] | None:
    """None when the (signature-checked) head's key is trusted and was the service's key at the head's time (when
    the key set knows the times); else the facts of the failure, with its message code."""
    signer = trusted.find(head.get("key"))
    if signer is None:
        return {
            "code": "log-head-untrusted",
            "key_id": key_id_or_none(head.get("key")) or repr(head.get("key")),
            "trusted": SOURCE_WORDS[source],
            "keys": names(trusted) or "none",
        }
    status = signer.status_at(head.get("time"))
    if status in (RETIRED, NOT_YET):
        return {
            "code": "log-head-key-time",
            "key_id": signer.key_id,
            "size": head.get("size"),
            "time": head.get("time"),
            "status": status,
            "created": signer.created,
            "retired": signer.retired,
        }
    return None


def head_problem_text(f: Mapping[str, Any]) -> str:
    """The sentence of a head_key_problem (the watcher's finding; the verifier renders the same facts)."""
    if f["code"] == "log-head-untrusted":
        return (
            f"the tree head is signed by key {f['key_id']}, which is not {f['trusted']} ({f['keys']}): a head "
            f"anyone can sign proves nothing about the service's log"
        )
    when = (
        f"retired already (retired {f['retired']})"
        if f["status"] == RETIRED
        else f"not made yet (created {f['created']})"
    )
    return (
        f"the tree head of size {f['size']} is dated {f['time']}, when its key {f['key_id']} was {when}: the "
        f"service's key at that time signs its heads"
    )


@dataclass
class HeadTrust:
    """The keys a watcher holds heads to (keys None: no key given or pinned, nothing to hold them to). From pins
    of several services, every head of one log must be pinned for one service."""

    keys: KeySet | None = None
    source: str = NONE
    services: set[str] = field(default_factory=set)  # the pinned services the accepted heads are signed for

    @property
    def trusted(self) -> bool:
        return self.keys is not None

    def problem(self, head: Mapping[str, Any]) -> str | None:
        if self.keys is None:
            return None
        found = head_key_problem(head, self.keys, self.source)
        if found is not None:
            return head_problem_text(found)
        if self.source == PINNED:
            trusted = self.keys.find(head["key"])
            assert trusted is not None  # head_key_problem found it
            service = trusted.origin
            others = self.services - {service}
            if others:
                return (
                    f"the tree head of size {head['size']} is signed by a key pinned for {service!r}, the log's "
                    f"other heads by keys pinned for {sorted(others)[0]!r}: one log is one service's"
                )
            self.services.add(service)
        return None

    def to_json(self) -> dict[str, Any]:
        return {"source": self.source, "keys": [e.key_id for e in self.keys] if self.keys is not None else []}


def of(given: Any, pinned: KeySet | None, service_hint: str | None = None) -> HeadTrust:
    """The watcher's trust: the keys given (a KeySet, or one key text), else the pins (those of `service_hint`,
    the source URL's host, when it is a pinned service), else none."""
    given = KeySet.of(given)
    if given is not None:
        return HeadTrust(given, GIVEN)
    if pinned is not None and len(pinned):
        if service_hint is not None and len(service_keys(pinned, service_hint)):
            pinned = service_keys(pinned, service_hint)
        return HeadTrust(pinned, PINNED)
    return HeadTrust()


__all__ = ["HeadTrust", "head_keys", "head_key_problem", "head_problem_text", "of", "names", "service_keys"]
