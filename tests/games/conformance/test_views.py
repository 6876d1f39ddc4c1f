"""Views share one common core: every view of every rule set (each seat's and a spectator's) has the common keys
of docs/rules/views.md with the same meaning, then the rule set's own keys."""

import json
import random

import pytest

from fairdeal.core.cards import card_from_str
from fairdeal.core.fairness import SeedChance
from fairdeal.core.games import make_rules
from tests.games.conformance.tables import TABLE_IDS, TABLES

COMMON = [
    "rule_set",
    "settings",
    "seat",
    "players",
    "sides",
    "trump_word",
    "to_move",
    "phase",
    "dealer",
    "hand_number",
    "hand",
    "hand_sizes",
    "scores",
    "trump",
    "trick",
    "tricks",
    "last_hand",
    "result",
]
TRICK_KEYS = {"leader", "plays", "winner", "winning_card"}


def check_common(state, view, seat):
    rules = state.rules
    assert list(view)[: len(COMMON)] == COMMON, "the common keys come first, in their order"
    assert view["rule_set"] == rules.id and view["seat"] == seat and view["players"] == rules.players
    assert view["settings"] == rules.settings and view["trump_word"] == rules.trump_word
    sides = view["sides"]
    assert sides is None or sorted(s for side in sides for s in side) == list(range(rules.players))
    assert len(view["scores"]) == (len(sides) if sides else rules.players)
    assert view["to_move"] == state.to_move and view["phase"] == state.phase
    assert view["hand_number"] == len(state.deals) - 1 and view["dealer"] == state.deals[-1].dealer
    assert view["hand_sizes"] == [len(state.hands[s]) for s in range(rules.players)]
    if seat is None:
        assert view["hand"] is None
    elif view["hand"] is not None:
        assert sorted(map(card_from_str, view["hand"])) == sorted(state.hands[seat])
    assert view["trump"] is None or view["trump"] in "CDHS"
    for trick in ([view["trick"]] if view["trick"] is not None else []) + view["tricks"]:
        assert set(trick) == TRICK_KEYS and all(len(p) == 2 for p in trick["plays"])
    assert all(t["winner"] is not None for t in view["tricks"])
    last = view["last_hand"]
    if last is not None:  # an earlier hand (a deal given up for a new deal has none), or the game's last
        assert last["hand_number"] < view["hand_number"] or state.is_over and last["hand_number"] == view["hand_number"]
        assert last["dealer"] == state.deals[last["hand_number"]].dealer
    assert (view["result"] is None) == (not state.is_over)
    json.dumps(view)


@pytest.mark.parametrize("rid,players,settings", TABLES, ids=TABLE_IDS)
def test_every_view_has_the_common_keys_with_their_common_meaning(rid, players, settings):
    rules = make_rules(rid, settings, players)
    state = rules.new_game(SeedChance(b"views" + bytes(27)))
    rng = random.Random(rid)
    for _ in range(400):
        for seat in [None, *range(players)]:
            check_common(state, state.view(seat), seat)
        if state.is_over:
            break
        seat = state.to_move
        state.apply(seat, rng.choice(state.legal_moves(seat)))
