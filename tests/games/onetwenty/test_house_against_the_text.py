"""The engine against the rules pages on random cards: trick winners (card orders, plain aces low on and off) and
the cards a player may play, compared with house_reading.py, which restates docs/rules/120s-house.md and
docs/rules/120s-traditional.md without the engine's tables."""

from hypothesis import given, settings
from hypothesis import strategies as st

from fairdeal.core.cards import PACK_52
from fairdeal.core.games.onetwenty.follow import legal_cards
from fairdeal.core.games.onetwenty.ranks import make_strength
from fairdeal.core.games.tricks import trick_winner as engine_winner

from . import house_reading as reference

suits = st.sampled_from("CDHS")


@settings(max_examples=300, deadline=None)
@given(st.permutations(PACK_52), suits, st.booleans(), st.integers(2, 4))
def test_every_trick_is_won_as_the_text_orders_the_cards(deck, trump, aces_low, players):
    cards = list(deck[:players])
    seat, _ = engine_winner(list(enumerate(cards)), make_strength(trump, aces_low))
    assert seat == reference.trick_winner(cards, trump, aces_low), (cards, trump, aces_low)


@settings(max_examples=300, deadline=None)
@given(st.permutations(PACK_52), suits, st.integers(1, 5), st.booleans())
def test_the_cards_a_player_may_play_are_the_texts(deck, trump, size, void_must_trump):
    led, hand = deck[0], list(deck[1 : 1 + size])
    engine = set(legal_cards(hand, led, trump, void_must_trump=void_must_trump))
    assert engine == reference.may_play(hand, led, trump, void_must_trump), (hand, led, trump)


@settings(max_examples=300, deadline=None)
@given(st.permutations(PACK_52), suits, st.booleans(), st.booleans())
def test_the_trick_worth_5_more_is_the_texts(deck, trump, aces_low, no_trump):
    from fairdeal.core.games.onetwenty.ranks import is_trump, power_table
    from fairdeal.core.games.onetwenty.scoring import ten_trick

    pool = [c for c in deck if not (no_trump and is_trump(c, trump))]
    winning = pool[:5]
    assert ten_trick(winning, power_table(trump, aces_low)) == reference.ten_trick(winning, trump, aces_low)
