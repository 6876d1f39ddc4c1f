"""`apply`'s fast path (a legal move of the seat to move, applied without building any sentence) does exactly
what the general path (`_apply_checked`: every check of `why_not` in order, then the move) does.

Two games of the same seed run side by side, one through `apply`, the other through `_apply_checked`. At each
position both are offered the same odd moves (random cards, bids, suits and throws, wrong seats, a seat that is
a bool, a card given as a plain tuple, not a move at all) and then a random legal move: both must accept or refuse
alike, with the same sentence, a refusal must change nothing, and the two games must stay equal (views of every
seat, hands, pack, kitty, thrown cards)."""
import random

from hypothesis import given, settings, strategies as st

from fairdeal.verifier.cards import PACK_52, SUITS
from fairdeal.verifier.games import make_rules
from fairdeal.verifier.games.base import Move

from tests.games.onetwenty.helpers import RandomChance

TABLES = [
    ("120s-auction", 4, {}),
    ("120s-auction", 4, {"kitty_teaser": True, "shuffle_thrown_back": True}),
    ("120s-auction", 4, {"everybody_passes": "dealer-picks"}),
    ("120s-house", 4, {"dealer_can_take_it": True, "stick_the_dealer": False, "plain_aces_low": True}),
    ("120s-house", 4, {"throw_and_draw": False}),
    ("120s-house", 3, {}),
    ("120s-house", 2, {"dealer_can_take_it": True}),
    ("120s-traditional", 4, {}),
    ("120s-traditional", 4, {"need_a_five": False}),
]
MOVES_PER_GAME = 150


def outcome(game, seat, move, general):
    try:
        (game._apply_checked if general else game.apply)(seat, move)
    except Exception as exc:        # noqa: BLE001 - refusals and odd-input errors must match exactly
        return type(exc), str(exc)
    return None


def state_of(game, full):
    out = (game.phase, game.to_move, game.is_over, game.result, game.scores, game.dealer, game.hand_number,
           [list(h) for h in game.hands], list(game.pack), list(game.kitty), list(game.thrown),
           game.view(None))
    if full:
        out += tuple(game.view(s) for s in range(game.v.players))
    return out


def odd_moves(game, rng):
    seat = game.to_move
    n = game.v.players
    hand = game.hands[seat]
    c = rng.choice(PACK_52)
    held = rng.sample(hand, rng.randrange(min(len(hand), 4) + 1))
    unheld = rng.choice([x for x in PACK_52 if x not in hand])
    moves = [
        (seat, Move.play(c)),
        (seat, Move.play(rng.choice(hand))),
        (seat, Move("play", card=tuple(unheld))),       # a plain tuple, not a Card (one that is held would be
                                                        # accepted and break the game later, on both paths alike)
        (seat, Move("play")),
        (seat, Move.bid(rng.choice([15, 20, 25, 30, 35]))),
        (seat, Move("bid", value=True)),
        (seat, Move.pass_()), (seat, Move("mine")), (seat, Move("redeal")),
        (seat, Move.trump(rng.choice(SUITS + ("X",)))),
        (seat, Move.throw(held)),
        (seat, Move.throw(held + [c])),
        (seat, Move("throw", cards=tuple(held) + tuple(held[:1]))),   # a card named twice
        (seat, Move("throw", cards=list(held))),                    # a list, not a tuple
        ((seat + 1) % n, Move.play(c)),
        (True, Move.pass_()), (n, Move.pass_()), (float(seat), Move.pass_()),
        (seat, "pass"),
    ]
    return rng.sample(moves, 5)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(TABLES), st.integers(min_value=0, max_value=2**32 - 1))
def test_fast_path_does_what_the_general_path_does(table, seed):
    rule_set, players, settings_ = table
    rules = make_rules(rule_set, settings_, players)
    fast, general = rules.new_game(RandomChance(seed)), rules.new_game(RandomChance(seed))
    rng = random.Random(seed)
    for i in range(MOVES_PER_GAME):
        if fast.is_over:
            break
        before = state_of(fast, False)
        legal = rng.choice(fast.legal_moves(fast.to_move))
        for seat, move in odd_moves(fast, rng) + [(fast.to_move, legal)]:
            got = outcome(fast, seat, move, general=False)
            assert got == outcome(general, seat, move, general=True), (seat, move)
            if got is None:
                break
            assert state_of(fast, False) == before, (seat, move)
        assert state_of(fast, i % 10 == 0) == state_of(general, i % 10 == 0)
    assert state_of(fast, True) == state_of(general, True)


def test_last_hand_keeps_its_keys_in_order():
    """The last hand's summary is written when first read, its keys in the order they always had."""
    rules = make_rules("120s-house", {}, 2)
    game = rules.new_game(RandomChance(5))
    rng = random.Random(5)
    while game.hands_played == 0:
        game.apply(game.to_move, rng.choice(game.legal_moves(game.to_move)))
    tricks = [t.to_json() for t in game._last_facts[7]]
    assert list(game.last_hand) == ["hand_number", "dealer", "thrown_in", "bidder", "bid", "trump", "points",
                                    "ten_trick", "ten_card", "made", "changes", "scores", "tricks"]
    assert game.last_hand["tricks"] == tricks and len(tricks) == 5


def test_sort_hand_sorts_by_suit_then_rank_even_with_a_card_outside_the_pack():
    from fairdeal.verifier.cards import Card
    from fairdeal.verifier.games.onetwenty.state import _sort_key, sort_hand, sorted_cards
    rng = random.Random(7)
    for _ in range(50):
        hand = rng.sample(PACK_52, rng.randrange(1, 10))
        assert sorted_cards(hand) == sorted(hand, key=_sort_key)
    odd = rng.sample(PACK_52, 4) + [Card(1, "X"), Card(20, "C")]      # the quick key fails: sorted as ever
    expected = sorted(odd, key=_sort_key)
    sort_hand(odd)
    assert odd == expected
