"""The score sheet (GET /games/{id}/sheet): every hand that has ended, as each seat's view summed it up when it
ended (last_hand, without its tricks), public to anyone, and at the end the game's result."""

from __future__ import annotations

import pytest

from tests.service.client import Api, play_to_end


@pytest.mark.parametrize("rule_set", ["spades", "120s-auction", "twenty-down"])
def test_the_sheet_is_every_hands_summary_as_the_views_gave_it(api: Api, rule_set):
    p = api.player()
    t = api.table(p, rule_set=rule_set, clocks="off")
    api.start(p, t["id"])
    seen = {}

    def note(views):
        for v in views:
            last = (v.get("view") or {}).get("last_hand")
            if last:
                seen[last["hand_number"]] = {k: x for k, x in last.items() if k != "tricks"}

    play_to_end(api, t["id"], [p], on_view=lambda pl, v: note([v]))
    final = api.get(f"/games/{t['id']}").get_json()
    note([final])
    sheet = api.get(f"/games/{t['id']}/sheet").get_json()  # no token: anyone may read it
    hands = sheet["hands"]
    assert hands and all("tricks" not in h for h in hands)
    assert [h["hand_number"] for h in hands] == sorted(h["hand_number"] for h in hands)
    for h in hands:
        if h["hand_number"] in seen:
            assert h == seen[h["hand_number"]], "the sheet says what the view said when the hand ended"
    assert hands[-1]["scores"] == final["result"]["scores"] or rule_set == "twenty-down"
