"""Rules at the table (GET /tables/{id}/rules): the rules line in short sections, every sentence kept, the word
for trumps with "drumpf" explained at 120s-auction, and each suit's order as trumps (120s: 5, J, A of hearts)."""

from __future__ import annotations

import pytest

from fairdeal.core.games import available, make_rules
from tests.service.client import Api


@pytest.mark.parametrize("rule_set", available())
def test_every_rule_set_gets_short_sections_that_keep_every_sentence(api: Api, rule_set):
    p = api.player()
    t = api.table(p, rule_set=rule_set)
    h = api.get(f"/tables/{t['id']}/rules").get_json()
    items = [x for s in h["sections"] for x in s["items"]]
    assert len(h["sections"]) >= 3 and max(len(x) for x in items) < 400
    text = make_rules(rule_set, t["settings"], t["players"]).describe()
    for item in items:
        assert item.rstrip(";") in text, "a section says only what the rules line says"
    joined = " ".join(items)
    assert all(word.strip(".;") in joined for word in text.split()), "no sentence of the rules is lost"
    assert set(h["trump_order"]) <= {"C", "D", "H", "S"} and h["trump_order"]


def test_120s_auction_explains_drumpf_and_ranks_the_5_the_jack_and_the_ace_of_hearts_first(api: Api):
    p = api.player()
    t = api.table(p, rule_set="120s-auction")
    h = api.get(f"/tables/{t['id']}/rules").get_json()
    assert h["trump_word"] == "drumpf" and "trump suit" in h["terms"]["drumpf"]
    assert h["trump_order"]["S"][:5] == ["5S", "JS", "AH", "AS", "KS"]
    assert h["trump_order"]["H"][:4] == ["5H", "JH", "AH", "KH"]
    assert h["trump_order"]["C"][-3:] == ["8C", "9C", "10C"], "black small cards: 2 up to 10"
