"""Spades, "The score", "Bags", "Nil" and the score table, row by row, on the pure scoring function
(`score_team`), then through whole hands."""

from fairdeal.core.games.spades import score_team

from .helpers import SUITED, bid, new_game, play_out

# Seats 0 and 2 are partners throughout; bids and tricks map seat -> number.


def test_the_two_bids_of_a_team_added_up_are_its_contract():
    assert score_team({0: 4, 2: 3}, {0: 4, 2: 3}).contract == 7
    assert score_team({1: 0, 3: 5}, {1: 0, 3: 5}).contract == 5  # nil counts 0


def test_seed_example_bid_4_and_3_take_9_scores_72_and_2_bags():
    res = score_team({0: 4, 2: 3}, {0: 6, 2: 3})
    assert (res.contract, res.tricks, res.made) == (7, 9, True)
    assert (res.contract_points, res.bag_points, res.bags, res.points) == (70, 2, 2, 72)
    assert res.bags_after == 2


def test_contract_made_scores_10_a_trick_bid_and_1_a_bag():
    exact = score_team({0: 2, 2: 3}, {0: 1, 2: 4})
    assert (exact.points, exact.bags) == (50, 0)  # partners' tricks count together
    over = score_team({0: 2, 2: 3}, {0: 1, 2: 8})
    assert (over.points, over.bags) == (54, 4)


def test_contract_set_loses_10_a_trick_bid():
    res = score_team({0: 4, 2: 3}, {0: 5, 2: 1})
    assert (res.made, res.points, res.bags) == (False, -70, 0)


def test_bags_add_up_from_hand_to_hand():
    res = score_team({0: 2, 2: 2}, {0: 3, 2: 2}, score_before=120, bags_before=4)
    assert (res.bags, res.bags_after, res.penalties, res.score_after) == (1, 5, 0, 161)


def test_nine_bags_plus_three_more_lose_100_and_keep_2():
    res = score_team({0: 4, 2: 3}, {0: 6, 2: 4}, score_before=200, bags_before=9)
    assert (res.bags, res.penalties, res.bags_after) == (3, 1, 2)
    assert res.points == 70 + 3 - 100
    assert res.score_after == 173


def test_reaching_exactly_10_bags_loses_100_and_crosses_them_out():
    res = score_team({0: 1, 2: 1}, {0: 5, 2: 5}, bags_before=2)
    assert (res.bags, res.penalties, res.bags_after, res.points) == (8, 1, 0, 20 + 8 - 100)


def test_each_time_a_team_reaches_10_bags_it_loses_100():
    res = score_team({0: 1, 2: 1}, {0: 12, 2: 1}, bags_before=9)  # 9 + 11 = 20: two tens
    assert (res.penalties, res.bags_after, res.points) == (2, 0, 20 + 11 - 200)


def test_nil_made_wins_100_with_the_partner_making_the_contract():
    res = score_team({0: 0, 2: 4}, {0: 0, 2: 5})
    assert res.nils == ((0, True),)
    assert (res.contract, res.made, res.nil_points, res.points, res.bags) == (4, True, 100, 141, 1)


def test_nil_made_wins_100_with_the_partner_set():
    res = score_team({0: 0, 2: 5}, {0: 0, 2: 3})
    assert (res.made, res.nil_points, res.points, res.bags) == (False, 100, -50 + 100, 0)


def test_nil_lost_loses_100_and_its_tricks_are_bags_when_the_partner_makes():
    res = score_team({0: 0, 2: 4}, {0: 2, 2: 4})
    assert res.nils == ((0, False),)
    assert (res.tricks, res.made, res.bags, res.bag_points) == (4, True, 2, 2)
    assert res.points == 40 + 2 - 100


def test_a_lost_nils_tricks_do_not_help_the_partners_contract():
    res = score_team({0: 0, 2: 4}, {0: 2, 2: 3})  # 5 tricks between them, but only 3 count
    assert (res.tricks, res.made) == (3, False)
    assert res.points == -40 - 100
    assert (res.bags, res.bag_points) == (2, 0)  # bags all the same, without the +1


def test_a_lost_nils_bags_count_toward_ten_even_when_the_team_is_set():
    res = score_team({0: 0, 2: 4}, {0: 2, 2: 3}, bags_before=9)
    assert (res.penalties, res.bags_after, res.points) == (1, 1, -40 - 100 - 100)


def test_both_partners_nil_is_a_contract_of_0_and_made():
    both_made = score_team({1: 0, 3: 0}, {1: 0, 3: 0})
    assert (both_made.contract, both_made.made, both_made.points) == (0, True, 200)
    one_lost = score_team({1: 0, 3: 0}, {1: 3, 3: 0})
    assert (one_lost.made, one_lost.bags, one_lost.bag_points) == (True, 3, 3)
    assert one_lost.points == 100 - 100 + 3
    both_lost = score_team({1: 0, 3: 0}, {1: 4, 3: 9}, bags_before=0)
    assert (both_lost.bags, both_lost.penalties, both_lost.bags_after) == (13, 1, 3)
    assert both_lost.points == -200 + 13 - 100


def test_a_whole_hand_is_scored_for_both_teams_and_shown_in_the_summary():
    # SUITED: seat 3 holds every spade and takes all 13 tricks.
    game = new_game(SUITED, SUITED)
    bid(game, {1: 0, 2: 2, 3: 11, 0: 1})
    play_out(game)
    view = game.view(None)
    assert view["scores"] == [-30, 100 + 110 + 2] and view["bags"] == [0, 2]
    summary = view["last_hand"]
    assert summary["tricks_taken"] == [0, 0, 0, 13] and summary["bids"] == [1, 0, 2, 11]
    team0, team1 = summary["teams"]
    assert (team0["contract"], team0["made"], team0["points"]) == (3, False, -30)
    assert (team1["contract"], team1["tricks"], team1["bags"], team1["points"]) == (11, 13, 2, 212)
    assert team1["nils"] == [{"seat": 1, "made": True}]
