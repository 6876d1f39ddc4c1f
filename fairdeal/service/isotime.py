"""The service's time stamps: UTC, ISO 8601 with hundredths of a second ("2026-11-01T12:00:00.25Z"), as the records
and table documents write them."""

from __future__ import annotations

import datetime as dt


def iso(ts: float) -> str:
    return dt.datetime.fromtimestamp(ts, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")[:-4] + "Z"


def parse_iso(text: str) -> float:
    return (
        dt.datetime.strptime(text.replace("Z", "+0000"), "%Y-%m-%dT%H:%M:%S.%f%z").timestamp()
        if "." in text
        else dt.datetime.strptime(text.replace("Z", "+0000"), "%Y-%m-%dT%H:%M:%S%z").timestamp()
    )
