"""The tables the conformance suite plays: every rule set of the registry at every table size it offers, the main
settings variants (those that change a view, the deal layout, the bidding or the end of a game), and, for the
property tests, any table at all (hypothesis draws a rule set, a size and a value for every setting)."""

from __future__ import annotations

from hypothesis import strategies as st

from fairdeal.core.games import RULE_SETS, rules_class

# (players or None for the largest table, settings) beside each rule set's defaults
EXTRA_SETTINGS: dict[str, list[tuple[int | None, dict]]] = {
    "120s-auction": [
        (None, {"kitty_teaser": True, "shuffle_thrown_back": True}),
        (None, {"everybody_passes": "dealer-picks", "scores_below_zero": "floored"}),
        (None, {"everybody_passes": "next-dealer"}),
    ],
    "120s-house": [
        (None, {"dealer_can_take_it": True, "stick_the_dealer": False, "throw_and_draw": False}),
        (None, {"dealer_can_take_it": True, "stick_the_dealer": False, "plain_aces_low": True}),
        (None, {"throw_and_draw": False, "thirty_for_sixty": False, "game_target": 60}),
        (2, {"dealer_can_take_it": True}),
    ],
    "120s-traditional": [(None, {"teaser": True, "need_a_five": False})],
    "twenty-down": [
        (None, {"three_first_cards": True}),
        (None, {"three_first_cards": True, "drop_out_first": True, "at_least_two": True, "no_drop_twice": True}),
    ],
}


def _tables() -> list[tuple[str, int, dict]]:
    out = []
    for rid in RULE_SETS:
        sizes = rules_class(rid).table_sizes
        for players in sizes:
            out.append((rid, players, {}))
        for players, settings in EXTRA_SETTINGS.get(rid, []):
            out.append((rid, players or sizes[-1], settings))
    return out


TABLES = _tables()
TABLE_IDS = [f"{r}-{n}p" + "".join(f"-{k}={v}" for k, v in s.items()) for r, n, s in TABLES]


@st.composite
def any_table(draw) -> tuple[str, int, dict]:
    """A rule set of the registry, one of its table sizes and a value for each of its settings."""
    rid = draw(st.sampled_from(sorted(RULE_SETS)))
    cls = rules_class(rid)
    players = draw(st.sampled_from(cls.table_sizes))
    settings = draw(st.fixed_dictionaries({s.name: st.sampled_from(s.choices) for s in cls.SETTINGS}))
    return rid, players, settings
