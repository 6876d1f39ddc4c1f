"""120s-house: two-, three- and four-player games played to the end by random legal moves and by
the bots, checking each hand's score against the rules page's scoring and the bidding's "a pass is final"."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from fairdeal.core.cards import PACK_52
from fairdeal.core.games import make_rules
from tests.games.randomness import RandomChance, SeededRng

H = "120s-house"
house_settings = st.fixed_dictionaries(
    {
        "throw_and_draw": st.booleans(),
        "dealer_can_take_it": st.booleans(),
        "stick_the_dealer": st.booleans(),
        "plain_aces_low": st.booleans(),
        "bid_to_go_out": st.booleans(),
        "thirty_for_sixty": st.booleans(),
        "game_target": st.sampled_from([60, 90, 120]),
    }
)
seeds = st.integers(0, 2**32 - 1)


def expected_scores(v, start, hand):
    """120s-house's scoring of one hand from the scores at its start (see docs/rules/120s-house.md)."""
    side = v.sides.side_of(hand["bidder"])
    made = hand["points"][side] >= hand["bid"]
    out = []
    for s, old in enumerate(start):
        if s == side:
            gain = (v.made_thirty_scores if hand["bid"] == 30 else hand["points"][s]) if made else -hand["bid"]
        else:
            gain = hand["points"][s]
        new = old + gain
        if v.bid_to_go_out and old >= v.target - 20 and not (s == side and made) and new > v.target - 5:
            new = max(old, v.target - 5)
        out.append(new)
    return out


def play_random_game(players, sets, seed, policy):
    rules = make_rules(H, sets, players)
    v = rules.variant
    g = rules.new_game(RandomChance(seed))
    rng = random.Random(seed)
    bot_rng = SeededRng(seed)
    start, hands = list(g.scores), 0
    passed: set[int] = set()
    for _ in range(6000):
        if g.is_over:
            break
        s = g.to_move
        if g.phase == "bidding":
            assert s not in passed  # a pass is final for the hand
        # "mixed": random legal throws and cards, the bot's bids and trump (random bids of 30 go short so often
        # that the scores sink and a game rarely ends)
        bot = policy == "bots" or g.phase in ("bidding", "trump")
        m = rules.bot_move(g.view(s), bot_rng) if bot else rng.choice(g.legal_moves(s))
        deal = g.hand_number
        if g.phase == "bidding" and m.kind == "pass":
            passed.add(s)
        g.apply(s, m)
        if g.hand_number != deal or g.is_over:  # a hand ended (played out or thrown in)
            passed = set()
            h = g.last_hand
            assert sorted(c for c in g.all_cards()) == sorted(PACK_52)
            if not h["thrown_in"]:
                hands += 1
                assert sum(h["points"]) == 30
                assert h["scores"] == expected_scores(v, start, h)
            else:
                assert not v.all_pass == "stick"  # stick the dealer: a hand is never thrown in
                assert h["scores"] == start
            start = list(g.scores)
    assert g.is_over
    res = g.result
    assert "sides" not in res if players < 4 else res["sides"] == [[0, 2], [1, 3]]
    winner_side = v.sides.side_of(res["winners"][0])
    assert res["scores"][winner_side] >= v.target
    assert res["winners"] == list(v.sides.seats_of(winner_side))
    return g, hands


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([2, 3]), house_settings, seeds)
def test_two_and_three_player_games_play_to_the_end_by_random_cards_and_bot_bids(players, sets, seed):
    play_random_game(players, sets, seed, "mixed")


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([2, 3, 4]), house_settings, seeds)
def test_games_of_bots_play_to_the_end_within_the_house_rules(players, sets, seed):
    play_random_game(players, sets, seed, "bots")


@settings(max_examples=40, deadline=None)
@given(house_settings, seeds)
def test_four_player_partnership_games_play_to_the_end(sets, seed):
    play_random_game(4, sets, seed, "mixed")
