"""The verifier's composed fast path (fairdeal.core.blind.composed) gives exactly what the general form gives:
the same findings, decks, hands and opens, for honest deals and for each kind of cheat."""

from __future__ import annotations

import copy

import pytest

from fairdeal.core.blind.check import audit
from fairdeal.core.blind.deal import spades_holders
from fairdeal.core.blind.group import element_from_hex, mul
from fairdeal.core.blind.local import run_deal
from fairdeal.core.blind.messages import sign
from fairdeal.core.blind.seat import BlindSeat

GAME = "g-composed"


def _game(change=None, who=None, kind=None, deals=2):
    seats = [BlindSeat(GAME, s, 4, secret=bytes([s + 40]) * 32) for s in range(4)]

    def tamper(m):
        if change and m["type"] == kind and m["seat"] == who and m["deal"] == deals - 1:
            m = copy.deepcopy(m)
            change(m)
            return sign(seats[who].identity, m)
        return m

    messages = [s.commit() for s in seats]
    holders = {}
    for k in range(deals):
        holders[k] = spades_holders(k % 4)
        messages += run_deal(seats, k, holders[k], tamper=tamper, receive=change is None)
        if change is None:
            messages += [seats[h].open(k, j) for j, h in enumerate(holders[k])]
    return messages + [s.reveal() for s in seats], holders


def _dup(m):
    m["deck"][0] = m["deck"][1]


def _swap(m):
    m["deck"][0], m["deck"][1] = m["deck"][1], m["deck"][0]


def _remask(m):
    m["deck"][7] = mul(5, element_from_hex(m["deck"][7])).hex()


def _skip(m):
    h = sorted(m["keys"])[0]
    del m["keys"][h][sorted(m["keys"][h], key=int)[0]]


CASES = {
    "honest": (None, None, None),
    "shuffle duplicate": (_dup, 1, "shuffle"),
    "shuffle order": (_swap, 0, "shuffle"),
    "shuffle element": (_remask, 3, "shuffle"),
    "lock": (_remask, 2, "lock"),
    "last lock": (_remask, 3, "lock"),
    "release": (_skip, 1, "release"),
}


@pytest.mark.parametrize("case", CASES)
def test_the_fast_path_is_the_general_form(case):
    messages, holders = _game(*CASES[case])
    fast, general = audit(GAME, 4, messages, holders), audit(GAME, 4, messages, holders, fast=False)
    assert fast.findings == general.findings
    assert (fast.decks, fast.hands, fast.opens) == (general.decks, general.hands, general.opens)
    assert bool(fast.findings) == (case != "honest")
    if case == "honest":
        assert len(fast.decks) == 2 and len(fast.opens) == 104
