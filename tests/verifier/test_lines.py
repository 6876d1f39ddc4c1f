"""The audit finds an export's lines a chunk at a time: the same lines as splitting the whole file, without
holding the file."""

import io
import tracemalloc

import pytest

from fairdeal.verify import lines
from fairdeal.verify.audit import find_items


def _split(data: bytes):
    """What the audit did before: the whole file split at newlines, blank lines skipped."""
    out, offset = [], 0
    for number, raw in enumerate(data.split(b"\n"), start=1):
        if raw.strip():
            out.append((number, offset, len(raw)))
        offset += len(raw) + 1
    return out


CASES = [b"", b"\n\n", b"{}", b"{}\n", b'  \n{"a": 1}\r\n\t\n{"b": 2}', b"x\n\n\ny \n   z", b"\n" * 9 + b"q"]


@pytest.mark.parametrize("data", CASES)
@pytest.mark.parametrize("chunk", [1, 2, 3, 7, 1 << 20])
def test_the_same_lines_as_splitting_the_whole_file(data, chunk):
    assert [tuple(line) for line in lines.line_ranges(io.BytesIO(data), chunk)] == _split(data)


def test_a_line_across_many_chunks_is_one_line():
    data = b"a" * 1000 + b"\n" + b" " * 999 + b"\nb"
    assert list(lines.line_ranges(io.BytesIO(data), 64)) == [(1, 0, 1000), (3, 2001, 1)]


@pytest.mark.parametrize(
    "data, expected",
    [
        (b'{"a": 1}\n{"b": 2}\n', True),
        (b'\n  {"a": 1}\n\n  \n{"b": 2}', True),
        (b'{"a": 1}\n   \n', False),  # one value: a transcript, not lines
        (b'{\n "a": 1\n}\n', False),  # pretty-printed: the first line is not a value
        (b"", False),
    ],
)
def test_holds_lines_reads_the_first_line_and_what_follows(data, expected):
    assert lines.holds_lines(io.BytesIO(data), 4) is expected


def test_finding_the_items_of_a_large_export_does_not_hold_it(tmp_path):
    """20 MiB of lines: the items are found with a small fraction of that in memory (the old reader held the whole
    file, and then its lines, at once)."""
    export = tmp_path / "big.jsonl"
    line = b'{"pad": "' + b"x" * (100 * 1024) + b'"}\n'
    with export.open("wb") as fh:
        for _ in range(200):
            fh.write(line)
    tracemalloc.start()
    try:
        items = find_items([str(export)], [])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(items) == 200 and items[-1].offset == 199 * len(line) and items[-1].length == len(line) - 1
    assert peak < 4 * lines.CHUNK_BYTES, f"peak {peak} bytes while finding the lines of a 20 MiB export"


def test_an_export_larger_than_one_transcript_may_be_is_still_audited(tmp_path, monkeypatch):
    """The export as a whole is not held to the size limit of one transcript (only each line is)."""
    from fairdeal.core import fetch
    from fairdeal.verify import audit

    monkeypatch.setattr(fetch, "MAX_BYTES", 1000)
    monkeypatch.setattr(audit, "MAX_BYTES", 1000)
    export = tmp_path / "x.jsonl"
    export.write_bytes((b'{"a": 1}\n' * 200) + b'{"b": "' + b"y" * 2000 + b'"}\n')
    items = find_items([str(export)], problems := [])
    assert len(items) == 201 and problems == []
    reader = audit.ItemReader()
    try:
        assert reader.read(items[0]) == b'{"a": 1}'
        with pytest.raises(fetch.InputError, match="longer than"):
            reader.read(items[-1])
    finally:
        reader.close()
