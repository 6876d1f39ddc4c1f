"""Invariants of the 120s rule sets over random games (hypothesis draws the seeds and the table): what is theirs
alone (every hand is worth 30, any explicit deck deals a full hand, bots finish a game). Replay, hidden cards,
refusals and the bots' purity are every rule set's: tests/games/conformance."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from fairdeal.core.cards import PACK_52
from fairdeal.core.games import make_rules
from fairdeal.core.games.base import FixedChance
from tests.games.conformance.tables import TABLES as ALL_TABLES
from tests.games.onetwenty.helpers import play_by_policy
from tests.games.randomness import RandomChance

TABLES = [t for t in ALL_TABLES if t[0].startswith("120s-")]

table = st.sampled_from(TABLES)
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def random_game(rid, players, sets, seed, max_moves, check=None):
    rules = make_rules(rid, sets, players)
    g = rules.new_game(RandomChance(seed))
    rng = random.Random(seed ^ 0x5EED)
    log = []
    for _ in range(max_moves):
        if g.is_over:
            break
        s = g.to_move
        moves = g.legal_moves(s)
        m = rng.choice(moves)
        if check:
            check(g, s, moves, rng)
        g.apply(s, m)
        log.append((s, m))
    return rules, g, log


@settings(max_examples=40, deadline=None)
@given(table, seeds)
def test_cards_are_conserved_at_every_step_and_every_hand_is_worth_30(tab, seed):
    rid, players, sets = tab
    hands_seen = []

    def check(g, s, moves, rng):
        assert sorted(g.all_cards()) == sorted(PACK_52)
        h = g.last_hand
        if h is not None and not h["thrown_in"] and (not hands_seen or hands_seen[-1] is not h):
            hands_seen.append(h)
            assert sum(h["points"]) == 30

    random_game(rid, players, sets, seed, 400, check)


@settings(max_examples=40, deadline=None)
@given(table, st.permutations(PACK_52), st.integers(0, 3))
def test_any_explicit_deck_deals_a_full_hand_that_conserves_cards_and_is_worth_30(tab, deck, dealer):
    rid, players, sets = tab
    rules = make_rules(rid, sets, players)
    g = rules.new_game(FixedChance([deck] * 60, first_dealer=dealer))
    assert g.dealer == dealer % players
    rng = random.Random(dealer)
    start = g.hand_number
    while not g.is_over and (g.hand_number == start):
        assert sorted(g.all_cards()) == sorted(PACK_52)
        s = g.to_move
        g.apply(s, rng.choice(g.legal_moves(s)))
    h = g.last_hand
    assert h is not None and (h["thrown_in"] or sum(h["points"]) == 30)


@settings(max_examples=30, deadline=None)
@given(table, seeds)
def test_bot_timeout_and_suggested_moves_are_always_legal_and_finish_the_game(tab, seed):
    rid, players, sets = tab
    g = play_by_policy(make_rules(rid, sets, players), seed)
    assert g.is_over
    res = g.result
    assert res["winners"] and len(res["scores"]) == (2 if players == 4 else players)


@settings(max_examples=20, deadline=None)
@given(st.sampled_from([2, 3]), seeds)
def test_two_and_three_player_house_games_play_to_the_end_each_alone(players, seed):
    rules = make_rules("120s-house", {}, players)
    g = play_by_policy(rules, seed)
    assert g.is_over and "sides" not in g.result
    assert len(g.result["winners"]) == 1 and max(g.result["scores"]) >= 120
