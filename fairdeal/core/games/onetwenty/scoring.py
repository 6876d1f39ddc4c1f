"""The score of one 120s hand and who (if anyone) has won: pure functions of the Variant and the hand's facts.

Points taken: 5 a trick and 10 for the trick of the highest winning card (its power under the trump suit, see
ranks.py; a tie between plain cards goes to the earlier trick), so exactly 30 a hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import sub
from typing import NamedTuple

from fairdeal.core.cards import Card

from .variant import Variant

TRICK_POINTS = 5
TEN_TRICK_POINTS = 10


def ten_trick(winning_cards: Sequence[Card], power: dict[Card, int]) -> int:
    """Index of the 10-point trick: the highest winning card; the earlier trick on a tie."""
    if not winning_cards:
        return 0
    best = 0
    top = power[winning_cards[0]]
    for i, c in enumerate(winning_cards):
        p = power[c]
        if p > top:
            best, top = i, p
    return best


def points_taken(
    winners: Sequence[int], winning_cards: Sequence[Card], power: dict[Card, int], v: Variant
) -> tuple[list[int], int]:
    """Points per side from the tricks' winning seats and cards; also the 10-point trick's index."""
    ten = ten_trick(winning_cards, power)
    side_of = v.sides.side
    points = [0] * v.sides.count
    for seat in winners:
        points[side_of[seat]] += TRICK_POINTS
    if winners:
        points[side_of[winners[ten]]] += TEN_TRICK_POINTS - TRICK_POINTS
    return points, ten


class HandScore(NamedTuple):  # an immutable record, made once a hand (a NamedTuple is the cheapest to make)
    made: bool
    changes: tuple[int, ...]
    scores: tuple[int, ...]
    made_bid: tuple[bool, ...]  # per side: has won a bid and made it (120s-auction's cap)
    winners: tuple[int, ...]  # sides that won the game with this hand (empty: play on)


def score_hand(
    v: Variant, scores: Sequence[int], made_bid: Sequence[bool], bidder_side: int, bid: int, points: Sequence[int]
) -> HandScore:
    """Apply one hand's points to the scores as they stood at the start of the hand."""
    made = points[bidder_side] >= bid
    made_after = list(made_bid)
    if made:
        made_after[bidder_side] = True  # the cap goes for the rest of the game, this hand included
    target = v.target
    stop = target - 5
    cap_unmade, bid_to_go_out = v.cap_unmade, v.bid_to_go_out
    new = []
    for side, old in enumerate(scores):
        if side == bidder_side:
            gain = (v.made_thirty_scores if bid == 30 else points[side]) if made else -bid
        else:
            gain = points[side]
        score = old + gain
        if gain > 0:
            if cap_unmade and not made_after[side]:
                score = min(score, max(old, stop))
            if bid_to_go_out and old >= target - 20 and not (side == bidder_side and made):
                score = min(score, max(old, stop))
        if score < 0 and v.floor_zero:
            score = 0
        new.append(score)
    reached = [s for s in range(v.sides.count) if new[s] >= target]
    if not reached:
        winners: tuple[int, ...] = ()
    elif bidder_side in reached:
        winners = (bidder_side,)
    elif len(reached) == 1:
        winners = (reached[0],)
    else:
        top = max(new[s] for s in reached)
        best = [s for s in reached if new[s] == top]
        winners = (best[0],) if len(best) == 1 else ()  # an exact tie plays on
    return HandScore(made, tuple(map(sub, new, scores)), tuple(new), tuple(made_after), winners)
