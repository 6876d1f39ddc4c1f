"""The client's hand tracker against the rules engine: for every rule set (and the settings that change how a
hand ends: redeals, thrown-in hands, new deals, drop-outs, 2 and 3 players), the record that ends each hand is
the one after which the engine deals the next hand (or the game is over)."""

from __future__ import annotations

import pytest

from fairdeal.client.hands import HandTracker
from fairdeal.core.keys import private_key_from_hex
from fairdeal.core.selfplay import selfplay
from tests.client.engine_hands import engine_ends

KEY = private_key_from_hex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
GAMES = [
    ("120s-auction", {}, 4),
    ("120s-auction", {"everybody_passes": "next-dealer"}, 4),
    ("120s-auction", {"everybody_passes": "dealer-picks"}, 4),
    ("120s-house", {}, 4),
    ("120s-house", {"stick_the_dealer": False, "throw_and_draw": False}, 4),
    ("120s-house", {}, 3),
    ("120s-house", {"stick_the_dealer": False}, 2),
    ("120s-traditional", {}, 4),
    ("spades", {}, 4),
    ("twenty-down", {}, 4),
    ("twenty-down", {"three_first_cards": True, "drop_out_first": True}, 4),
    ("twenty-down", {"at_least_two": True, "no_drop_twice": True}, 4),
]


@pytest.mark.parametrize("rule_set,settings,players", GAMES)
def test_every_hand_ends_where_the_engine_deals_the_next(rule_set, settings, players):
    for n in range(3):
        seed = bytes([7 * n + players + len(settings)] * 32)
        t = selfplay(
            rule_set,
            KEY,
            seed,
            settings=settings,
            players=players,
            bots=tuple(range(1, players)),
            timeout_every=0,
            variety_every=4,
        )
        tracker = HandTracker(rule_set, players)
        got = []
        for rec in t["records"]:
            end = tracker.step(rec)
            if end is not None:
                got.append((rec["seq"], "new-deal" if end.how == "new-deal" else "hand"))
        assert got == engine_ends(t, seed)
        assert len(got) > 1


def test_a_spades_trick_is_done_every_fourth_card():
    tracker = HandTracker("spades", 4)
    for _ in range(4):
        tracker.step({"move": {"kind": "bid", "value": 3}})
    done = []
    for _ in range(8):
        tracker.step({"move": {"kind": "play", "card": "2C"}})
        done.append(tracker.trick_done)
    assert done == [None, None, None, 0, None, None, None, 1]
