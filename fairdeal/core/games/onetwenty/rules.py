"""The three 120s rule sets: settings (each with its rule set's default) and presets, mapped onto one Variant.

A rule set here is only data: which settings a table may choose, and `variant()`, which turns the chosen
settings into the Variant the one engine (state.py), the bots (bots.py) and the rules text (text.py) read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from fairdeal.core.games.base import Chance, Move, Rng, Rules, Setting

from . import bots, text
from .state import OneTwentyState
from .variant import Variant


class OneTwentyRules(Rules):
    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {}
    partnership_sizes = (4,)  # four players: two sides of partners; two or three: everyone alone

    def __init__(self, settings: Mapping[str, Any] | None = None, players: int = 4, version: int | None = None):
        super().__init__(settings, players, version)
        self.variant = self.make_variant()

    def make_variant(self) -> Variant:
        raise NotImplementedError

    @classmethod
    def preset(cls, name: str, players: int = 4) -> OneTwentyRules:
        return cls(cls.PRESETS[name], players)

    def new_game(
        self, chance: Chance, scores: Sequence[int] | None = None, made_bid: Sequence[bool] | None = None
    ) -> OneTwentyState:
        return OneTwentyState(self, chance, scores, made_bid)

    @property
    def deal_layout(self) -> str:
        """ "120s-auction-4" (a kitty card after each of the first four rounds) or "120s-five-then-kitty<k>-<n>"
        (five each, then k to the kitty): docs/rules/<rule set>.md, "Deal layout"."""
        v = self.variant
        if v.deal == "auction":
            return f"120s-auction-{v.players}"
        return f"120s-five-then-kitty{v.kitty_size}-{v.players}"

    def settings_line(self) -> str:
        return "; ".join(f"{s.text}: {s.label(self.settings[s.name])}" for s in self.SETTINGS)

    def describe(self) -> str:
        return f"{self.title}. " + text.describe(self.variant, self.settings_line())

    def suggest(self, view: Mapping[str, Any]) -> Move | None:
        return bots.suggest(view, self.variant)

    position = bots.Position

    def bot_choice(self, pos: bots.Position, rng: Rng) -> Move:
        return bots.bot_choice(pos, self.variant, rng)

    def timeout_choice(self, pos: bots.Position) -> Move:
        return bots.timeout_choice(pos, self.variant)


# The fixed part every rule set shares unless it says otherwise.
_COMMON = dict(
    kitty_size=3,
    deal="after",
    teaser=False,
    bidding="one-round",
    dealer_mine="",
    need_five=False,
    min_bid_from_90=False,
    bidder_discards_first=False,
    others_draw=True,
    reshuffle_thrown=False,
    bidder_leads=False,
    thirty_leads_trump=False,
    void_must_trump=True,
    aces_low=False,
    made_thirty_scores=60,
    cap_unmade=False,
    bid_to_go_out=False,
    floor_zero=False,
    target=120,
    bids=(20, 25, 30),
)


class AuctionRules(OneTwentyRules):
    """120s-auction: "120s (Auction)", docs/rules/120s-auction.md."""

    id = "120s-auction"
    title = "120s (Auction)"
    trump_word = "drumpf"
    table_sizes = (4,)
    SETTINGS = (
        Setting(
            "everybody_passes",
            "redeal",
            ("redeal", "next-dealer", "dealer-picks"),
            "When everybody passes",
            {
                "redeal": "the same dealer deals again",
                "next-dealer": "the deal moves on to the next player",
                "dealer-picks": "the dealer picks a bid or re-deals",
            },
        ),
        Setting(
            "scores_below_zero",
            "allowed",
            ("allowed", "floored"),
            "Scores below zero",
            {"allowed": "allowed (in the hole)", "floored": "nobody goes below zero"},
        ),
        Setting("kitty_teaser", False, (False, True), "Kitty Teaser"),
        Setting("shuffle_thrown_back", False, (False, True), "Shuffling the thrown cards back in"),
    )
    PRESETS = {"standard": {}}

    def make_variant(self) -> Variant:
        s = self.settings
        return Variant(
            **{
                **_COMMON,
                **dict(
                    rule_set=self.id,
                    players=self.players,
                    sides=self.sides,
                    trump_word="drumpf",
                    bids=(15, 20, 25, 30),
                    kitty_size=4,
                    deal="auction",
                    teaser=s["kitty_teaser"],
                    all_pass=s["everybody_passes"],
                    min_bid_from_90=True,
                    reshuffle_thrown=s["shuffle_thrown_back"],
                    bidder_leads=True,
                    thirty_leads_trump=True,
                    made_thirty_scores=30,
                    cap_unmade=True,
                    floor_zero=s["scores_below_zero"] == "floored",
                ),
            }
        )


class HouseRules(OneTwentyRules):
    """120s-house: 120s with its six house rules, each a setting (docs/rules/120s-house.md)."""

    id = "120s-house"
    title = "120s (House rules)"
    trump_word = "trump"
    table_sizes = (2, 3, 4)
    SETTINGS = (
        Setting("throw_and_draw", True, (True, False), "Throw away and draw"),
        Setting("dealer_can_take_it", False, (False, True), "Dealer can take it"),
        Setting("stick_the_dealer", True, (True, False), "Stick the dealer"),
        Setting("plain_aces_low", False, (False, True), "Plain aces low"),
        Setting("bid_to_go_out", True, (True, False), "Bid and make it to go out"),
        Setting("thirty_for_sixty", True, (True, False), "30 for 60"),
        Setting("game_target", 120, tuple(range(60, 125, 5)), "Game to"),
    )
    PRESETS = {
        "growler": {},
        "short-game": {"game_target": 60},
        "all-house-rules-off": {
            "throw_and_draw": False,
            "stick_the_dealer": False,
            "bid_to_go_out": False,
            "thirty_for_sixty": False,
        },
    }

    def make_variant(self) -> Variant:
        s = self.settings
        return Variant(
            **{
                **_COMMON,
                **dict(
                    rule_set=self.id,
                    players=self.players,
                    sides=self.sides,
                    trump_word="trump",
                    bidding="until-one-left",
                    all_pass="stick" if s["stick_the_dealer"] else "redeal",
                    dealer_mine="house" if s["dealer_can_take_it"] else "",
                    bidder_discards_first=True,
                    others_draw=s["throw_and_draw"],
                    thirty_leads_trump=True,
                    aces_low=s["plain_aces_low"],
                    made_thirty_scores=60 if s["thirty_for_sixty"] else 30,
                    bid_to_go_out=s["bid_to_go_out"],
                    target=s["game_target"],
                ),
            }
        )


class TraditionalRules(OneTwentyRules):
    """120s-traditional: the dealer's Mine; the teaser and need-a-five variants (docs/rules/120s-traditional.md)."""

    id = "120s-traditional"
    title = "120s (Traditional)"
    trump_word = "trump"
    table_sizes = (4,)
    SETTINGS = (
        Setting("need_a_five", True, (True, False), "Need a five to bid 25 or 30"),
        Setting("teaser", False, (False, True), "Teaser (4 in the kitty, one face up)"),
    )
    PRESETS = {"our-game": {}, "teaser": {"teaser": True}, "open-bidding": {"need_a_five": False}}

    def make_variant(self) -> Variant:
        s = self.settings
        return Variant(
            **{
                **_COMMON,
                **dict(
                    rule_set=self.id,
                    players=self.players,
                    sides=self.sides,
                    trump_word="trump",
                    kitty_size=4 if s["teaser"] else 3,
                    teaser=s["teaser"],
                    all_pass="next-dealer",
                    dealer_mine="traditional",
                    need_five=s["need_a_five"],
                    void_must_trump=False,
                ),
            }
        )
