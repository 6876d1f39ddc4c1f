"""The rule sets, registered explicitly: each id maps to a loader that imports its engine's Rules class by a plain
import statement (read by linters, type checkers and the import-graph test alike). The import happens on first use,
so a broken or missing engine cannot stop the others from loading; `available()` loads them all and fails naming
the broken one (the service asks at start)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from fairdeal.core.games.base import BadSettings, Rules


def _auction() -> type[Rules]:
    from fairdeal.core.games.onetwenty import AuctionRules

    return AuctionRules


def _house() -> type[Rules]:
    from fairdeal.core.games.onetwenty import HouseRules

    return HouseRules


def _traditional() -> type[Rules]:
    from fairdeal.core.games.onetwenty import TraditionalRules

    return TraditionalRules


def _spades() -> type[Rules]:
    from fairdeal.core.games.spades import SpadesRules

    return SpadesRules


def _twenty_down() -> type[Rules]:
    from fairdeal.core.games.twenty_down import TwentyDownRules

    return TwentyDownRules


# id -> the loader of its Rules class; each id's rules are docs/rules/<id>.md, and the class's own `id` is the key
RULE_SETS: dict[str, Callable[[], type[Rules]]] = {
    "120s-auction": _auction,
    "120s-house": _house,
    "120s-traditional": _traditional,
    "spades": _spades,
    "twenty-down": _twenty_down,
}


def rules_class(rule_set: str) -> type[Rules]:
    load = RULE_SETS.get(rule_set) if isinstance(rule_set, str) else None
    if load is None:
        raise BadSettings(f"Unknown rule set {rule_set!r}; the rule sets are: {', '.join(RULE_SETS)}.")
    return load()


def make_rules(
    rule_set: str, settings: Mapping[str, Any] | None = None, players: int = 4, version: int | None = None
) -> Rules:
    """The Rules object for a table (at the rule set's newest version unless `version` names another it still
    has), or BadSettings naming what is allowed."""
    return rules_class(rule_set)(settings, players, version)


def rules_from_json(rules: Mapping[str, Any]) -> Rules:
    """The Rules a transcript commits to ({"id", "players", "settings", "version"}), at that version, or
    BadSettings when this program does not have that rule set at that version."""
    cls = rules_class(rules.get("id"))
    version = rules.get("version")
    if type(version) is not int or version not in cls.versions:
        have = ", ".join(map(str, cls.versions))
        raise BadSettings(
            f"The game was played under version {version!r} of {cls.id}; this program "
            f"has version{'s' if len(cls.versions) > 1 else ''} {have}. Check it with the "
            f"fairdeal-verify of the service's release."
        )
    return cls(rules.get("settings") or {}, rules.get("players"), version)


def available() -> list[str]:
    """Every rule set, each loaded; one whose engine does not import, lacks its class or registers a class of
    another id is a RuntimeError naming it (the service asks at start: a broken engine fails the start rather than
    silently leave the lobby)."""
    for rid, load in RULE_SETS.items():
        try:
            cls = load()
        except ImportError as exc:
            raise RuntimeError(f"rule set {rid!r} cannot be loaded: {exc}") from exc
        if getattr(cls, "id", None) != rid:
            raise RuntimeError(
                f"rule set {rid!r} cannot be loaded: it is registered with {cls.__name__}, of another id"
            )
    return list(RULE_SETS)
