"""The lines of a JSON Lines file as byte ranges, found by reading the file in fixed chunks: the audit's main
process never holds more than one chunk of an export, whatever its size (the workers read each line by its range).

A line is what `data.split(b"\\n")` gives (a "\\r" before the newline stays in it: JSON ignores it); a line of
ASCII whitespace only is skipped, as a blank line between transcripts.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import BinaryIO, NamedTuple

CHUNK_BYTES = 1 << 20  # read this much at a time
FIRST_LINE_MAX = 64 * 1024 * 1024  # how far to look for the end of the first line (the largest transcript)


class Line(NamedTuple):
    number: int  # 1-based
    offset: int  # of its first byte in the file
    length: int  # without the newline


def line_ranges(fh: BinaryIO, chunk_bytes: int = CHUNK_BYTES) -> Iterator[Line]:
    """Every line of `fh` (read from where it stands) that holds more than whitespace."""
    number, start, blank, base = 1, 0, True, 0  # base: file offset of the chunk in hand
    while True:
        chunk = fh.read(chunk_bytes)
        if not chunk:
            break
        at = 0
        while True:
            newline = chunk.find(b"\n", at)
            end = len(chunk) if newline < 0 else newline
            if blank and chunk[at:end].strip():
                blank = False
            if newline < 0:
                break
            if not blank:
                yield Line(number, start, base + newline - start)
            number, start, blank, at = number + 1, base + newline + 1, True, newline + 1
        base += len(chunk)
    if not blank:
        yield Line(number, start, base - start)


def holds_lines(fh: BinaryIO, chunk_bytes: int = CHUNK_BYTES) -> bool:
    """A .json file that is really JSON Lines: its first line that is not blank is a whole JSON value by itself
    (a pretty-printed transcript's first line is a lone '{'), and something other than whitespace follows it.
    Reads the first line and then only until that something is found."""
    ranges = line_ranges(fh, chunk_bytes)
    first = next(ranges, None)
    if first is None or first.length > FIRST_LINE_MAX:
        return False
    fh.seek(first.offset)
    try:
        json.loads(fh.read(first.length))
    except ValueError:
        return False
    fh.seek(first.offset + first.length)
    return next(line_ranges(fh, chunk_bytes), None) is not None
