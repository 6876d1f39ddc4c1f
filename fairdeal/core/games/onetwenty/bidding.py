"""The bidding of one hand, for all three rule sets (docs/rules/<id>.md "Bidding"; the Variant says which).

- "one-round" (120s-auction and 120s-traditional): each seat once from the dealer's left, the dealer last. In
  120s-traditional the dealer may say Mine (take the high bid at the same amount); the holder may then raise or
  give it up, and the dealer may take each raise again or pass. 120s-auction's dealer-picks: once the other three
  passed the dealer bids or calls a redeal.
- "until-one-left" (120s-house): round and round from the dealer's left; a pass is final; it ends when one bidder
  is left. Stick the dealer: when everyone else has passed and nothing is bid, the dealer must bid 20. Dealer can
  take it: at the dealer's turns the dealer may hold at the standing bid below 30.

`min_bid[seat]` (120s-auction's "from 90 up") and `has_five[seat]` (120s-traditional's "need a five") are fixed
at the deal.
The outcome is `won` = (seat, bid) or `all_passed` = True.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from fairdeal.core.fastpath import fast_path

from .variant import Variant


@dataclass
class Options:
    bids: list[int] = field(default_factory=list)
    can_pass: bool = False
    can_mine: bool = False
    can_redeal: bool = False

    def to_json(self) -> dict:
        return {"bids": list(self.bids), "pass": self.can_pass, "mine": self.can_mine, "redeal": self.can_redeal}


def _words(values: Sequence[int]) -> str:
    text = [str(v) for v in values]
    return text[0] if len(text) == 1 else ", ".join(text[:-1]) + " and " + text[-1]


class Bidding:
    def __init__(self, v: Variant, dealer: int, min_bid: Sequence[int], has_five: Sequence[bool]):
        self.v = v
        self.dealer = dealer
        self.min_bid = list(min_bid)
        self.has_five = list(has_five)
        self.turn: int | None = (dealer + 1) % v.players
        self.high: int | None = None
        self.holder: int | None = None
        self.passed: set[int] = set()
        self.log: list[tuple[int, str, int | None]] = []
        self._raiser: int | None = None
        self.answering = False  # 120s-traditional: after Mine the holder answers; the dealer takes again or passes
        self.won: tuple[int, int] | None = None
        self.all_passed = False
        self._options_key: tuple[int, int] | None = None  # (seat, moves logged) of the Options kept below
        self._options: Options | None = None

    # --- who may say what ------------------------------------------------------------------------
    def _others_all_passed(self) -> bool:
        return self.high is None and len(self.passed) == self.v.players - 1 and self.dealer not in self.passed

    def _needs_five(self, value: int) -> bool:
        return self.v.need_five and value >= 25

    @fast_path(general=lambda self, seat: self.options_now(seat))
    def options(self, seat: int) -> Options:
        """options_now(seat), made once a position: the policy and the check of its move both ask. The bidding
        changes only through apply, which logs every move, so (seat, moves logged) names the position. The
        callers only read the Options."""
        key = (seat, len(self.log))
        if self._options_key != key:
            self._options = self.options_now(seat)
            self._options_key = key
        return self._options

    def options_now(self, seat: int) -> Options:
        """What `seat` may say now, worked out from the bidding as it stands."""
        v = self.v
        if seat != self.turn:
            return Options()
        high, least = self.high, self.min_bid[seat]
        five = not v.need_five or self.has_five[seat]  # else a bid of 25 or more needs a five (_needs_five)
        above = [b for b in v.bids if (high is None or b > high) and b >= least and (five or b < 25)]
        is_dealer = seat == self.dealer
        if v.bidding == "until-one-left":
            if is_dealer and v.all_pass == "stick" and self._others_all_passed():
                return Options(bids=[20])
            mine = (
                is_dealer
                and v.dealer_mine == "house"
                and self.high is not None
                and self.high < 30
                and self.holder != seat
            )
            return Options(bids=above, can_pass=True, can_mine=mine)
        # one round
        if self.answering:
            if is_dealer:  # the dealer takes the raise again or passes
                return Options(can_pass=True, can_mine=self._may_mine(seat))
            return Options(bids=above, can_pass=True)
        if is_dealer and v.all_pass == "dealer-picks" and self._others_all_passed():
            return Options(bids=above, can_redeal=True)
        return Options(bids=above, can_pass=True, can_mine=is_dealer and self._may_mine(seat))

    def _may_mine(self, seat: int) -> bool:
        return (
            self.v.dealer_mine == "traditional"
            and self.high is not None
            and self.holder != seat
            and not (self._needs_five(self.high) and not self.has_five[seat])
        )

    def why_not(self, seat: int, kind: str, value) -> str | None:
        """None if the bidding move is allowed (the caller has checked the turn), else the sentence."""
        v = self.v
        opts = self.options(seat)
        is_dealer = seat == self.dealer
        if kind == "pass":
            if opts.can_pass:
                return None
            if opts.can_redeal:
                return "Everybody else has passed: you must pick a bid or call a redeal."
            return "Stick the dealer: everybody else has passed, so you must bid 20."
        if kind == "bid":
            if isinstance(value, bool) or not isinstance(value, int) or value not in v.bids:
                return f"The bids are {_words(v.bids)}."
            if value in opts.bids:
                return None
            if opts.bids == [20] and not opts.can_pass:
                return "Stick the dealer: everybody else has passed, so you must bid 20."
            if self.answering and is_dealer:
                return "After Mine you may only take the raise again (Mine) or pass."
            if self.high is not None and value <= self.high:
                if self.high >= v.bids[-1]:
                    return f"{self.high} has been bid and nothing is higher: all you can do is pass."
                nxt = min(b for b in v.bids if b > self.high)
                return (
                    f"A bid has to beat the bid standing: {self.high} is standing, so the smallest bid left is {nxt}."
                )
            if value < self.min_bid[seat]:
                return f"From 90 points up your side's smallest bid is {self.min_bid[seat]}."
            if self._needs_five(value) and not self.has_five[seat]:
                return "To bid 25 or 30 you must hold a five."
            return f"You cannot bid {value} now."
        if kind == "mine":
            if opts.can_mine:
                return None
            if v.dealer_mine == "":
                return "This table does not let the dealer take the bid."
            if not is_dealer:
                return "Only the dealer can take the bid at the same amount."
            if self.high is None:
                return "There is no bid to take: nobody has bid yet."
            if self.holder == seat:
                return "The bid standing is already yours."
            if v.dealer_mine == "house" and self.high >= 30:
                return "The dealer cannot take a bid of 30: bid higher or pass."
            if self._needs_five(self.high) and not self.has_five[seat]:
                return f"To take a bid of {self.high} you must hold a five."
            return "You cannot take the bid now."
        if kind == "redeal":
            if opts.can_redeal:
                return None
            if v.all_pass != "dealer-picks":
                return "This table does not let the dealer call a redeal."
            return "Only the dealer can call a redeal, and only once everybody else has passed."
        return None  # other kinds are refused by the state

    # --- applying (the move is legal) --------------------------------------------------------------
    def apply(self, seat: int, kind: str, value) -> None:
        v = self.v
        self.log.append((seat, kind, value if kind == "bid" else (self.high if kind == "mine" else None)))
        if kind == "redeal":
            self.all_passed = True
            self.turn = None
            return
        if v.bidding == "until-one-left":
            self._apply_round_robin(seat, kind, value)
        else:
            self._apply_one_round(seat, kind, value)

    def _apply_round_robin(self, seat: int, kind: str, value) -> None:
        n = self.v.players
        if kind == "pass":
            self.passed.add(seat)
        elif kind == "bid":
            self.high, self.holder = value, seat
        elif kind == "mine":
            self.holder = seat
        # the seats still in are those not in `passed` (a set of seats of this table)
        left = n - len(self.passed)
        if not left:
            self.all_passed, self.turn = True, None
            return
        if self.high is not None and left == 1 and self.holder not in self.passed:
            self.won, self.turn = (self.holder, self.high), None
            return
        nxt = (seat + 1) % n
        while nxt in self.passed:
            nxt = (nxt + 1) % n
        self.turn = nxt

    def _apply_one_round(self, seat: int, kind: str, value) -> None:
        n = self.v.players
        dealer = self.dealer
        if self.answering:
            if seat == dealer:
                if kind == "mine":
                    self.holder = dealer
                    self.turn = self._raiser
                else:  # the dealer lets the raise stand
                    self.won, self.turn = (self.holder, self.high), None
            else:
                if kind == "bid":
                    self.high, self.holder = value, seat
                    self.turn = dealer
                else:  # the holder gives it up
                    self.won, self.turn = (dealer, self.high), None
            return
        if kind == "bid":
            self.high, self.holder = value, seat
        elif kind == "pass":
            self.passed.add(seat)
        elif kind == "mine":
            self._raiser = self.holder
            self.holder = dealer
            self.answering = True
            self.turn = self._raiser
            return
        if seat == dealer:
            self.turn = None
            if self.high is None:
                self.all_passed = True
            else:
                self.won = (self.holder, self.high)
        else:
            self.turn = (seat + 1) % n

    def to_json(self) -> dict:
        return {
            "log": [[s, k, val] for s, k, val in self.log],
            "high": self.high,
            "holder": self.holder,
            "passed": sorted(self.passed),
        }
