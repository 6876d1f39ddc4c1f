"""Whole bot games at every 4-player 120s table: the partnership rules hold at every bot move, and every bot move
is legal. Behind a winning partner a bot takes the trick over only when the rules force it (every legal card
beats the partner's: void and bound to trump) or with the top card of the plain suit led. Seeded random deals
(tests' RandomChance); a few games per table keep it fast."""

import pytest

from fairdeal.core.cards import card_from_str
from fairdeal.core.games import make_rules
from fairdeal.core.games.base import FirstChoiceRng
from fairdeal.core.games.onetwenty.bots import plain_top
from fairdeal.core.games.onetwenty.ranks import make_strength
from tests.games.randomness import RandomChance

TABLES = [
    ("120s-auction", {}),
    ("120s-auction", {"everybody_passes": "dealer-picks"}),
    ("120s-house", {}),
    ("120s-house", {"dealer_can_take_it": True}),
    ("120s-traditional", {}),
    ("120s-traditional", {"teaser": True}),
]
BOT = FirstChoiceRng()


def partner_winning(view):
    """(winning card, card led) when the seat's partner is winning the trick now, else None."""
    plays = [(s, card_from_str(c)) for s, c in view["trick"]["plays"]]
    if not plays:
        return None
    strength = make_strength(view["trump"])
    led = plays[0][1]
    win_seat, win = max(plays, key=lambda p: strength(p[1], led))
    return (win, led) if win_seat % 2 == view["seat"] % 2 else None


@pytest.mark.parametrize("rule_set,settings", TABLES)
def test_bots_never_outbid_their_partner_nor_take_a_trick_from_a_winning_partner(rule_set, settings):
    rules = make_rules(rule_set, settings)
    checked_bids = checked_plays = 0
    for seed in range(3):
        g = rules.new_game(RandomChance(100 + seed))
        for _ in range(4000):
            if g.is_over:
                break
            s = g.to_move
            view = g.view(s)
            m = rules.bot_move(view, BOT)
            assert g.why_not(s, m) is None
            holder = view["bidding"]["holder"]
            if view["phase"] == "bidding" and holder is not None and holder != s and holder % 2 == s % 2:
                assert m.kind == "pass", (view["bidding"], m)
                checked_bids += 1
            if view["phase"] == "play" and (pw := partner_winning(view)):
                win, led = pw
                strength = make_strength(view["trump"])
                legal = [card_from_str(c) for c in view["options"]["cards"]]
                could_stay_under = any(strength(c, led) <= strength(win, led) for c in legal)
                if could_stay_under and strength(m.card, led) > strength(win, led):
                    assert m.card == plain_top(led.suit, False) and strength(win, led) > 0, (view["trick"], m)
                checked_plays += 1
            g.apply(s, m)
        assert g.is_over
    assert checked_bids and checked_plays  # the games did reach both situations
