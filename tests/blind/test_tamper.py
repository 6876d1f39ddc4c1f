"""Tampering with a blind deal fails verification and names the seat at fault (docs/blind.md, "Findings")."""

from __future__ import annotations

import copy

import pytest

from fairdeal.core.blind import check, derive
from fairdeal.core.blind.group import N, card_points, element_from_hex, mul
from tests.blind.table import play_deals, resign

GAME = "g-blind"


@pytest.fixture(scope="module")
def honest():
    return play_deals(GAME, deals=1, first_dealer=2)


def _audit(messages, holders):
    return check.audit(GAME, 4, messages, holders)


def _replace(messages, kind, seat, new):
    return [new if (m["type"] == kind and m["seat"] == seat) else m for m in messages]


def _find(messages, kind, seat):
    return copy.deepcopy(next(m for m in messages if m["type"] == kind and m["seat"] == seat))


def test_an_honest_deal_verifies_and_gives_every_seat_its_cards(honest):
    table, messages, holders = honest
    result = _audit(messages, holders)
    assert result.findings == []
    deck = result.decks[0]
    assert sorted(deck) == sorted(table[0].pack)
    for s in range(4):
        assert result.hands[0][s] == [table[s].cards[(0, j)] for j in range(52) if holders[0][j] == s]
    assert len(result.opens) == 52


def test_a_wrong_key_in_a_release_names_the_sender(honest):
    table, messages, holders = honest
    m = _find(messages, "release", 1)
    h = next(iter(m["keys"]))
    j = next(iter(m["keys"][h]))
    m["keys"][h][j] = "%064x" % (int(m["keys"][h][j], 16) ^ 1)
    result = _audit(_replace(messages, "release", 1, resign(table[1], m)), holders)
    assert [(f.code, f.seat, f.fields["positions"]) for f in result.findings] == [("release-wrong-key", 1, [int(j)])]
    assert result.at_fault == [1]


def test_a_skipped_release_names_the_sender(honest):
    table, messages, holders = honest
    m = _find(messages, "release", 3)
    h = sorted(m["keys"])[0]
    j = sorted(m["keys"][h], key=int)[0]
    del m["keys"][h][j]
    result = _audit(_replace(messages, "release", 3, resign(table[3], m)), holders)
    assert [(f.code, f.seat) for f in result.findings] == [("release-skipped", 3)]
    assert result.findings[0].fields == {"positions": [int(j)], "holders": [int(h)]}


def _cheat(table, kind, seat, change):
    """A tamper hook: seat `seat`'s `kind` message changed by change(message, table) and signed again by it."""

    def tamper(m):
        if m["type"] == kind and m["seat"] == seat:
            m = copy.deepcopy(m)
            change(m, table)
            return resign(table[seat], m)
        return m

    return tamper


def _dealt_with(kind, seat, change, dealer=2):
    """The messages of a deal in which one seat cheats and the later seats work honestly on what they get."""
    holder = {}

    def tamper(m):
        return _cheat(holder["table"], kind, seat, change)(m)

    import tests.blind.table as t

    table = [t.BlindSeat(GAME, s, 4, secret=bytes([s + 1]) * 32) for s in range(4)]
    holder["table"] = table
    holders = {0: t.spades_holders(dealer, 4)}
    messages = [s.commit() for s in table] + t.run_deal(table, 0, holders[0], tamper=tamper, receive=False)
    messages += [s.reveal() for s in table]
    return table, messages, holders


def test_a_non_permutation_shuffle_names_the_shuffler():
    def dup(m, table):
        m["deck"][5] = m["deck"][6]  # one card twice, another gone

    table, messages, holders = _dealt_with("shuffle", 2, dup)
    result = _audit(messages, holders)
    assert [(f.code, f.seat) for f in result.findings] == [("shuffle-not-permutation", 2)]
    assert result.findings[0].fields["positions"] == [5, 6]
    assert result.at_fault == [2]  # the later seats worked honestly on what they were given
    assert 0 not in result.decks


