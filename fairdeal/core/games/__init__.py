"""The rule sets. Each id maps to a Rules class, imported on first use so a broken or missing rule set
cannot stop the others from loading."""

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module
from typing import Any

from fairdeal.core.games.base import BadSettings, Rules

# id -> "module:Class"; each id's rules are docs/rules/<id>.md
RULE_SETS: dict[str, str] = {
    "120s-auction": "fairdeal.core.games.onetwenty.rules:AuctionRules",
    "120s-house": "fairdeal.core.games.onetwenty.rules:HouseRules",
    "120s-traditional": "fairdeal.core.games.onetwenty.rules:TraditionalRules",
    "spades": "fairdeal.core.games.spades.rules:SpadesRules",
    "twenty-down": "fairdeal.core.games.twenty_down.rules:TwentyDownRules",
}


def rules_class(rule_set: object) -> type[Rules]:
    target = RULE_SETS.get(rule_set) if isinstance(rule_set, str) else None
    if target is None:
        raise BadSettings(f"Unknown rule set {rule_set!r}; the rule sets are: {', '.join(RULE_SETS)}.")
    module, _, name = target.partition(":")
    cls: type[Rules] = getattr(import_module(module), name)
    return cls


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
    players: Any = rules.get("players")  # Rules refuses anything but a table size
    return cls(rules.get("settings") or {}, players, version)


def available() -> list[str]:
    """Every rule set, each loaded; one whose module does not import or lacks its class is a RuntimeError naming
    it (the service asks at start: a broken engine fails the start rather than silently leave the lobby)."""
    for rid, target in RULE_SETS.items():
        try:
            rules_class(rid)
        except (ImportError, AttributeError) as exc:
            raise RuntimeError(f"rule set {rid!r} ({target}) cannot be loaded: {exc}") from exc
    return list(RULE_SETS)
