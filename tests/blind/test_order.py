"""The order of a deal: whose turn it is, and who a stalled deal waits for."""

from fairdeal.core.blind.order import in_turn, waiting_for
from tests.blind.table import play_deals


def test_the_order_of_a_deal_step_by_step():
    _, messages, _ = play_deals(deals=1, opens=False)
    deal = [m for m in messages if m["type"] in ("shuffle", "lock", "release")]
    assert [(m["type"], m["seat"]) for m in deal][:8] == [("shuffle", s) for s in range(4)] + [
        ("lock", s) for s in range(4)
    ]
    for i, m in enumerate(deal):
        before = deal[:i]
        assert in_turn(before, m, 4)
        if m["type"] != "release":
            assert waiting_for(before, 0, 4) == (m["type"], [m["seat"]])
    assert waiting_for(deal, 0, 4) is None
    assert waiting_for(deal[:9], 0, 4) == ("release", [1, 2, 3])
    assert not in_turn(deal[:2], deal[3], 4)  # seat 3's shuffle before seat 2's
    assert not in_turn(deal[:5], deal[1], 4)  # a second shuffle
