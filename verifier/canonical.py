"""Canonical JSON: the one byte form that hashes and signatures cover (docs/transcript.md, "Canonical JSON").

  - values: objects with string keys, arrays, strings, integers with |n| <= 2**53 - 1, true, false, null;
    floats (and NaN / Infinity) are refused, so every number has exactly one spelling;
  - object keys sorted by Unicode code point, no whitespace: separators "," and ":";
  - strings as UTF-8, not \\u-escaped, except '"', '\\' and the control characters U+0000..U+001F
    (\\b \\f \\n \\r \\t, the rest as \\u00xx with lowercase hex), exactly as Python's json module writes them.

Python tuples are written as arrays. Anything else raises ValueError naming where it was found.
"""
from __future__ import annotations

import hashlib
import json
from typing import Any

MAX_SAFE_INT = 2**53 - 1  # the largest integer every JSON reader (JavaScript too) reads exactly

_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def _check(value: Any, where: str) -> None:
    if value is None or value is True or value is False:
        return
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError(f"{where}: a string with a lone surrogate cannot be written as UTF-8") from None
        return
    if isinstance(value, int):
        if type(value) is not int and not isinstance(value, bool):
            # an int subclass (an IntEnum, say) could print differently; insist on the plain int
            raise ValueError(f"{where}: {type(value).__name__} is not a plain integer")
        if abs(value) > MAX_SAFE_INT:
            raise ValueError(f"{where}: integer {value} is outside +-(2**53 - 1)")
        return
    if isinstance(value, float):
        raise ValueError(f"{where}: floats are not allowed in canonical JSON (got {value!r})")
    if isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            _check(item, f"{where}[{i}]")
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise ValueError(f"{where}: object keys must be strings, not {key!r}")
            _check(key, f"{where} key {key!r}")
            _check(item, f"{where}.{key}")
        return
    raise ValueError(f"{where}: {type(value).__name__} is not a JSON value")


def canonical_json(obj: Any) -> bytes:
    """The canonical UTF-8 bytes of a JSON value (see the module docstring)."""
    _check(obj, "$")
    return _ENCODER.encode(obj).encode("utf-8")


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
