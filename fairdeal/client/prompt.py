"""Reading the player's move while the clock runs: on a terminal the prompt counts the seconds down as they go
(the line is redrawn every second, what is typed stays); when the time is up, reading stops so the client can show
what the table played instead. Without a terminal (a pipe, a test) the prompt is written once and the line is read
with the deadline as its time limit; where neither is possible, the line is simply read."""

from __future__ import annotations

import os
import select
import sys
import time
from collections.abc import Callable
from typing import Any

TIMEOUT = object()  # read_line's answer when the deadline passed first
REDRAW = 0.25  # seconds between redraws of the counting prompt


def read_line(prompt: Callable[[int | None], str], deadline: float | None, stdin=None, stdout=None) -> Any:
    """The line typed (without its newline), None at the end of input, or TIMEOUT. `prompt(seconds_left)` gives
    the prompt text for the seconds left (None: no clock); `deadline` is a time.time() value or None."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    try:
        fd = stdin.fileno()
    except (AttributeError, OSError, ValueError):
        fd = None
    if fd is not None and stdin.isatty() and stdout.isatty():
        try:
            import termios
            import tty
        except ImportError:
            termios = None  # type: ignore[assignment]
        if termios is not None:
            return _edit_line(fd, prompt, deadline, stdout, termios, tty)
    stdout.write(prompt(_left(deadline)))
    stdout.flush()
    if fd is not None and deadline is not None:
        try:
            ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.time()))
        except (OSError, ValueError):
            ready = [fd]
        if not ready:
            stdout.write("\n")
            return TIMEOUT
    line = stdin.readline()
    if not line:
        return None
    return line.rstrip("\r\n")


def _left(deadline: float | None) -> int | None:
    return None if deadline is None else max(0, int(deadline - time.time() + 0.999))


def _edit_line(fd: int, prompt, deadline, out, termios, tty) -> object:
    """A small line editor in cbreak mode: printable characters, Backspace, Ctrl-U, Enter; Ctrl-D on an empty line
    ends the input, Ctrl-C interrupts; arrow keys and other escapes are ignored."""
    saved = termios.tcgetattr(fd)
    buf: list[str] = []
    shown = None
    try:
        tty.setcbreak(fd, termios.TCSANOW)  # keep what was typed ahead (TCSAFLUSH would drop it)
        while True:
            left = _left(deadline)
            text = prompt(left) + "".join(buf)
            if text != shown:
                out.write("\r\x1b[K" + text)
                out.flush()
                shown = text
            if left == 0:
                out.write("\n")
                return TIMEOUT
            ready, _, _ = select.select([fd], [], [], REDRAW)
            if not ready:
                continue
            ch = os.read(fd, 1).decode("utf-8", "replace")
            if ch in ("\r", "\n"):
                out.write("\n")
                return "".join(buf)
            if ch == "\x03":
                raise KeyboardInterrupt
            if ch == "\x04" and not buf:
                out.write("\n")
                return None
            if ch in ("\x7f", "\b"):
                if buf:
                    buf.pop()
            elif ch == "\x15":
                buf.clear()
            elif ch == "\x1b":
                _skip_escape(fd)
            elif ch.isprintable():
                buf.append(ch)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def _skip_escape(fd: int) -> None:
    """Drop the rest of an escape sequence (an arrow key sends ESC [ A)."""
    while select.select([fd], [], [], 0.01)[0]:
        ch = os.read(fd, 1)
        if ch.isalpha() or ch == b"~":
            return
