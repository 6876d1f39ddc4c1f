"""120s-auction: trick points, the 10-point trick, making and going Down, the endgame rules and the
scores-below-zero setting."""

from .helpers import bid_and_throw, layout_game, new_game, play, play_out


def test_every_trick_is_worth_5_and_the_trick_of_the_highest_winning_card_10():
    g = layout_game("split", bidder=1)
    play_out(g)
    h = g.last_hand
    assert h["ten_card"] == "5H" and h["ten_trick"] == 0
    assert h["points"] == [15, 15]  # side 1 (seats 1, 3): 10 + 5; side 0: three tricks at 5


def test_there_are_exactly_30_points_in_every_hand():
    for name in ("all", "split", "down"):
        g = layout_game(name, bidder=1)
        play_out(g)
        assert sum(g.last_hand["points"]) == 30


def test_the_10_goes_to_the_highest_winning_card_when_the_5_of_drumpfs_was_never_dealt():
    # The 5 of hearts lies in the pack; the jack is the highest card that wins a trick.
    g = new_game(
        hands={1: "JH 2C 3C 4C 6C", 2: "AD KD QD 2S 3S", 3: "7C 8C 9C 10C QC", 0: "4S 6S 7S 8S 9S"},
        kitty="2D 3D 4D 6D",
        pack="10S JS QS KS AS 5H",
    )
    bid_and_throw(g, 1, 15, "H")
    play_out(g)
    assert g.last_hand["ten_card"] == "JH"


def test_when_no_drumpf_wins_a_trick_the_10_goes_to_the_highest_plain_winning_card_earlier_trick_on_a_tie():
    # Spades are drumpfs and nobody holds a spade or the ace of hearts. The aces of diamonds and clubs both win
    # a trick (equal places in their suits): the earlier one takes the 10.
    g = new_game(
        hands={1: "AD AC 2D 3D 4D", 2: "6D 7D 8D 9D 10D", 3: "2C 3C 4C 5C 6C", 0: "7C 8C 9C 10C JC"},
        kitty="2H 3H 4H 6H",
    )
    bid_and_throw(g, 1, 15, "S")
    for s, c in (
        (1, "AD"),
        (2, "6D"),
        (3, "2C"),
        (0, "7C"),
        (1, "AC"),
        (2, "7D"),
        (3, "3C"),
        (0, "8C"),
        (1, "2D"),
        (2, "10D"),
        (3, "4C"),
        (0, "9C"),
        (2, "9D"),
        (3, "5C"),
        (0, "10C"),
        (1, "3D"),
        (2, "8D"),
        (3, "6C"),
        (0, "JC"),
        (1, "4D"),
    ):
        g.apply(s, play(c))
    h = g.last_hand
    assert h["ten_trick"] == 0 and h["ten_card"] == "AD"
    assert h["points"] == [15, 15]


def test_a_bid_made_scores_every_point_taken_not_the_bid():
    g = layout_game("all", bidder=1, value=15)
    play_out(g)
    assert g.last_hand["made"] is True and g.scores == [0, 30]


def test_down_the_bidding_side_loses_what_it_bid_and_the_other_side_keeps_what_it_took():
    g = layout_game("down", bidder=1, value=25)
    play_out(g)
    assert g.last_hand["made"] is False
    assert g.scores == [30, -25] and g.last_hand["changes"] == [30, -25]


def test_a_made_30_scores_30():
    g = layout_game("all", bidder=1, value=30)
    play_out(g)
    assert g.scores == [0, 30]


def test_a_bid_of_30_missed_by_one_trick_is_down_30():
    g = layout_game("split", bidder=1, value=30)
    play_out(g)
    assert g.scores == [15, -30]


def test_the_first_side_to_reach_120_at_the_end_of_a_hand_wins():
    g = layout_game("all", bidder=1, value=20, scores=[0, 100], made_bid=[False, True])
    play_out(g)
    assert g.is_over and g.phase == "over"
    assert g.result == {"scores": [0, 130], "sides": [[0, 2], [1, 3]], "winners": [1, 3]}
    assert g.to_move is None and g.legal_moves(1) == []
    assert g.why_not(1, play("5H")) == "The game is over."


