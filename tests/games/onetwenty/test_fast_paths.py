"""The following rules' fast forms give what the general rule gives: `Following.legal` is the list the rule as
first written (kept below as the reference, card powers looked up in the power table) gives, and
`Following.allows(hand, c, ...)` — one card checked without building that list, as a replay does — is exactly
`c in legal(...)`, for every card of the pack, held or not. `make_winner` names the trick's winner as
trick_winner does with the strength function. The shared bid and trump moves (moves.py) are the moves Move makes
anew, and a value that is no bid or suit gets Move's own answer."""

from hypothesis import given, settings
from hypothesis import strategies as st

from fairdeal.core.cards import PACK_52, SUITS
from fairdeal.core.games.onetwenty.follow import following, legal_cards
from fairdeal.core.games.onetwenty.ranks import (
    TRUMP_BASE,
    beaters_by_strength,
    make_beaters,
    make_strength,
    make_winner,
    power_table,
    privileged,
)
from fairdeal.core.games.tricks import trick_winner


def reference_legal(hand, led, trump, void_must_trump, aces_low, lead_trump):
    power = power_table(trump, aces_low)
    if led is None:
        if lead_trump:
            trumps = [c for c in hand if power[c] > TRUMP_BASE]
            if trumps:
                return trumps
        return list(hand)
    trumps = [c for c in hand if power[c] > TRUMP_BASE]
    led_power = power[led]
    if led_power > TRUMP_BASE:
        keep = privileged(trump)
        if any(c not in keep or power[c] < led_power for c in trumps):
            return trumps
        return list(hand)
    follow = [c for c in hand if c.suit == led.suit and power[c] < TRUMP_BASE]
    if follow:
        return [c for c in hand if c in trumps or (c.suit == led.suit)]
    if trumps and void_must_trump:
        return trumps
    return list(hand)


@st.composite
def positions(draw):
    cards = draw(st.permutations(PACK_52))
    size = draw(st.integers(min_value=1, max_value=9))
    hand = cards[:size]
    led = draw(st.one_of(st.none(), st.sampled_from(cards[size:])))
    return (hand, led, draw(st.sampled_from(SUITS)), draw(st.booleans()), draw(st.booleans()), draw(st.booleans()))


@settings(max_examples=300, deadline=None)
@given(positions())
def test_legal_and_allows_agree_with_the_reference_rule(position):
    hand, led, trump, void_must_trump, aces_low, lead_trump = position
    expected = reference_legal(hand, led, trump, void_must_trump, aces_low, lead_trump)
    f = following(trump, void_must_trump, aces_low)
    assert f.legal(hand, led, lead_trump) == expected
    assert (
        legal_cards(hand, led, trump, void_must_trump=void_must_trump, aces_low=aces_low, lead_trump=lead_trump)
        == expected
    )
    for c in PACK_52:
        assert f.allows(hand, c, led, lead_trump) == (c in expected), c


def test_a_kept_back_trump_is_allowed_only_when_nothing_forces():
    # trump hearts, the 2 of hearts led: the ace of hearts may be kept back only when no other trump is held
    from fairdeal.core.cards import cards_from_str

    f = following("H", True, False)
    led = cards_from_str("2H")[0]
    hand = cards_from_str("AH KS")
    assert f.allows(hand, hand[1], led) and f.legal(hand, led) == hand
    hand = cards_from_str("AH 3H KS")
    assert not f.allows(hand, hand[2], led) and f.legal(hand, led) == hand[:2]


@st.composite
def tricks(draw):
    n = draw(st.integers(min_value=1, max_value=4))
    cards = draw(st.permutations(PACK_52))[:n]
    seats = draw(st.permutations(range(4)))[:n]
    return list(zip(seats, cards, strict=True)), draw(st.sampled_from(SUITS)), draw(st.booleans())


@settings(max_examples=300, deadline=None)
@given(tricks())
def test_make_winner_is_trick_winner_with_the_strength_function(trick):
    plays, trump, aces_low = trick
    assert make_winner(trump, aces_low)(plays) == trick_winner(plays, make_strength(trump, aces_low))


@settings(max_examples=400, deadline=None)
@given(st.permutations(PACK_52), st.integers(min_value=0, max_value=9), st.sampled_from(SUITS), st.booleans())
def test_make_beaters_is_the_strength_function_card_by_card(pack, n, trump, aces_low):
    # any best card (a trick's winner, a plain card of another suit, the card led itself) and any cards
    led, best, cards = pack[0], pack[1], list(pack[2 : 2 + n])
    for b in (best, led):
        assert make_beaters(trump, aces_low)(cards, b, led) == beaters_by_strength(trump, aces_low)(cards, b, led)
    assert make_beaters(trump, aces_low)(pack, led, led) == beaters_by_strength(trump, aces_low)(pack, led, led)


def _made(make, value):
    try:
        return make(value)
    except Exception as exc:
        return type(exc), str(exc)


def test_the_shared_bid_and_trump_moves_are_the_moves_made_anew():
    from fairdeal.core.games.base import Move
    from fairdeal.core.games.onetwenty.moves import bid_move, trump_move

    for value in (15, 20, 25, 30, 10, 35, 0, -5, 20.0, True, "20", None):
        assert _made(bid_move, value) == _made(Move.bid, value), value
    for suit in (*SUITS, "X", "h", "", 3, None):
        assert _made(trump_move, suit) == _made(Move.trump, suit), suit
    assert bid_move(20) is bid_move(20) and trump_move("H") is trump_move("H")


def test_the_bidding_options_kept_for_a_position_are_the_options_worked_out_anew():
    """Bidding.options keeps one position's Options (the policy and the check of its move both ask): at every
    position of whole games, for every seat, asked again and after other seats were asked, they are options_now's."""
    from fairdeal.core import keys
    from fairdeal.core.games import available
    from fairdeal.core.integrity import game_seed_of
    from fairdeal.core.replay import LiveGame
    from fairdeal.core.selfplay import selfplay

    key = keys.private_key_from_hex("5d" * 32)
    asked = 0
    for i, rule_set in enumerate(r for r in available() if r.startswith("120s")):
        for n in range(3):
            t = selfplay(rule_set, key, bytes([70 + i, n]) * 16, bots=(0, 1, 2, 3), timeout_every=2)
            game = LiveGame(t["start"], game_seed_of(t))
            for record in t["records"]:
                b = game.state.bidding
                if game.state.phase == "bidding":
                    players = game.rules.players
                    for seat in [*range(players), *range(players - 1, -1, -1)]:
                        assert b.options(seat) == b.options_now(seat), (seat, b.log)
                        asked += 1
                    b.options(record["seat"])  # the mover's kept Options are then what its move is checked by
                game.apply_record(record)
    assert asked > 500
