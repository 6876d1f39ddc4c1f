"""No view names a card hidden from its seat: another seat's hand, the kitty, the pack or stock, thrown or
exchanged cards, a hand its own seat has not looked at yet. A seat's view (and a spectator's) names only the
cards that seat may see (tests/games/conformance/play.py: may_see), at every step of random games of any rule set,
table size and settings. The last hand's summary is public history of a deal since taken up again."""

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.conformance.play import cards_named, may_see, play, seats
from tests.games.conformance.tables import any_table


def check_views(rules, state):
    for seat in seats(state):
        view = state.view(seat)
        named = cards_named({k: v for k, v in view.items() if k != "last_hand"})
        leaked = named - may_see(state, seat)
        assert not leaked, (seat, sorted(map(str, leaked)), view)


@settings(max_examples=60, deadline=None)
@given(any_table(), st.integers(0, 2**32 - 1))
def test_no_view_names_a_card_hidden_from_its_seat(table, seed):
    play(table, seed, 250, check_views)
