"""120s-traditional: whole games by random legal cards and throws with the bots' or random bids, every
hand scored as docs/rules/120s-traditional.md says and every 25 or 30 (Mine and raises included) made by a
seat holding a five."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from fairdeal.core.cards import PACK_52
from fairdeal.core.games import make_rules
from tests.games.randomness import RandomChance, SeededRng

T = "120s-traditional"
variants = st.fixed_dictionaries({"need_a_five": st.booleans(), "teaser": st.booleans()})
seeds = st.integers(0, 2**32 - 1)


def text_scores(start, hand):
    """120s-traditional's scoring (docs/rules/120s-traditional.md "Scoring") from the scores at the start of the
    hand."""
    side = hand["bidder"] % 2
    made = hand["points"][side] >= hand["bid"]
    gain = [hand["points"][0], hand["points"][1]]
    gain[side] = (60 if hand["bid"] == 30 else hand["points"][side]) if made else -hand["bid"]
    return [start[0] + gain[0], start[1] + gain[1]]


def play_game(sets, seed, random_bids):
    rules = make_rules(T, sets)
    g = rules.new_game(RandomChance(seed))
    rng, bot_rng = random.Random(seed), SeededRng(seed)
    start = list(g.scores)
    has_five = None
    for _ in range(8000):
        if g.is_over:
            break
        s = g.to_move
        if g.phase == "bidding" and not g.bidding.log:
            has_five = [any(c.rank == 5 for c in h) for h in g.hands]
        bot = g.phase == "trump" or (g.phase == "bidding" and not random_bids)
        m = rules.bot_move(g.view(s), bot_rng) if bot else rng.choice(g.legal_moves(s))
        if m.kind in ("bid", "mine") and rules.variant.need_five:
            value = m.value if m.kind == "bid" else g.bidding.high
            assert value < 25 or has_five[s], (s, m)
        deal = g.hand_number
        g.apply(s, m)
        if g.hand_number != deal or g.is_over:
            h = g.last_hand
            assert sorted(g.all_cards()) == sorted(PACK_52)
            if h["thrown_in"]:
                assert h["scores"] == start and g.dealer == (h["dealer"] + 1) % 4
            else:
                assert sum(h["points"]) == 30 and h["scores"] == text_scores(start, h)
            start = list(g.scores)
    return g


@settings(max_examples=50, deadline=None)
@given(variants, seeds)
def test_games_with_the_bots_bids_play_to_the_end_within_the_text(sets, seed):
    g = play_game(sets, seed, random_bids=False)
    assert g.is_over
    res = g.result
    side = res["winners"][0] % 2
    assert res["winners"] == [side, side + 2] and res["scores"][side] >= 120


@settings(max_examples=50, deadline=None)
@given(variants, seeds)
def test_random_legal_bids_never_break_need_a_five_and_every_hand_scores_as_the_text_says(sets, seed):
    play_game(sets, seed, random_bids=True)
