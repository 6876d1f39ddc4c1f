"""The score of Spades: one team's score table for one hand, and when the game ends (docs/rules/spades.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

TARGET = 500  # a team at 500 or more after a hand ends the game
FLOOR = -200  # a team at -200 or less after a hand ends the game
BAG_LIMIT = 10  # each time a team reaches 10 bags: -100 and those 10 are crossed out
BAG_PENALTY = 100
NIL_POINTS = 100


@dataclass(frozen=True)
class TeamHand:
    """One team's result of one hand: the score table applied, with everything a summary shows."""

    contract: int  # the two bids added (nil counts 0)
    tricks: int  # tricks that count toward the contract (a nil bidder's never do)
    made: bool  # contract made (a team whose partners both bid nil always makes its 0)
    nils: tuple[tuple[int, bool], ...]  # (seat, made?) for each nil bidder of the team
    contract_points: int  # +10 a trick bid when made, -10 a trick bid when set
    bag_points: int  # +1 a bag, only when the contract is made
    nil_points: int  # +100 / -100 per nil
    bags: int  # bags taken this hand (extra tricks and a lost nil's tricks)
    penalties: int  # how many times the team reached 10 bags this hand
    points: int  # the hand's total, penalties included
    bags_after: int  # the team's bag count after crossing out
    score_after: int

    def to_json(self) -> dict[str, Any]:
        return {
            "contract": self.contract,
            "tricks": self.tricks,
            "made": self.made,
            "nils": [{"seat": s, "made": ok} for s, ok in self.nils],
            "contract_points": self.contract_points,
            "bag_points": self.bag_points,
            "nil_points": self.nil_points,
            "bags": self.bags,
            "penalties": self.penalties,
            "points": self.points,
            "bags_after": self.bags_after,
            "score": self.score_after,
        }


def score_team(
    bids: Mapping[int, int], tricks: Mapping[int, int], score_before: int = 0, bags_before: int = 0
) -> TeamHand:
    """The score table for one team and one hand. `bids` and `tricks` map each partner's seat to their bid and
    the tricks they took; `score_before` / `bags_before` are the team's running totals."""
    seats = sorted(bids)
    contract = sum(bids[s] for s in seats)
    counted = sum(tricks[s] for s in seats if bids[s] != 0)
    nils = tuple((s, tricks[s] == 0) for s in seats if bids[s] == 0)
    nil_bags = sum(tricks[s] for s in seats if bids[s] == 0)
    made = counted >= contract
    extra = counted - contract if made else 0
    bags = extra + nil_bags  # a lost nil's tricks are bags, made or set
    contract_points = 10 * contract if made else -10 * contract
    bag_points = bags if made else 0  # +1 a bag only when the contract is made
    nil_points = sum(NIL_POINTS if ok else -NIL_POINTS for _, ok in nils)
    penalties, bags_after = divmod(bags_before + bags, BAG_LIMIT)
    points = contract_points + bag_points + nil_points - BAG_PENALTY * penalties
    return TeamHand(
        contract,
        counted,
        made,
        nils,
        contract_points,
        bag_points,
        nil_points,
        bags,
        penalties,
        points,
        bags_after,
        score_before + points,
    )


def game_ends(scores: Sequence[int], tie_pending: bool) -> bool:
    """After a hand: over when a team is at 500+ or -200 or less (or a tie is being played off) and the
    scores differ; an exact tie plays one more hand."""
    if scores[0] == scores[1]:
        return False
    return tie_pending or any(s >= TARGET or s <= FLOOR for s in scores)
