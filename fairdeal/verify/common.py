"""What every `fairdeal-verify` command shares: its name, printing (a closed pipe is no error), messages on
standard error, the clock a witness cosigns at, and which keys a log's heads are held to."""

from __future__ import annotations

import os
import sys
import time

import click

from fairdeal.core import logtrust
from fairdeal.core.fetch import host_of
from fairdeal.core.keysets import KeySet

PROG = "fairdeal-verify"


def emit(text: str, err: bool = False) -> None:
    """Print, and keep going quietly when the reader has gone (`fairdeal-verify ... | head`): the exit status
    still says what the verification found."""
    try:
        click.echo(text, err=err)
    except BrokenPipeError:
        stream = sys.stderr if err else sys.stdout
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, stream.fileno())  # the interpreter's last flush must not fail again
        except (OSError, ValueError, AttributeError):
            pass


def say(message: str) -> None:
    """A message (a warning, why the input cannot be used) on standard error, named after the program."""
    emit(f"{PROG}: {message}", err=True)


def now_seconds() -> int:
    """The POSIX time a witness cosigns at (the verifier reads the clock only here and for --jobs' progress)."""
    return int(time.time())


def head_trust(source: str, given: KeySet | None, pins: KeySet | None) -> logtrust.HeadTrust:
    """What the log's heads are held to: the keys given, else the pins (of the service the URL's host names, when
    it is pinned); with neither, nothing (said on standard error, and in the report)."""
    trust = logtrust.of(given, pins, host_of(source))
    if not trust.trusted:
        say("warning: no key given or pinned: the log's heads cannot be told from a stranger's (give --key)")
    return trust
