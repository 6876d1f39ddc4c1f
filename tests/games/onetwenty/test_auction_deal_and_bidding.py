"""120s-auction (docs/rules/120s-auction.md): players, the deal, the kitty and the bidding, scenario by scenario."""

import pytest

from fairdeal.core.cards import PACK_52
from fairdeal.core.games import make_rules
from fairdeal.core.games.base import BadSettings, FixedChance, IllegalMove, Move, NotYourTurn

from .helpers import PASS, bid, cards, new_game, pass_round, trump

# --- players -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 5, 6])
def test_exactly_four_players_any_other_size_is_refused(players):
    with pytest.raises(BadSettings) as err:
        make_rules("120s-auction", {}, players)
    assert "4 players" in err.value.message and str(players) in err.value.message


def test_partners_sit_opposite_and_scores_are_kept_by_side():
    g = new_game()
    view = g.view(0)
    assert view["sides"] == [[0, 2], [1, 3]]
    assert len(view["scores"]) == 2


def test_a_standard_52_card_pack_every_card_once():
    g = new_game()
    assert sorted(g.all_cards()) == sorted(PACK_52)


# --- the deal ------------------------------------------------------------------------------------------


def test_five_cards_each_one_at_a_time_from_the_dealers_left_finishing_with_the_dealer():
    rules = make_rules("120s-auction")
    g = rules.new_game(FixedChance([list(PACK_52)], first_dealer=0))
    d = list(PACK_52)
    # Rounds of four players and, in the first four rounds, one kitty card: seat 1 gets deck 0, 5, 10, 15, 20.
    assert sorted(g.hands[1]) == sorted(d[i] for i in (0, 5, 10, 15, 20))
    assert sorted(g.hands[2]) == sorted(d[i] for i in (1, 6, 11, 16, 21))
    assert sorted(g.hands[3]) == sorted(d[i] for i in (2, 7, 12, 17, 22))
    assert sorted(g.hands[0]) == sorted(d[i] for i in (3, 8, 13, 18, 23))  # the dealer is dealt last


def test_kitty_gets_one_card_after_each_of_the_first_four_rounds_and_none_after_the_fifth():
    rules = make_rules("120s-auction")
    g = rules.new_game(FixedChance([list(PACK_52)], first_dealer=0))
    assert g.kitty == [PACK_52[i] for i in (4, 9, 14, 19)]
    assert PACK_52[23] in g.hands[0]  # the last card of the deal is a player's (the dealer's)


def test_rest_of_the_pack_is_28_cards_face_down_and_drawn_from_its_top():
    rules = make_rules("120s-auction")
    g = rules.new_game(FixedChance([list(PACK_52)], first_dealer=0))
    assert len(g.pack) == 28 and g.view(None)["pack_count"] == 28
    assert g.pack[-1] == PACK_52[24]  # the top card is the next one in the deck


def test_nobody_sees_the_kitty_not_even_the_dealer():
    g = new_game(hands={0: "5H JH AH KH QH"}, kitty="2S 3S 4S 6S")
    for seat in (None, 0, 1, 2, 3):
        v = g.view(seat)
        assert v["kitty"] is None and v["kitty_count"] == 4
        assert not {"2S", "3S", "4S", "6S"} & set(str(v))


def test_deal_passes_one_seat_left_after_every_hand_played_out():
    from .helpers import layout_game, play_out

    g = layout_game("split", bidder=1)
    assert g.dealer == 0
    play_out(g)
    assert g.dealer == 1 and g.phase == "bidding" and g.to_move == 2


# --- bidding -------------------------------------------------------------------------------------------


def test_one_round_of_bidding_from_the_dealers_left_the_dealer_last():
    g = new_game(dealer=2)
    order = []
    while g.phase == "bidding":
        order.append(g.to_move)
        g.apply(g.to_move, PASS if g.to_move != 2 else bid(15))
    assert order == [3, 0, 1, 2]
    assert g.phase == "trump" and g.bidder == 2


def test_the_bids_are_15_20_25_and_30_nothing_in_between_or_above():
    g = new_game()
    assert [m.value for m in g.legal_moves(1) if m.kind == "bid"] == [15, 20, 25, 30]
    for value in (10, 17, 35, 40):
        assert g.why_not(1, bid(value)) == "The bids are 15, 20, 25 and 30."
        with pytest.raises(IllegalMove):
            g.apply(1, bid(value))


