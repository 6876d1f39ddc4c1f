"""The audit's progress line: click's progress bar with the games done, games per second and the time left (ETA), drawn
only when standard output is a terminal and wiped when the audit ends, so that only the summary stays. Anywhere
else (a file, a pipe, a program reading the JSON) nothing is written but the summary.
"""

from __future__ import annotations

import sys
import time
from typing import IO, Any, TextIO

import click

CLEAR_LINE = "\r\033[K\033[?25h"  # back to the line's start, erase it, show the cursor (click hid it)


class Progress:
    """Call it with the number of games just checked; close() when done (also after an interruption)."""

    def __init__(self, total: int, stream: TextIO | None = None, enabled: bool | None = None):
        self.stream = stream or sys.stdout
        self.total = total
        self.done = 0
        self.start = time.monotonic()
        shown = _is_terminal(self.stream) if enabled is None else enabled
        self.bar: Any = None
        if shown and total > 0:
            self.bar = click.progressbar(
                length=total,
                file=self.stream,
                label="auditing",
                width=24,
                show_eta=False,
                show_percent=False,
                show_pos=True,
                item_show_func=lambda rate: rate,
                update_min_steps=1,
            )
            self.bar.render_progress()

    def __call__(self, n: int) -> None:
        self.done += n
        if self.bar is not None:
            rate = self.done / max(time.monotonic() - self.start, 1e-9)
            self.bar.update(n, f"{rate:.0f} games/s, ETA {eta_text((self.total - self.done) / rate)}")

    def close(self) -> None:
        if self.bar is not None:
            self.bar = None
            self.stream.write(CLEAR_LINE)
            self.stream.flush()


def eta_text(seconds: float) -> str:
    """The time left as M:SS (H:MM:SS from an hour on)."""
    whole = max(0, round(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


def _is_terminal(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no such method, or a closed stream
        return False
