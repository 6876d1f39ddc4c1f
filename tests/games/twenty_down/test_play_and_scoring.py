"""Card order, playing the tricks, scoring; the two worked examples (docs/rules/twenty-down.md)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from fairdeal.core.cards import PACK_32, SUITS, card_from_str
from fairdeal.core.games.base import Move
from fairdeal.core.games.twenty_down import may_play, play_refusal

from .deals import KING_AND_TEN, THREE_AND_TWO
from .helpers import deck_for, game, play, to_play

BEN, CARLA, DAN, ANNA = 0, 1, 2, 3  # clockwise; Anna deals, so Ben is the trump maker and leads


def ben_example():
    deck = deck_for(
        ANNA,
        first={BEN: "KH 9C", CARLA: "7H 8H", DAN: "8S 9D", ANNA: "AH 9H"},
        second={BEN: "10C JD QD", CARLA: "7C 8C 7D", DAN: "10D KD JC", ANNA: "QC KC 8D"},
    )
    state = game(deck, dealer=ANNA)
    to_play(state, "S")
    return state


def test_example_ben_leads_carla_follows_dan_must_trump_and_wins():
    state = ben_example()
    assert state.to_move == BEN
    play(state, "KH")
    assert state.why_not(CARLA, Move.play(card_from_str("7C"))) == "You must follow hearts."
    play(state, "7H")
    assert state.why_not(DAN, Move.play(card_from_str("9D"))) == "You must play a trump: you have no hearts."
    play(state, "8S", "AH")
    done = state.tricks.done[0]
    assert (done.winner, str(done.winning_card)) == (DAN, "8S")
    assert state.to_move == DAN


def test_you_do_not_have_to_play_a_higher_card():
    state = ben_example()
    play(state, "KH")
    assert state.why_not(CARLA, Move.play(card_from_str("7H"))) is None
    play(state, "7H", "8S")
    assert state.why_not(ANNA, Move.play(card_from_str("9H"))) is None


def test_with_neither_the_suit_led_nor_a_trump_any_card_may_be_played():
    state = game(KING_AND_TEN)
    to_play(state, "C")
    play(state, "KH", "10H")
    assert {str(m.card) for m in state.legal_moves(3)} == {"7D", "8D", "9D", "10D", "JD"}


def test_the_ten_ranks_above_the_king():
    state = game(KING_AND_TEN)
    to_play(state, "C")
    play(state, "KH", "10H", "7D", "7S")
    assert state.tricks.done[0].winner == 2


def test_the_trump_maker_leads_the_first_trick():
    state = game(KING_AND_TEN)
    to_play(state, "C")
    assert state.to_move == 1


def test_a_trump_beats_every_card_of_other_suits_and_the_winner_leads_next():
    state = game(THREE_AND_TWO)
    to_play(state, "S")
    play(state, "AS", "AC", "AD", "AH")  # the ace of trumps beats three other aces
    assert state.tricks.done[0].winner == 1 and state.to_move == 1
    play(state, "10S", "QC", "KD", "KH", "KS", "KC", "QD", "QH", "7C", "10C", "JD", "JH")
    assert state.tricks.done[3].winner == 2 and state.to_move == 2  # 10C over 7C: seat 2 leads next


def test_only_the_suit_led_or_a_trump_can_win():
    state = game(THREE_AND_TWO)
    to_play(state, "D")
    play(state, "7C", "AC", "AD", "AH")  # AD and AH are higher cards, but AD is a trump
    assert state.tricks.done[0].winner == 3
    state2 = game(THREE_AND_TWO)
    to_play(state2, "S")
    play(state2, "7C", "10C", "AD", "AH")  # no trump: the highest club wins over the aces
    assert state2.tricks.done[0].winner == 2


def test_trump_led_must_be_followed_with_a_trump():
    deck = deck_for(
        ANNA,
        first={BEN: "KH 9C", CARLA: "7H 8H", DAN: "8S 9D", ANNA: "AH 9H"},
        second={BEN: "10C JD QD", CARLA: "7C 8C 7D", DAN: "10D KD JC", ANNA: "QC KC 8D"},
    )
    state = game(deck, dealer=ANNA)
    to_play(state, "H")
    play(state, "KH")
    assert state.why_not(CARLA, Move.play(card_from_str("7C"))) == "You must follow hearts."
    play(state, "8H")
    assert state.why_not(DAN, Move.play(card_from_str("9D"))) is None  # no hearts, so no trump: any card


def test_each_trick_takes_one_point_off_and_no_trick_adds_five():
    state = game(THREE_AND_TWO)
    to_play(state, "S")
    play(
        state,
        "AS",
        "JC",
        "10D",
        "10H",
        "10S",
        "QC",
        "JD",
        "JH",
        "KS",
        "KC",
        "QD",
        "QH",
        "7C",
        "AC",
        "AD",
        "AH",
        "10C",
        "KD",
        "KH",
        "8C",
    )
    assert state.last_hand["tricks_won"] == [0, 3, 2, 0]
    assert state.scores == [25, 17, 18, 25]


def test_example_hearts_trumps_score_double():
    deck = deck_for(
        ANNA,
        first={BEN: "QH JH", CARLA: "AS KS", DAN: "AD KD", ANNA: "AH 10H"},
        second={BEN: "9H 8H 7H", CARLA: "QS JS 10S", DAN: "QD JD 10D", ANNA: "KH 7C 8C"},
    )
    state = game(deck, dealer=ANNA)
    to_play(state, "H")
    play(
        state,
        "QH",
        "AS",
        "AD",
        "AH",
        "10H",
        "9H",
        "KS",
        "KD",
        "KH",
        "JH",
        "QS",
        "QD",
        "7C",
        "8H",
        "JS",
        "JD",
        "7H",
        "10S",
        "10D",
        "8C",
    )
    assert state.last_hand["tricks_won"] == [2, 0, 0, 3]
    assert state.scores[ANNA] == 14 and state.scores[BEN] == 16
    assert state.scores[CARLA] == 30 and state.scores[DAN] == 30


@settings(max_examples=300, deadline=None)
@given(
    st.permutations(PACK_32),
    st.integers(0, 5),
    st.integers(0, 3),
    st.sampled_from([*SUITS, None]),
    st.integers(0, 31),
    st.sampled_from(["", "C", "CD"]),
)
def test_may_play_is_play_refusal_allowing_it(deck, held, in_trick, trump, other, without):
    """may_play (the replay's check of one card) answers as play_refusal, for every held card and one more:
    with hands void in the suit led, in trumps, or in both."""
    hand = [c for c in deck[: held + 8] if c.suit not in without][:held]
    plays = [((i + 2) % 5, c) for i, c in enumerate(deck[20 : 20 + in_trick])]
    for card in [*hand, deck[other]]:
        assert may_play(hand, plays, trump, card) == (play_refusal(hand, plays, trump, card) is None), card


def test_last_hand_lists_the_deals_tricks_last_the_same_dict_at_every_read():
    """last_hand writes its "tricks" when first read (not at the deal's end): the JSON of the deal's tricks as
    they were played, last among the keys, one dict however often it is read; [] after a walkover."""
    from tests.games.conformance.play import new_game
    from tests.games.randomness import SeededRng

    for table_settings in ({}, {"three_first_cards": True, "drop_out_first": True}):
        rules, state = new_game(("twenty-down", 4, table_settings), 7)
        bots, ends = SeededRng(7), 0
        while not state.is_over:
            before, deals = state.tricks, len(state.deals)
            seat = state.to_move
            state.apply(seat, rules.bot_move(state.view(seat), bots))
            if len(state.deals) == deals and not state.is_over:
                continue
            if state.last_hand is None or state.last_hand["counted_deal"] != ends + 1:
                continue  # a new deal demanded: no deal ended
            ends += 1
            last = state.last_hand
            assert list(last)[-1] == "tricks" and state.last_hand is last
            expected = [t.to_json() for t in before.done] if before is not None else []
            assert last["tricks"] == expected and (expected or last["walkover"])
            assert state.view(0)["last_hand"] is last
        assert ends > 3
