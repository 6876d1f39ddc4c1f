"""fairdeal.core's public face (its __init__): the names a program checking games needs, each the very object its
own module defines, enough to read, verify and report a game with nothing else imported."""

import importlib
import json
from pathlib import Path

import pytest

import fairdeal.core as core

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "examples" / "120s-auction-game-fairdeal-2.json"
KEY = (ROOT / "docs" / "examples" / "example-key.txt").read_text().strip()


@pytest.mark.parametrize("name", core.__all__)
def test_every_public_name_is_its_modules_own(name):
    obj = getattr(core, name)
    home = getattr(obj, "__module__", None)
    if home is None:  # a constant: found in one of the core's modules under the same name
        assert any(getattr(importlib.import_module(m), name, None) is obj for m in _homes()), name
        return
    assert home.startswith("fairdeal.core."), (name, home)
    assert getattr(importlib.import_module(home), name) is obj


def _homes():
    return ["fairdeal.core.fairness", "fairdeal.core.results", "fairdeal.core.canonical"]


def test_the_face_lists_exactly_what_it_exports():
    exported = {n for n in vars(core) if not n.startswith("_") and not isinstance(getattr(core, n), type(core))}
    assert exported == set(core.__all__)


def test_a_game_is_read_verified_and_reported_through_the_face_alone():
    data = core.load_transcript(str(EXAMPLE))
    t = core.parse_transcript(data)
    assert core.rules_from_json(t["commit"]["rules"]).id == "120s-auction"
    report = core.verify_transcript(data, key=KEY)
    assert report.exit_code == 0 and {c.id for c in report.checks} == set(core.CHECK_IDS)
    assert "VERIFIED" in core.render_report(report, str(EXAMPLE))
    # and a changed byte is caught the same way
    bad = json.loads(EXAMPLE.read_text())
    bad["records"][0]["salt"] = "00" * 32
    assert core.verify_transcript(bad, key=KEY).exit_code == 1
    with pytest.raises(core.InputError):
        core.load_transcript(str(ROOT / "no-such-game.json"))
