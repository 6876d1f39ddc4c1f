"""An independent reading of 120s-auction (docs/rules/120s-auction.md), checked against the engine.

The reference below is written from the rules page alone: the card orders are spelled out as the page lists them,
not taken from fairdeal.core.games.onetwenty.ranks, and the score of a hand (5 a trick, 10 for the trick of the highest
winning card, made or Down, the cap at 115, the floor, who wins) is worked out here again. Random games, many
of them started near the end of the game, must agree with it move by move.
"""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from fairdeal.core.cards import Card
from fairdeal.core.games import make_rules
from fairdeal.core.games.onetwenty.state import OneTwentyState
from tests.games.randomness import RandomChance

AH = Card(14, "H")
RED_SMALL = [10, 9, 8, 7, 6, 4, 3, 2]  # "in a red drumpf suit the 10 is the highest and the 2 the lowest"
BLACK_SMALL = [2, 3, 4, 6, 7, 8, 9, 10]  # "in a black drumpf suit the 2 is the highest of them"


def is_drumpf(c, d):
    return c.suit == d or c == AH  # the ace of hearts is always a drumpf


def drumpf_order(d):
    """Highest first: 5, J, A of hearts, A (not hearts), K, Q, then the little cards by colour."""
    top = [Card(5, d), Card(11, d), AH] + ([Card(14, d)] if d != "H" else []) + [Card(13, d), Card(12, d)]
    return top + [Card(r, d) for r in (RED_SMALL if d in "DH" else BLACK_SMALL)]


def plain_place(c):
    """0 is the top of a plain suit: A K Q J, then the little cards, high-to-low in red, low-to-high in black
    (a king is a king in every suit, hearts included)."""
    small = [10, 9, 8, 7, 6, 5, 4, 3, 2] if c.suit in "DH" else [2, 3, 4, 5, 6, 7, 8, 9, 10]
    return ([14, 13, 12, 11] + small).index(c.rank)


def beats(a, b, led, d):
    """Does card `a` beat the card `b` now winning a trick whose first card is `led`?"""
    if is_drumpf(a, d) != is_drumpf(b, d):
        return is_drumpf(a, d)
    if is_drumpf(a, d):
        order = drumpf_order(d)
        return order.index(a) < order.index(b)
    if is_drumpf(led, d) or a.suit != led.suit:
        return False  # only the suit led can win among plain cards
    return b.suit != led.suit or plain_place(a) < plain_place(b)


def may_play(hand, led, d, first_lead_of_a_30):
    drumpfs = {c for c in hand if is_drumpf(c, d)}
    if led is None:
        return drumpfs if first_lead_of_a_30 and drumpfs else set(hand)
    if is_drumpf(led, d):
        order = drumpf_order(d)
        kept_back = {Card(5, d), Card(11, d), AH}
        forcing = {c for c in drumpfs if c not in kept_back or order.index(c) > order.index(led)}
        return drumpfs if forcing else set(hand)
    follow = {c for c in hand if c.suit == led.suit and not is_drumpf(c, d)}
    if follow:
        return follow | drumpfs  # follow it or drumpf it, as you like
    return drumpfs or set(hand)  # void: a drumpf if you hold one


def hand_result(tricks, d, bidder, bid, scores, made, floored):
    """tricks: [(winning seat, winning card)] in order. Returns points, ten trick, new scores, made flags, winner
    side or None."""

    def height(i):
        c = tricks[i][1]
        return (1, -drumpf_order(d).index(c)) if is_drumpf(c, d) else (0, -plain_place(c))

    ten = max(range(5), key=lambda i: (height(i), -i))  # a tie goes to the earlier trick
    points = [0, 0]
    for i, (seat, _) in enumerate(tricks):
        points[seat % 2] += 10 if i == ten else 5
    side = bidder % 2
    made_it = points[side] >= bid
    made = list(made)
    if made_it:
        made[side] = True  # the cap goes, that very hand included
    new = []
    for s in (0, 1):
        gain = (points[s] if made_it else -bid) if s == side else points[s]
        score = scores[s] + gain
        if not made[s] and gain > 0 and score > 115:
            score = max(115, scores[s])  # a ceiling, not a safety net
        if floored and score < 0:
            score = 0
        new.append(score)
    reached = [s for s in (0, 1) if new[s] >= 120]
    winner = side if side in reached else (reached[0] if reached else None)
    return points, ten, new, made, winner


STARTS = [0, 15, 85, 90, 100, 105, 110, 115, -10]
TABLES = [
    {},
    {"scores_below_zero": "floored", "everybody_passes": "dealer-picks"},
    {"kitty_teaser": True, "shuffle_thrown_back": True, "everybody_passes": "next-dealer"},
]


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.sampled_from(TABLES),
    st.sampled_from(STARTS),
    st.sampled_from(STARTS),
    st.booleans(),
    st.booleans(),
)
def test_random_games_follow_an_independent_reading_of_the_seed(seed, table, s0, s1, m0, m1):
    rules = make_rules("120s-auction", table)
    g: OneTwentyState = rules.new_game(RandomChance(seed), scores=[s0, s1], made_bid=[m0, m1])
    rng = random.Random(seed)
    floored = table.get("scores_below_zero") == "floored"
    trick, tricks = [], []
    for _ in range(1500):
        if g.is_over:
            break
        seat = g.to_move
        if g.phase == "bidding" and not g.bidding.log:
            # A fresh deal: 5 each, 4 in the kitty, 28 in the pack; the dealer's left bids first.
            assert [len(h) for h in g.hands] == [5] * 4 and len(g.kitty) == 4 and len(g.pack) == 28
            assert seat == (g.dealer + 1) % 4
            bids = g.options(seat)["bids"]
            assert bids[0] == (20 if g.scores[seat % 2] >= 90 else 15)
        if g.phase == "play":
            if not trick and not tricks:
                assert seat == g.bidder  # the bidder leads
            led = trick[0][1] if trick else None
            expected = may_play(g.hands[seat], led, g.trump, g.bid == 30 and not trick and not tricks)
            assert {m.card for m in g.legal_moves(seat)} == expected
        move = rng.choice(g.legal_moves(seat))
        playing = g.phase == "play"
        before = (list(g.scores), list(g.made_bid), g.bidder, g.bid, g.trump, g.dealer)
        g.apply(seat, move)
        if not playing:
            continue
        trick.append((seat, move.card))
        if len(trick) < 4:
            continue
        win = trick[0]
        for play in trick[1:]:
            if beats(play[1], win[1], trick[0][1], before[4]):
                win = play
        tricks.append(win)
        trick = []
        if len(tricks) < 5:
            assert g.to_move == win[0]  # the winner leads the next
            continue
        scores, made, bidder, bid, d, dealer = before
        points, ten, new, made_after, winner = hand_result(tricks, d, bidder, bid, scores, made, floored)
        last = g.last_hand
        assert (last["points"], last["ten_trick"], last["made"]) == (points, ten, points[bidder % 2] >= bid)
        assert g.scores == new and g.made_bid == made_after
        if winner is None:
            assert not g.is_over and g.dealer == (dealer + 1) % 4  # the deal passes left
        else:
            assert g.is_over and g.result["winners"] == [winner, winner + 2]
        tricks = []
