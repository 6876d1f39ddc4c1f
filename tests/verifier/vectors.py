"""Reads the ```json vectors blocks out of docs/*.md (the test vectors of the fairness and transcript specs)."""

from __future__ import annotations

import json
import re
from pathlib import Path

DOCS = Path(__file__).resolve().parents[2] / "docs"
_BLOCK = re.compile(r"^```json vectors\n(.*?)^```", re.S | re.M)


def load_vectors(doc: str) -> list[dict]:
    text = (DOCS / doc).read_text(encoding="utf-8")
    return [json.loads(block) for block in _BLOCK.findall(text)]


def vectors_of(doc: str, kind: str) -> list[dict]:
    return [v for v in load_vectors(doc) if v["vector"] == kind]
