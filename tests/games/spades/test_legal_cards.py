"""legal_cards (what the bots and legal_moves use) is exactly the set of held cards why_not_card allows (what
apply enforces), in the hand's order: one rule, looked up once."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from fairdeal.core.cards import PACK_52, cards_from_str
from fairdeal.core.games.spades import legal_cards, may_play, strength, why_not_card, winner_of
from fairdeal.core.games.tricks import trick_winner


@settings(max_examples=80, deadline=None)
@given(st.permutations(PACK_52), st.integers(0, 13), st.integers(0, 3), st.booleans(), st.booleans())
def test_legal_cards_are_the_cards_why_not_card_allows(deck, held, in_trick, broken, spades_only):
    hand = deck[:held]
    if spades_only:
        hand = [c for c in hand if c.suit == "S"]
    trick = deck[13 : 13 + in_trick]
    allowed = [c for c in hand if why_not_card(hand, c, trick, broken) is None]
    assert legal_cards(hand, trick, broken) == allowed
    if hand:
        assert allowed, "a hand always has a legal card"


def test_the_sentences_name_the_rule_that_refuses():
    hand = cards_from_str("2H 5S 9C")
    assert why_not_card(hand, hand[1], [], False) == "Spades are not broken yet."
    assert why_not_card(hand, hand[1], [], True) is None
    assert why_not_card(hand, hand[2], cards_from_str("KH"), False) == "You must follow hearts."
    assert why_not_card(hand, hand[1], cards_from_str("KD"), False) is None  # void in diamonds: anything
    assert why_not_card(hand, cards_from_str("AS")[0], [], True) == "You do not hold the Ace of spades."
    assert legal_cards(cards_from_str("5S KS"), [], False) == cards_from_str("5S KS")  # only spades: lead one


@settings(max_examples=300, deadline=None)
@given(
    st.permutations(PACK_52), st.integers(0, 13), st.integers(0, 3), st.booleans(), st.booleans(), st.integers(0, 51)
)
def test_may_play_is_why_not_card_allowing_it(deck, held, in_trick, broken, spades_only, other):
    """may_play (the replay's check of one card, from the trick's plays as they lie) answers as why_not_card:
    for every held card and one card that is not held."""
    hand = deck[:held]
    if spades_only:
        hand = [c for c in hand if c.suit == "S"]
    trick = deck[13 : 13 + in_trick]
    plays = [((i + 1) % 4, c) for i, c in enumerate(trick)]
    for card in [*hand, deck[other]]:
        assert may_play(hand, card, plays, broken) == (why_not_card(hand, card, trick, broken) is None), card


@settings(max_examples=300, deadline=None)
@given(st.permutations(PACK_52), st.permutations(range(4)), st.integers(1, 4))
def test_winner_of_is_trick_winner_with_the_strength_function(deck, seats, n):
    """winner_of (the trick's winner the state and the policies' fast path use) is trick_winner with strength,
    for every trick so far: one card to four."""
    plays = list(zip(seats, deck, strict=False))[:n]
    assert winner_of(plays) == trick_winner(plays, strength)
