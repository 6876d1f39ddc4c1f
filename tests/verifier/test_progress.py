"""The audit's progress line: on a terminal (a real pty) a click bar with games/s and the time left, wiped at the
end so only the summary stays; off a terminal nothing but the summary."""

import json
import os
import re
import subprocess
import sys

import pytest

from fairdeal.core.selfplay import selfplay
from fairdeal.verify.progress import CLEAR_LINE, Progress, eta_text
from tests.verifier.tamper_kit import SERVER_KEY, SERVER_PUBLIC


def _read_all(fd: int) -> str:
    chunks = []
    while True:
        try:
            data = os.read(fd, 65536)
        except OSError:  # the slave side closed (EIO on Linux)
            break
        if not data:
            break
        chunks.append(data)
    return b"".join(chunks).decode("utf-8", "replace")


@pytest.fixture
def pty_stream():
    master, slave = os.openpty()
    stream = os.fdopen(slave, "w", encoding="utf-8")
    yield stream, master
    os.close(master)


def test_on_a_terminal_the_bar_shows_position_rate_and_eta_then_wipes_its_line(pty_stream):
    stream, master = pty_stream
    assert stream.isatty()
    bar = Progress(4, stream=stream)
    bar(1)
    bar(1)
    bar(2)
    bar.close()
    stream.close()
    shown = _read_all(master)
    assert "auditing" in shown and "1/4" in shown and "2/4" in shown and "4/4" in shown
    assert re.search(r"\d+ games/s", shown) and re.search(r"games/s, ETA \d:\d\d", shown)
    assert shown.endswith(CLEAR_LINE)


def test_eta_text():
    assert [eta_text(s) for s in (0, 59.4, 61, 3599, 3600, 7322)] == [
        "0:00",
        "0:59",
        "1:01",
        "59:59",
        "1:00:00",
        "2:02:02",
    ]


def test_off_a_terminal_nothing_is_written(tmp_path):
    with open(tmp_path / "out.txt", "w") as f:
        bar = Progress(10, stream=f)
        bar(5)
        bar(5)
        bar.close()
    assert (tmp_path / "out.txt").read_text() == ""
    assert Progress(10, stream=open(os.devnull, "w"), enabled=False).bar is None


@pytest.fixture(scope="module")
def export(tmp_path_factory):
    path = tmp_path_factory.mktemp("progress") / "export.jsonl"
    path.write_text("\n".join(json.dumps(selfplay("twenty-down", SERVER_KEY, bytes([i]) * 32)) for i in range(6)))
    return path


COMMAND = [
    sys.executable,
    "-c",
    "from fairdeal.verify.cli import main; main()",
    "audit",
    "--jobs",
    "1",
    "--key",
    SERVER_PUBLIC,
]


def test_audit_on_a_terminal_draws_the_bar_and_leaves_only_the_summary(export):
    master, slave = os.openpty()
    proc = subprocess.Popen([*COMMAND, str(export)], stdout=slave, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    os.close(slave)
    shown = _read_all(master)
    os.close(master)
    assert proc.wait(timeout=120) == 0 and proc.stderr.read() == b""
    assert "auditing" in shown and "6/6" in shown and "games/s" in shown
    bar, _, after = shown.rpartition(CLEAR_LINE)
    assert bar and after.startswith("audited 6 game(s) on 1 process(es)")  # the bar's line is wiped first
    assert "auditing" not in after and "\r" not in after.replace("\r\n", "\n")


def test_audit_off_a_terminal_prints_nothing_but_the_summary(export):
    out = subprocess.run([*COMMAND, str(export)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stderr == ""
    assert out.stdout.startswith("audited 6 game(s) on 1 process(es)") and "\r" not in out.stdout
    assert "auditing" not in out.stdout and "\x1b" not in out.stdout
