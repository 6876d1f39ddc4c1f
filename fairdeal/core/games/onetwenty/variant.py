"""What a 120s table plays, as plain data: every difference between the three rule sets and their settings.

The engine, the bots and the rules text read only this object, so a rule set is a function from its settings to
a `Variant` (see rules.py) and there is one engine for all of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from fairdeal.core.games.seats import Sides


@dataclass(frozen=True)
class Variant:
    rule_set: str
    players: int
    sides: Sides  # partners opposite at four players; at 2 or 3 (120s-house) everyone alone
    trump_word: str  # "drumpf" in 120s-auction, "trump" in 120s-house and 120s-traditional
    bids: tuple[int, ...]  # the bids that exist, lowest first
    kitty_size: int
    deal: str  # "auction": kitty dealt during the first four rounds; "after": five each, then kitty
    teaser: bool  # the kitty's top card (the last dealt to it) lies face up
    bidding: str  # "one-round" (120s-auction, 120s-traditional) or "until-one-left" (120s-house)
    all_pass: str  # "redeal", "next-dealer", "dealer-picks", "stick" (house: the dealer must bid 20)
    dealer_mine: str  # "": none; "house": dealer can take it (not at 30); "traditional": Mine
    need_five: bool  # 120s-traditional: a 25 or 30 (Mine and raises too) needs a five in hand
    min_bid_from_90: bool  # 120s-auction: from 90 up a side's lowest bid is 20
    bidder_discards_first: bool  # 120s-house: the bidder throws the kitty's count back before the others draw
    others_draw: bool  # the non-bidders throw and draw (120s-house's "throw away and draw")
    reshuffle_thrown: bool  # 120s-auction: thrown cards are shuffled back in at the bottom of the pack
    bidder_leads: bool  # 120s-auction: the bidder leads; the others: the player to the bidder's left
    thirty_leads_trump: bool  # on a 30 the first lead of the hand must be a trump if the leader holds one
    void_must_trump: bool  # void in a plain suit led: trump if you can (120s-auction, 120s-house), or
    # play any card (120s-traditional)
    aces_low: bool  # 120s-house's "plain aces low"
    made_thirty_scores: int  # 30 (120s-auction, 120s-house with 30-for-60 off) or 60
    cap_unmade: bool  # 120s-auction: a side that has never won a bid and made it stops at 115
    bid_to_go_out: bool  # 120s-house: from target-20 at the start of a hand only a made bid goes out
    floor_zero: bool  # 120s-auction "scores below zero: floored"
    target: int

    @property
    def lowest_bid(self) -> int:
        return self.bids[0]

    def trumps_word(self) -> str:
        return self.trump_word + "s"
