"""Deals as data: every game lists its deals (hand number, dealer), every table names its deal layout, and the
layout as docs/rules/ writes it re-derives every hand of real games without the engine (deal_layouts.py beside
this module is that page written again as code)."""

import itertools
import pathlib
import random
import re

import pytest

from fairdeal.core.fairness import SeedChance
from fairdeal.core.games import RULE_SETS, make_rules, rules_class
from fairdeal.core.games.base import Deal, FirstChoiceRng, Move
from tests.games.conformance.deal_layouts import Rederived

DOCS = pathlib.Path(__file__).resolve().parents[3] / "docs" / "rules"

TABLES = [
    ("120s-auction", 4, {}),
    ("120s-auction", 4, {"shuffle_thrown_back": True, "kitty_teaser": True, "everybody_passes": "next-dealer"}),
    ("120s-house", 2, {}),
    ("120s-house", 3, {"dealer_can_take_it": True}),
    ("120s-house", 4, {}),
    ("120s-house", 4, {"throw_and_draw": False, "stick_the_dealer": False}),
    ("120s-traditional", 4, {}),
    ("120s-traditional", 4, {"teaser": True}),
    ("spades", 4, {}),
    ("twenty-down", 4, {}),
    ("twenty-down", 4, {"three_first_cards": True}),
    ("twenty-down", 4, {"three_first_cards": True, "drop_out_first": True, "jass_order": True}),
]


def every_table():
    """Every table size and every combination of the settings with few values (a game target is one number)."""
    for rid in RULE_SETS:
        cls = rules_class(rid)
        choices = [s.choices if len(s.choices) <= 3 else (s.default,) for s in cls.SETTINGS]
        for players in cls.table_sizes:
            for values in itertools.product(*choices):
                yield rid, players, dict(zip((s.name for s in cls.SETTINGS), values, strict=True))


@pytest.mark.parametrize("rid,players,settings", TABLES, ids=lambda x: str(x))
@pytest.mark.parametrize("seed", range(3))
def test_the_documented_deal_layout_rederives_every_hand_of_a_game(rid, players, settings, seed):
    rules = make_rules(rid, settings, players)
    chance = SeedChance(bytes([seed]) * 32)
    state = rules.new_game(chance)
    again = Rederived(rules.deal_layout, chance, rules.settings)
    assert state.deals == [Deal(0, chance.first_dealer(players))]
    rng = random.Random(seed)
    for _ in range(2500 if rid == "twenty-down" else 500):
        while again.deals_seen < len(state.deals):
            again.deal(*state.deals[again.deals_seen])
        assert [sorted(h) for h in again.hands] == [sorted(map(str, state.hands[s])) for s in range(players)]
        if state.is_over:
            break
        seat = state.to_move
        legal = state.legal_moves(seat)
        move = rules.bot_move(state.view(seat), FirstChoiceRng()) if rng.random() < 0.7 else rng.choice(legal)
        state.apply(seat, move)
        again.move(seat, move.to_json())
    assert [d.hand_number for d in state.deals] == list(range(len(state.deals)))
    if rid == "twenty-down" and not settings and seed == 0:
        assert state.deal_no > 8, "this game reaches the endgame deals (hearts without a choice)"


def test_deals_record_each_deal_with_its_dealer_as_it_is_made():
    rules = make_rules("120s-auction", {"everybody_passes": "next-dealer"})
    state = rules.new_game(SeedChance(b"\x01" * 32))
    first = state.dealer
    for seat in [(first + 1 + i) % 4 for i in range(4)]:
        state.apply(seat, Move.pass_())
    assert state.deals == [Deal(0, first), Deal(1, (first + 1) % 4)]
    assert state.hand_number == 1 and state.deals[1].dealer == (first + 1) % 4


@pytest.mark.parametrize("rid", sorted(RULE_SETS))
def test_every_deal_layout_a_table_can_have_is_spelled_out_in_its_rules_page(rid):
    page = (DOCS / f"{rid}.md").read_text()
    section = page.split("## Deal layout", 1)[1].split("\n## ", 1)[0]
    layouts = {make_rules(r, s, n).deal_layout for r, n, s in every_table() if r == rid}
    assert layouts
    for layout in layouts:
        assert f"`{layout}`" in section or f'"{layout}"' in section, layout
    named = set(re.findall(r'"((?:120s|spades|twenty-down)[\w-]*-\d)"', section))
    assert named <= layouts | {"120s-five-then-kitty3-<n>"}, named - layouts
