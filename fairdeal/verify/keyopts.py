"""The key options every `fairdeal-verify` command shares (--key, --service, FAIRDEAL_VERIFY_KEYS) and what
they come to: the keys given, else the keys pinned (docs/verify.md, "Which key")."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import click

from fairdeal.core.keysets import KeySet, KeySetError, read_key_options
from fairdeal.verify.pins import PinError, pinned_key_set


class UsageProblem(Exception):
    """A bad option value or input: exit status 2 with the sentence."""


def trusted_keys(key_opts: Sequence[str], service: str | None) -> tuple[KeySet | None, KeySet | None]:
    """(the keys given, the pinned keys to use when none is given): --key values (keys or files of keys, all of
    them together), else the keys pinned (for --service only, when given)."""
    try:
        given = read_key_options(key_opts)
    except KeySetError as exc:
        raise UsageProblem(str(exc)) from None
    if given is not None:
        if service is not None:
            raise UsageProblem("--service chooses pinned keys; it cannot go with --key.")
        return given, None
    try:
        return None, pinned_key_set(service)
    except PinError as exc:
        raise UsageProblem(str(exc)) from None


def key_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """--key and --service, the same on every command."""
    command = click.option(
        "--service",
        metavar="NAME",
        envvar="FAIRDEAL_VERIFY_SERVICE",
        help="Check against the keys pinned for the service NAME (default: every pinned key).",
    )(command)
    return click.option(
        "--key",
        "key_opts",
        multiple=True,
        metavar="KEY|FILE",
        envvar="FAIRDEAL_VERIFY_KEYS",
        help="A public key of the service ('ed25519:...'), or a file of keys: one a line, or "
        "the saved JSON of its GET /keys (every key it has used, with when each was "
        "current). Repeatable: every key given is trusted (a key set).",
    )(command)
