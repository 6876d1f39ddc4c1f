"""Move.throws, the fast way to list every throw of a hand (Moves made without their constructor's checks), gives
exactly the Moves the checked constructor makes, in the same order, for random hands and sizes."""

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from fairdeal.core.cards import PACK_52
from fairdeal.core.games.base import Move


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(PACK_52), min_size=0, max_size=9, unique=True), st.sets(st.integers(0, 9)))
def test_throws_are_the_checked_throws_in_order(hand, sizes):
    sizes = sorted(sizes)
    fast = Move.throws(hand, sizes)
    held = sorted(hand, key=PACK_52.index)
    checked = [Move.throw(combo) for k in sizes for combo in itertools.combinations(held, k)]
    assert fast == checked
    assert [m.to_json() for m in fast] == [m.to_json() for m in checked]
    assert all(Move.from_json(m.to_json()) == m and hash(Move.from_json(m.to_json())) == hash(m) for m in fast)
