"""`fairdeal-verify audit --general-paths`: the same command run again in a fresh process on the general code, every
fast path of the core replaced by the general form it declares (fairdeal.core.fastpath). Which form a name is bound
to is settled when the core is imported, so the run is a new interpreter with FAIRDEAL_GENERAL_PATHS=1; its report
must be the fast run's, byte for byte (docs/verify.md, "The general code")."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence

from fairdeal.core import fastpath

ARGV: list[str] = []  # the arguments main() was given, for the run again


def on_general_code() -> bool:
    return fastpath.MODE == "general"


def run_on_general_code(argv: Sequence[str]) -> tuple[int, str, str]:
    """(exit status, standard output, standard error) of `fairdeal-verify ARGV` in a new process on the general
    code."""
    env = {**os.environ, fastpath.ENV: "1", "PYTHONIOENCODING": "utf-8"}
    done = subprocess.run(
        [sys.executable, "-m", "fairdeal.verify", *argv], env=env, capture_output=True, encoding="utf-8", check=False
    )
    return done.returncode, done.stdout, done.stderr
