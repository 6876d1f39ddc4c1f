"""Running fairdeal-verify in-process for the verifier's command-line tests."""

import io
import sys

import pytest

from fairdeal.verify.cli import main


def run(argv, capsys, stdin=None, monkeypatch=None):
    """(exit status, stdout, stderr) of `fairdeal-verify ARGV`; never a traceback."""
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    with pytest.raises(SystemExit) as exc:
        main(argv)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return exc.value.code, out, err