def test_nobody_wins_in_the_middle_of_a_hand():
    g = layout_game("all", bidder=1, value=20, scores=[0, 100], made_bid=[False, True])
    for _ in range(4):
        for _ in range(4):
            s = g.to_move
            g.apply(s, g.legal_moves(s)[0])
    assert not g.is_over and g.scores == [0, 100]


def test_if_both_sides_pass_120_in_the_same_hand_the_side_that_bid_wins_even_with_fewer_points():
    g = layout_game("twenty", bidder=1, value=20, scores=[115, 100], made_bid=[True, True])
    play_out(g)
    assert g.scores == [125, 120]
    assert g.result["winners"] == [1, 3]


def test_a_side_that_has_never_won_a_bid_and_made_it_is_capped_at_115():
    g = layout_game("down", bidder=1, scores=[100, 0])  # side 0 takes 30 without bidding
    play_out(g)
    assert g.scores == [115, -15] and not g.is_over


def test_you_cannot_win_a_game_you_did_not_bid_sitting_on_115_passing():
    g = layout_game("down", bidder=1, scores=[115, 0])
    play_out(g)
    assert g.scores[0] == 115 and not g.is_over


def test_win_a_bid_and_make_it_and_the_cap_is_gone_including_for_that_very_hand():
    g = layout_game("all", bidder=0, value=20, scores=[110, 0])
    play_out(g)
    assert g.scores == [140, 0] and g.made_bid == [True, False]
    assert g.result["winners"] == [0, 2]


def test_going_down_never_lifts_the_cap():
    g = layout_game("down", bidder=0, value=20, scores=[100, 0])  # side 0 bids and goes Down
    play_out(g)
    assert g.made_bid[0] is False and g.scores == [80, 30]


def test_the_cap_is_a_ceiling_not_a_safety_net():
    g = layout_game("down", bidder=0, value=20, scores=[115, 0])
    play_out(g)
    assert g.scores == [95, 30]


def test_a_side_that_once_made_a_bid_can_later_win_as_the_side_that_did_not_bid():
    g = layout_game("down", bidder=1, scores=[110, 0], made_bid=[True, False])
    play_out(g)
    assert g.scores == [140, -15] and g.result["winners"] == [0, 2]


# --- the scores-below-zero setting ------------------------------------------------------------------------


def test_scores_below_zero_allowed_by_default_down_30_from_10_is_minus_20():
    g = layout_game("down", bidder=1, value=30, scores=[0, 10])
    play_out(g)
    assert g.scores[1] == -20


def test_scores_below_zero_floored_a_side_that_would_drop_under_nought_sits_at_nought():
    g = layout_game("down", bidder=1, value=30, scores=[0, 10], settings={"scores_below_zero": "floored"})
    play_out(g)
    assert g.scores[1] == 0


def test_the_last_hand_summary_is_public():
    g = layout_game("split", bidder=1, value=20)
    play_out(g)
    for seat in (None, 0, 1):
        h = g.view(seat)["last_hand"]
        assert h["bidder"] == 1 and h["bid"] == 20 and h["points"] == [15, 15]
        assert h["made"] is False and h["changes"] == [15, -20]


def test_among_plain_winning_cards_a_king_is_a_king_in_every_suit_hearts_included():
    from fairdeal.core.cards import cards_from_str
    from fairdeal.core.games.onetwenty.ranks import power_table
    from fairdeal.core.games.onetwenty.scoring import ten_trick

    power = power_table("S")
    # hearts have no plain ace, yet their king ranks with the other kings: the earlier king takes the 10
    assert ten_trick(cards_from_str("QD KH KC 10D"), power) == 1
    assert ten_trick(cards_from_str("KC KH"), power) == 0
    assert ten_trick(cards_from_str("KH AD"), power) == 1
    assert ten_trick(cards_from_str("10D 2C"), power) == 0  # red 10 and black 2 share a place: the earlier
    assert ten_trick(cards_from_str("3D 2S"), power) == 1  # any winning drumpf beats every plain card
