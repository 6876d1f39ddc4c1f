"""What the feed tests share: a seated game and a move to make at it."""

from __future__ import annotations

from tests.service.client import Api


def pick(v):
    return v["suggested"] if v["suggested"] in v["legal_moves"] else v["legal_moves"][0]


def seated_game(api: Api, **table):
    p = api.player()
    t = api.table(p, rule_set="spades", clocks="off", **table)
    api.start(p, t["id"])
    return p, t["id"]
