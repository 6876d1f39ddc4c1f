"""The tables the conformance suite plays: every rule set at every table size it offers, and the settings that
change what a view shows or how a deal is laid out."""
from __future__ import annotations

from fairdeal.verifier.games import RULE_SETS, rules_class

# settings that change a view's contents or the deal layout, beside each rule set's defaults
EXTRA_SETTINGS = {
    "120s-auction": [{"kitty_teaser": True, "shuffle_thrown_back": True}, {"everybody_passes": "dealer-picks"}],
    "120s-house": [{"dealer_can_take_it": True, "stick_the_dealer": False, "throw_and_draw": False}],
    "120s-traditional": [{"teaser": True, "need_a_five": False}],
    "twenty-down": [{"three_first_cards": True}, {"three_first_cards": True, "drop_out_first": True,
                                                  "at_least_two": True, "no_drop_twice": True}],
}


def _tables() -> list[tuple[str, int, dict]]:
    out = []
    for rid in RULE_SETS:
        for players in rules_class(rid).table_sizes:
            out.append((rid, players, {}))
        for settings in EXTRA_SETTINGS.get(rid, []):
            out.append((rid, rules_class(rid).table_sizes[-1], settings))
    return out


TABLES = _tables()
TABLE_IDS = [f"{r}-{n}p" + "".join(f"-{k}={v}" for k, v in s.items()) for r, n, s in TABLES]