def test_a_replaced_element_names_the_seat():
    def swap_in(m, table):
        # seat 1 swaps in a card point it chose (masked with its own key): a card it would recognise later
        a = derive.shuffle_scalar(table[1].secret, 0)
        m["deck"][9] = mul(a, mul(7, card_points(["AS"])[0])).hex()

    table, messages, holders = _dealt_with("shuffle", 1, swap_in)
    result = _audit(messages, holders)
    assert [(f.code, f.seat, f.fields.get("positions")) for f in result.findings] == [("shuffle-replaced", 1, [9])]
    assert result.at_fault == [1]


def test_a_shuffle_with_another_mask_names_the_seat():
    def remask(m, table):
        m["deck"] = [mul(3, element_from_hex(x)).hex() for x in m["deck"]]

    table, messages, holders = _dealt_with("shuffle", 0, remask)
    result = _audit(messages, holders)
    assert [(f.code, f.seat) for f in result.findings] == [("shuffle-wrong-mask", 0)]


def test_a_chosen_order_is_caught_though_it_is_a_permutation():
    def reorder(m, table):
        m["deck"][0], m["deck"][1] = m["deck"][1], m["deck"][0]

    table, messages, holders = _dealt_with("shuffle", 3, reorder)
    result = _audit(messages, holders)
    assert [(f.code, f.seat) for f in result.findings] == [("shuffle-order", 3)]


def test_a_wrong_lock_names_the_seat():
    def relock(m, table):
        m["deck"][17] = mul(2, element_from_hex(m["deck"][17])).hex()

    table, messages, holders = _dealt_with("lock", 2, relock)
    result = _audit(messages, holders)
    assert [(f.code, f.seat, f.fields["positions"]) for f in result.findings] == [("lock-differs", 2, [17])]


def test_a_missing_reveal_names_the_seat(honest):
    table, messages, holders = honest
    result = _audit([m for m in messages if not (m["type"] == "reveal" and m["seat"] == 1)], holders)
    assert [(f.code, f.seat) for f in result.findings] == [("missing-reveal", 1)]
    assert result.decks == {}  # the deal cannot be derived without every secret


def test_a_reveal_that_is_not_the_committed_secret_names_the_seat(honest):
    table, messages, holders = honest
    m = _find(messages, "reveal", 0)
    m["secret"] = "ab" * 32
    result = _audit(_replace(messages, "reveal", 0, resign(table[0], m)), holders)
    assert [(f.code, f.seat) for f in result.findings] == [("reveal-mismatch", 0)]


def test_a_message_the_server_altered_is_blamed_on_no_seat(honest):
    table, messages, holders = honest
    m = _find(messages, "release", 2)
    h = next(iter(m["keys"]))
    j = next(iter(m["keys"][h]))
    m["keys"][h][j] = "%064x" % (int(m["keys"][h][j], 16) ^ 1)  # not signed again: the server changed it
    result = _audit(_replace(messages, "release", 2, m), holders)
    assert [(f.code, f.seat) for f in result.findings] == [("signature", None), ("missing-message", None)]
    assert result.findings[1].fields == {"type": "release", "claimed_seat": 2}
    assert result.at_fault == []  # seat 2 is not framed


def test_an_open_of_a_card_the_seat_does_not_hold_fails(honest):
    table, messages, holders = honest
    m = _find(messages, "open", 0)
    j = m["position"]
    other = next(i for i, h in enumerate(holders[0]) if h == 0 and i != j)
    m["card"] = table[0].cards[(0, other)]  # the keys of j with another of its cards
    result = _audit(_replace(messages, "open", 0, resign(table[0], m)), holders)
    assert ("open-wrong", 0) in [(f.code, f.seat) for f in result.findings]


def test_an_open_with_keys_that_fit_a_chosen_card_fails(honest):
    # keys are scalars: a seat can always find keys x with mul(x, P_card) == F[j] only by knowing dlog relations
    table, messages, holders = honest
    m = _find(messages, "open", 1)
    keys = [int(x, 16) for x in m["keys"]]
    keys[0] = keys[0] * 5 % N
    m["keys"] = [f"{k:064x}" for k in keys]
    result = _audit(_replace(messages, "open", 1, resign(table[1], m)), holders)
    assert [(f.code, f.seat) for f in result.findings] == [("open-wrong", 1)]
