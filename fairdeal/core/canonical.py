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
import json.encoder
from collections.abc import Callable
from typing import Any

from fairdeal.core.fastpath import fast_path

MAX_SAFE_INT = 2**53 - 1  # the largest integer every JSON reader (JavaScript too) reads exactly

_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def _encode_in_full(value: Any) -> str:
    """_ENCODER.encode(value): the general form of _encode."""
    return _ENCODER.encode(value)


def _c_encoder() -> Callable[[Any, int], Any] | None:
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:  # no C accelerator in this Python
        return None
    encoder: Callable[[Any, int], Any] = make(
        None, _ENCODER.default, json.encoder.encode_basestring, None, ":", ",", True, False, False
    )
    return encoder


_C_ENCODE = _c_encoder()


@fast_path(general=_encode_in_full)
def _encode(value: Any) -> str:
    """_ENCODER.encode with the C encoder made once rather than per call, and without the check for circular
    values (a value that passed the walk, or came from a JSON parser, is never circular): the same text."""
    encode = _C_ENCODE
    if encode is None:  # no C accelerator in this Python: the plain encoder
        return _ENCODER.encode(value)
    return "".join(encode(value, 0))


class _Refused(Exception):
    """A value without a canonical form; `path` is filled in on the way out (cheaper than building it for
    every value on the way in: this walk runs for every record hashed)."""

    def __init__(self, message: str):
        self.message = message
        self.path: list[str] = []


def _walk(value: Any) -> None:
    kind = type(value)
    if kind is str or kind is bool or value is None:
        return
    if kind is int:
        if -MAX_SAFE_INT <= value <= MAX_SAFE_INT:
            return
        raise _Refused(f"integer {value} is outside +-(2**53 - 1)")
    if kind is dict or kind is list or kind is tuple:
        if kind is dict:
            for key in value:
                if type(key) is not str:
                    raise _Refused(f"object keys must be strings, not {key!r}")
            members, where = value.items(), ".{}"
        else:
            members, where = enumerate(value), "[{}]"
        for name, item in members:
            # the common leaves are passed here, without a call per value: most of a record is leaves
            leaf = type(item)
            if leaf is str or leaf is bool or item is None or (leaf is int and -MAX_SAFE_INT <= item <= MAX_SAFE_INT):
                continue
            try:
                _walk(item)
            except _Refused as exc:
                exc.path.append(where.format(name))
                raise
        return
    if isinstance(value, float):
        raise _Refused(f"floats are not allowed in canonical JSON (got {value!r})")
    if isinstance(value, int):
        # an int subclass (an IntEnum, say) could print differently; insist on the plain int
        raise _Refused(f"{type(value).__name__} is not a plain integer")
    if isinstance(value, str):
        return  # a str subclass is written as its text
    raise _Refused(f"{type(value).__name__} is not a JSON value")


def canonical_json(obj: Any) -> bytes:
    """The canonical UTF-8 bytes of a JSON value (see the module docstring). ValueError names what was refused
    and where, e.g. "$.records[3].move.value: floats are not allowed ..."."""
    try:
        _walk(obj)
    except _Refused as exc:
        raise ValueError(f"${''.join(reversed(exc.path))}: {exc.message}") from None
    except RecursionError:
        raise ValueError("the value is nested too deeply") from None
    try:
        return _encode(obj).encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("a string with a lone surrogate cannot be written as UTF-8") from None


@fast_path(general=canonical_json)
def canonical_json_of_parsed(obj: Any) -> bytes:
    """canonical_json without its validating walk, for a value that is known to pass it: what
    transcript.parse_transcript returns (its parser refuses every value the walk would refuse). Same bytes;
    never use it for a value built by code."""
    try:
        return _encode(obj).encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("a string with a lone surrogate cannot be written as UTF-8") from None


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
