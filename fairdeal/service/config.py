"""Service configuration: defaults, overridden by FAIRDEAL_* environment variables, overridden by arguments."""
from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from typing import Any


def _env_float(name: str, default: float) -> float:
    value = os.environ.get(name)
    return float(value) if value not in (None, "") else default


@dataclass(frozen=True)
class Config:
    data_dir: str = "./var"                 # signing keys and the embedded store live here
    redis_url: str | None = None            # redis://host:port/0 or redis+cluster://host:port; None: embedded
    card_clock: int | None = 25             # default seconds to play a card (DECISIONS.md, from 003)
    other_clock: int | None = 30            # default seconds for any other decision
    abandon_after: float = 600.0            # a game whose humans are all silent this long is abandoned
    reveal_seconds: float = 30.0            # after the start, how long committed seats have to reveal their seeds
    max_content_length: int = 16 * 1024     # request bodies are small JSON objects
    long_poll_max: float = 25.0             # the longest an event-feed request waits
    poll_interval: float = 0.1              # how often a waiting request looks for new records
    sweep_interval: float = 1.0
    cache_size: int = 512                   # games kept replayed in memory per process (about 1 MB each at most)
    extra: dict[str, Any] = field(default_factory=dict)

    @staticmethod
    def from_env(**overrides: Any) -> "Config":
        cfg = Config(
            data_dir=os.environ.get("FAIRDEAL_DATA") or "./var",
            redis_url=os.environ.get("FAIRDEAL_REDIS_URL") or None,
            abandon_after=_env_float("FAIRDEAL_ABANDON_AFTER", 600.0),
            reveal_seconds=_env_float("FAIRDEAL_REVEAL_SECONDS", 30.0),
            long_poll_max=_env_float("FAIRDEAL_LONG_POLL_MAX", 25.0),
            cache_size=int(_env_float("FAIRDEAL_CACHE_GAMES", 512)),
        )
        return replace(cfg, **{k: v for k, v in overrides.items() if v is not None})
