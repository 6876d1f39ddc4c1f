"""A `fairdeal play` run as a subprocess for the tests that drive the terminal client against a served service:
its output read line by line on a thread, so a test waits for a line with a deadline."""

from __future__ import annotations

import queue
import re
import subprocess
import sys
import threading
import time


def _cli(*args):
    return [sys.executable, "-m", "fairdeal.cli", "play", *args]


def verify_cli(args: list[str], cwd=None) -> subprocess.CompletedProcess:
    """`fairdeal-verify ARGS` in a process of its own (in the folder `cwd`), its output captured."""
    return subprocess.run(
        [sys.executable, "-c", "from fairdeal.verify.cli import main; main()", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
    )


class Proc:
    """A `fairdeal play` with its output read line by line on a thread, so a test waits for a line with a deadline."""

    def __init__(self, args, cwd, env, stdin=True):
        self.p = subprocess.Popen(
            args,
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines: list[str] = []
        self.q: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.p.stdout:
            self.q.put(line)
        self.q.put(None)

    def until(self, pattern: str, timeout: float = 60) -> str:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                line = self.q.get(timeout=max(0.01, end - time.monotonic()))
            except queue.Empty:
                break
            if line is None:
                break
            self.lines.append(line)
            if re.search(pattern, line):
                return line
        raise AssertionError(f"{pattern!r} never came; the output was:\n{''.join(self.lines)[-3000:]}")

    def send(self, text: str):
        self.p.stdin.write(text)
        self.p.stdin.flush()

    def finish(self, timeout: float = 120) -> str:
        self.p.wait(timeout)
        while True:
            line = self.q.get(timeout=10)
            if line is None:
                return "".join(self.lines)
            self.lines.append(line)

    def so_far(self) -> str:
        """Everything it printed until now (for a failure's message)."""
        while True:
            try:
                line = self.q.get_nowait()
            except queue.Empty:
                return "".join(self.lines)
            if line is not None:
                self.lines.append(line)

    def kill(self):
        if self.p.poll() is None:
            self.p.kill()
            self.p.wait(10)