def test_a_bid_has_to_beat_the_bid_standing():
    g = new_game()
    g.apply(1, bid(20))
    assert g.why_not(2, bid(20)) == (
        "A bid has to beat the bid standing: 20 is standing, so the smallest bid left is 25."
    )
    assert g.why_not(2, bid(15)) is not None
    assert [m.value for m in g.legal_moves(2) if m.kind == "bid"] == [25, 30]


def test_once_someone_has_said_30_everybody_after_them_passes():
    g = new_game()
    g.apply(1, bid(30))
    for s in (2, 3, 0):
        assert g.legal_moves(s) == [PASS]
        assert g.why_not(s, bid(30)) == "30 has been bid and nothing is higher: all you can do is pass."
        g.apply(s, PASS)
    assert g.bidder == 1 and g.bid == 30


def test_from_90_up_the_smallest_bid_is_20_but_passing_is_allowed():
    g = new_game(scores=[0, 90])  # seats 1 and 3 are on 90
    assert g.why_not(1, bid(15)) == "From 90 points up your side's smallest bid is 20."
    assert g.why_not(1, bid(20)) is None and g.why_not(1, PASS) is None
    g.apply(1, PASS)
    assert g.why_not(2, bid(15)) is None  # the other side, on 0, may still say 15


def test_nobody_is_ever_forced_to_bid_including_the_dealer_at_any_score():
    g = new_game(scores=[115, 115], made_bid=[False, False])
    pass_round(g, 1, 2, 3)
    assert PASS in g.legal_moves(0)


def test_the_high_bidder_names_the_drumpf_suit():
    g = new_game()
    g.apply(1, bid(15))
    pass_round(g, 2, 3, 0)
    assert g.phase == "trump" and g.to_move == 1
    assert g.why_not(2, trump("S")).startswith("It is not your turn")
    with pytest.raises(NotYourTurn):
        g.apply(2, trump("S"))
    assert g.why_not(1, Move("trump", value="X")) == "Name the drumpf suit as one of C, D, H or S."
    g.apply(1, trump("S"))
    assert g.trump == "S" and g.view(3)["trump"] == "S"


def test_a_higher_later_bid_wins_the_auction():
    g = new_game()
    g.apply(1, bid(15))
    g.apply(2, bid(20))
    g.apply(3, PASS)
    g.apply(0, bid(25))
    assert g.bidder == 0 and g.bid == 25


# --- the everybody-passes setting -------------------------------------------------------------------------


def test_everybody_passes_default_the_same_dealer_deals_again_with_a_new_shuffle():
    second = cards("5H JH AH KH QH")
    g = new_game(more=[second + [c for c in PACK_52 if c not in second]])
    pass_round(g, 1, 2, 3, 0)
    assert g.dealer == 0 and g.hand_number == 1 and g.phase == "bidding"
    assert g.last_hand["thrown_in"] is True and g.scores == [0, 0]
    assert cards("5H")[0] in g.hands[1] and cards("JH")[0] in g.hands[2]  # dealt from the second deck


def test_everybody_passes_next_dealer_moves_the_deal_on():
    g = new_game(settings={"everybody_passes": "next-dealer"})
    pass_round(g, 1, 2, 3, 0)
    assert g.dealer == 1 and g.to_move == 2


def test_everybody_passes_dealer_picks_the_dealer_must_bid_or_call_a_redeal():
    g = new_game(settings={"everybody_passes": "dealer-picks"})
    pass_round(g, 1, 2, 3)
    kinds = {(m.kind, m.value) for m in g.legal_moves(0)}
    assert kinds == {("bid", 15), ("bid", 20), ("bid", 25), ("bid", 30), ("redeal", None)}
    assert g.why_not(0, PASS) == "Everybody else has passed: you must pick a bid or call a redeal."
    g.apply(0, Move("redeal"))
    assert g.dealer == 0 and g.hand_number == 1 and g.last_hand["redeal_called"] is True


def test_dealer_picks_the_dealer_may_bid():
    g = new_game(settings={"everybody_passes": "dealer-picks"})
    pass_round(g, 1, 2, 3)
    g.apply(0, bid(15))
    assert g.bidder == 0 and g.phase == "trump"


def test_redeal_is_refused_when_the_table_does_not_play_dealer_picks():
    g = new_game()
    pass_round(g, 1, 2, 3)
    assert g.why_not(0, Move("redeal")) == "This table does not let the dealer call a redeal."


def test_dealer_picks_redeal_only_after_everybody_else_passed():
    g = new_game(settings={"everybody_passes": "dealer-picks"})
    g.apply(1, bid(15))
    pass_round(g, 2, 3)
    assert g.why_not(0, Move("redeal")) == "Only the dealer can call a redeal, and only once everybody else has passed."
    assert g.why_not(0, PASS) is None
