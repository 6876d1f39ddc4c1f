"""The spades policies' one typed input (_Seen) made from the state (the audit's fast path) is the one made from
the seat's view (the general path): the same facts, the lazily made `played` too, for every seat at every card
decision of whole seeded games; and it is the state's copy, so a policy may change it without changing the game."""

import pytest

from fairdeal.core.cards import PACK_52
from fairdeal.core.games.spades import _is_master, _Seen, sort_cards
from tests.games.conformance.play import all_views, play
from tests.games.conformance.tables import TABLE_IDS, TABLES

SPADES = [(t, i) for t, i in zip(TABLES, TABLE_IDS, strict=True) if t[0] == "spades"]
SPADES_TABLES = [t for t, _ in SPADES]


def _inputs_agree(rules, state):
    # the state keeps every hand in the pack's order (_Seen.of_state copies it, unsorted), in the bidding too
    assert all(state.hands[s] == sort_cards(state.hands[s]) for s in range(rules.players))
    if state.phase != "play":
        return
    for seat in range(rules.players):
        from_state, from_view = _Seen.of_state(state, seat), _Seen.of(state.view(seat))
        assert from_state == from_view, (seat, from_state, from_view)
        assert from_state.played() == from_view.played()
        assert from_state.known() == from_view.known()


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("table", SPADES_TABLES, ids=[i for _, i in SPADES])
def test_the_input_made_from_the_state_is_the_one_made_from_the_view(table, seed):
    game = play(table, seed, 10_000, each=_inputs_agree)
    assert game.state.is_over  # whole games: every hand's card decisions were met


def test_changing_the_input_made_from_the_state_changes_nothing_in_the_game():
    def spoil(rules, state):
        if state.phase != "play":
            return
        before = all_views(state)
        seen = _Seen.of_state(state, state.to_move)
        for facts in (seen.hand, seen.trick, seen.legal, seen.bids, seen.taken, seen.played()):
            facts.clear()
        assert all_views(state) == before

    play(SPADES_TABLES[0], 0, 10_000, each=spoil)


def test_a_master_card_is_one_no_other_hand_can_beat_in_its_suit():
    """_is_master (by the highest rank outside the known cards, worked out once a suit) is the rule as written:
    every higher card of the suit is in this hand or played, at every card decision of whole games."""

    def masters_agree(rules, state):
        if state.phase != "play":
            return
        seen = _Seen.of_state(state, state.to_move)
        for card in PACK_52:
            above = [c for c in PACK_52 if c.suit == card.suit and c.rank > card.rank]
            assert _is_master(card, seen) == all(c in seen.known() for c in above), card

    play(SPADES_TABLES[0], 1, 10_000, each=masters_agree)
