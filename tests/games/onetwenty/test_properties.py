"""Invariants of every 120s rule set over random games (hypothesis draws the seeds and the table)."""
import copy
import random

from hypothesis import given, settings, strategies as st

from fairdeal.verifier.cards import PACK_52, BadCard, card_from_str
from fairdeal.verifier.games import make_rules
from fairdeal.verifier.games.base import FixedChance, GameError, Move

from tests.games.onetwenty.helpers import play_by_policy
from tests.games.randomness import RandomChance, SeededRng

TABLES = [
    ("120s-auction", 4, {}),
    ("120s-auction", 4, {"kitty_teaser": True, "shuffle_thrown_back": True}),
    ("120s-auction", 4, {"everybody_passes": "dealer-picks", "scores_below_zero": "floored"}),
    ("120s-auction", 4, {"everybody_passes": "next-dealer"}),
    ("120s-house", 4, {}),
    ("120s-house", 4, {"dealer_can_take_it": True, "stick_the_dealer": False, "plain_aces_low": True}),
    ("120s-house", 4, {"throw_and_draw": False, "thirty_for_sixty": False, "game_target": 60}),
    ("120s-house", 3, {}),
    ("120s-house", 2, {"dealer_can_take_it": True}),
    ("120s-traditional", 4, {}),
    ("120s-traditional", 4, {"teaser": True, "need_a_five": False}),
]
table = st.sampled_from(TABLES)
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def view_cards(obj, out):
    if isinstance(obj, str):
        try:
            out.add(card_from_str(obj))
        except BadCard:
            pass
    elif isinstance(obj, dict):
        for v in obj.values():
            view_cards(v, out)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            view_cards(v, out)
    return out


def hidden_from(g, seat):
    hidden = set(g.kitty) | set(g.pack) | set(g.thrown)
    for s, h in enumerate(g.hands):
        if s != seat:
            hidden |= set(h)
    if g.teaser is not None:
        hidden.discard(g.teaser)
    if seat is not None and seat == g.bidder:
        hidden -= set(g.kitty_cards)
    return hidden


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


@settings(max_examples=30, deadline=None)
@given(table, seeds)
def test_replaying_the_moves_from_the_start_reproduces_the_game(tab, seed):
    rid, players, sets = tab
    rules, g, log = random_game(rid, players, sets, seed, 300)
    again = rules.new_game(RandomChance(seed))
    for s, m in log:
        again.apply(s, m)
    for seat in [None, *range(players)]:
        assert again.view(seat) == g.view(seat)
    assert again.result == g.result


@settings(max_examples=40, deadline=None)
@given(table, seeds)
def test_a_view_never_holds_another_seats_card_the_kitty_the_pack_or_thrown_cards(tab, seed):
    rid, players, sets = tab

    def check(g, s, moves, rng):
        for seat in [None, *range(players)]:
            view = g.view(seat)
            # last_hand lists the previous hand's played cards: public history, dealt again since
            seen = view_cards({k: v for k, v in view.items() if k != "last_hand"}, set())
            assert not seen & hidden_from(g, seat), (seat, seen & hidden_from(g, seat))

    random_game(rid, players, sets, seed, 200, check)


@settings(max_examples=30, deadline=None)
@given(table, seeds)
def test_every_legal_move_is_allowed_and_other_moves_are_refused_with_a_sentence_changing_nothing(tab, seed):
    rid, players, sets = tab

    def check(g, s, moves, rng):
        for m in moves:
            assert g.why_not(s, m) is None
        for m in rng.sample(moves, min(len(moves), 2)):      # and applies, on a copy
            clone = copy.deepcopy(g)
            clone.apply(s, m)
            assert sorted(clone.all_cards()) == sorted(PACK_52)
        legal = set(moves)
        others = [Move.play(rng.choice(PACK_52)), Move.bid(rng.choice([15, 20, 25, 30, 35])), Move.pass_(),
                  Move("mine"), Move("redeal"), Move.trump(rng.choice("CDHSX")),
                  Move.throw(rng.sample(g.hands[s], min(len(g.hands[s]), rng.randrange(6))))]
        for m in others:
            for seat in (s, (s + 1) % players):
                if seat == s and m in legal:
                    continue
                before = g.view(seat)
                why = g.why_not(seat, m)
                assert isinstance(why, str) and why.endswith(".") and len(why) > 10
                try:
                    g.apply(seat, m)
                except GameError as exc:
                    assert exc.message == why
                else:
                    raise AssertionError(f"{m} by {seat} was applied although refused: {why}")
                assert g.view(seat) == before

    random_game(rid, players, sets, seed, 80, check)


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


def test_bots_are_pure_functions_of_the_view():
    rules = make_rules("120s-auction")
    g = rules.new_game(RandomChance(7))
    for _ in range(60):
        if g.is_over:
            break
        s = g.to_move
        v = g.view(s)
        assert rules.bot_move(v, SeededRng(1)) == rules.bot_move(dict(v), SeededRng(1))
        assert rules.timeout_move(v) == rules.timeout_move(v)
        g.apply(s, rules.bot_move(v, SeededRng(1)))
