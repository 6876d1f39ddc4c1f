"""Rules version 2, the last deals (docs/rules/twenty-down.md, "The last deals"): from counted deal 40 on the first
deal that leaves one player alone lowest ends the game at any score; deal 50 is the last, won by the lowest, shared
by a tie. Version 1 plays on as it always did."""

from fairdeal.core.games.twenty_down.scoring import LAST_DEAL, LAST_DEALS_FROM

from .helpers import game, walkover_deal


def at_deal(counted, scores, version=None):
    """A game (no endgame, so every deal may be a walkover) about to play counted deal `counted` at `scores`."""
    state = game(no_endgame=True, version=version)
    state.deal_no, state.scores = counted, list(scores)
    return state


def test_before_the_last_deals_one_alone_lowest_above_zero_plays_on():
    state = at_deal(LAST_DEALS_FROM - 1, [20, 20, 20, 20])
    maker = state.trump_maker
    walkover_deal(state, "S")  # the trump maker takes five tricks: 15, alone lowest, above zero
    assert not state.is_over and state.scores[maker] == 15 and state.deal_no == LAST_DEALS_FROM


def test_from_deal_forty_one_alone_lowest_wins_at_any_score():
    state = at_deal(LAST_DEALS_FROM, [20, 20, 20, 20])
    maker = state.trump_maker
    walkover_deal(state, "S")
    assert state.is_over and state.result == {
        "scores": [15 if s == maker else 20 for s in range(4)],
        "winners": [maker],
    }


def test_in_the_last_deals_a_tie_at_the_lowest_plays_on():
    state = at_deal(LAST_DEALS_FROM + 3, [20, 20, 20, 20])
    maker = state.trump_maker
    state.scores[maker], state.scores[(maker + 1) % 4] = 15, 10
    walkover_deal(state, "S")  # 15 -> 10: tied with the next seat
    assert not state.is_over and sorted(state.scores) == [10, 10, 20, 20]


def test_after_deal_fifty_the_game_is_over_and_a_tie_at_the_lowest_shares_the_win():
    state = at_deal(LAST_DEAL, [20, 20, 20, 20])
    maker, other = state.trump_maker, (state.trump_maker + 2) % 4
    state.scores[maker], state.scores[other] = 15, 10
    walkover_deal(state, "S")
    assert state.is_over and state.to_move is None
    assert state.result["winners"] == sorted([maker, other]) and min(state.result["scores"]) == 10


def test_version_1_plays_on_past_deal_fifty():
    state = at_deal(LAST_DEAL, [20, 20, 20, 20], version=1)
    maker = state.trump_maker
    walkover_deal(state, "S")
    assert not state.is_over and state.scores[maker] == 15
    assert state.rules.to_json()["version"] == 1


def test_a_new_table_gets_version_2():
    assert game().rules.to_json()["version"] == 2
