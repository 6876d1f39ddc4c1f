"""The 120s engine's own data structures: the last hand's summary written when first read keeps its key order,
and hands sorted by their place in the pack equal hands sorted by (suit, rank)."""

import random

from fairdeal.core.cards import PACK_52
from fairdeal.core.games import make_rules
from tests.games.randomness import RandomChance


def test_last_hand_keeps_its_keys_in_order():
    """The last hand's summary is written when first read, its keys in the order they always had."""
    rules = make_rules("120s-house", {}, 2)
    game = rules.new_game(RandomChance(5))
    rng = random.Random(5)
    while game.hands_played == 0:
        game.apply(game.to_move, rng.choice(game.legal_moves(game.to_move)))
    tricks = [t.to_json() for t in game._last_facts.tricks]
    assert list(game.last_hand) == [
        "hand_number",
        "dealer",
        "thrown_in",
        "bidder",
        "bid",
        "trump",
        "points",
        "ten_trick",
        "ten_card",
        "made",
        "changes",
        "scores",
        "tricks",
    ]
    assert game.last_hand["tricks"] == tricks and len(tricks) == 5


def test_sort_hand_sorts_by_suit_then_rank_even_with_a_card_outside_the_pack():
    from fairdeal.core.cards import Card
    from fairdeal.core.games.onetwenty.state import _sort_key, sort_hand, sorted_cards

    rng = random.Random(7)
    for _ in range(50):
        hand = rng.sample(PACK_52, rng.randrange(1, 10))
        assert sorted_cards(hand) == sorted(hand, key=_sort_key)
    odd = rng.sample(PACK_52, 4) + [Card(1, "X"), Card(20, "C")]  # the quick key fails: sorted as ever
    expected = sorted(odd, key=_sort_key)
    sort_hand(odd)
    assert odd == expected


def test_the_deal_plans_shared_by_every_game_of_a_shape_are_the_plans_made_anew():
    """Games share their deal plans (made once per deal shape and dealer): after games of every 120s rule set and
    size, each shared plan is the one deal_plan gives for that shape and dealer, and a game deals by it."""
    from fairdeal.core.games.onetwenty.state import _PLANS, _deal_shape, _Dealing, deal_plan

    games = []
    for rid, sizes, settings in (
        ("120s-auction", (4,), {}),
        ("120s-house", (2, 3, 4), {}),
        ("120s-traditional", (4,), {"teaser": True}),
        ("120s-traditional", (4,), {}),
    ):
        for n in sizes:
            rules = make_rules(rid, settings, n)
            for seed in range(3):
                game = rules.new_game(RandomChance(seed))
                rng = random.Random(seed)
                while game.hands_played < 3 and not game.is_over:
                    game.apply(game.to_move, rng.choice(game.legal_moves(game.to_move)))
                games.append(game)
    for game in games:
        v = game.v
        assert game._plans is _PLANS[_deal_shape(v)]
        assert game.dealer in game._plans or game.phase == "over"
        for dealer, plan in game._plans.items():
            fresh = _Dealing(deal_plan(v, dealer), v.players)
            assert (plan.plan, plan.order, plan.seats, plan.kitty) == (
                fresh.plan,
                fresh.order,
                fresh.seats,
                fresh.kitty,
            )
    assert len({_deal_shape(g.v) for g in games}) >= 4
