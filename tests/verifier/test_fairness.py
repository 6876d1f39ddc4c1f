"""fairdeal.core.fairness: seeds, commitment, derivation, randbelow, shuffles, SeedChance (properties and edges)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairdeal.core.cards import PACK_32, PACK_52, cards_from_str
from fairdeal.core.fairness import (
    CLIENT_SEED_MAX,
    DerivedRng,
    SeedChance,
    commitment,
    derive_bytes,
    game_seed,
    new_server_seed,
    seed_chance,
    server_seed_from_hex,
    shuffle,
    shuffle_keyed,
    validate_client_seed,
)

SEED = bytes(range(32))
RULES = {"id": "spades", "players": 4, "settings": {"nil": True}, "version": 1}
GS = game_seed(SEED, ["a", None, "b", None])

seeds32 = st.binary(min_size=32, max_size=32)
client_seed = st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E), min_size=1, max_size=128)
client_seeds = st.lists(st.none() | client_seed, min_size=2, max_size=4)
labels = st.text(alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=1, max_size=20)


def generic_shuffle(seed, label, cards):
    """Fisher-Yates through the public randbelow: the fast inlined path must give the same deck."""
    deck, rng = list(cards), DerivedRng(seed, label)
    for i in range(len(deck) - 1, 0, -1):
        j = rng.randbelow(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


# ------------------------------------------------------------------------------------------ seeds


def test_server_seeds_are_32_fresh_bytes():
    a, b = new_server_seed(), new_server_seed()
    assert len(a) == len(b) == 32 and a != b


def test_server_seed_hex_round_trip_and_refusals():
    assert server_seed_from_hex(SEED.hex()) == SEED
    for bad in ("00" * 31, "zz" * 32, SEED.hex().upper(), 5):
        with pytest.raises(ValueError, match="64 lowercase hex"):
            server_seed_from_hex(bad)


@pytest.mark.parametrize("seed", ["x", "a b c ~!", "A" * CLIENT_SEED_MAX])
def test_client_seed_accepted(seed):
    assert validate_client_seed(seed) == seed


@pytest.mark.parametrize(
    "seed, message",
    [
        ("", "1 to 128 characters"),
        ("A" * (CLIENT_SEED_MAX + 1), "1 to 128 characters long, not 129"),
        ("caf\u00e9", "printable ASCII"),
        ("tab\there", "printable ASCII"),
        (None, "text"),
        (42, "text"),
    ],
)
def test_client_seed_refused_with_a_clear_message(seed, message):
    with pytest.raises(ValueError, match=message):
        validate_client_seed(seed)


def test_game_seed_refuses_bad_client_seeds_and_bad_server_seeds():
    with pytest.raises(ValueError, match="printable ASCII"):
        game_seed(SEED, ["ok", "\n"])
    with pytest.raises(ValueError, match="32 bytes"):
        game_seed(SEED[:16], [None])
    with pytest.raises(ValueError, match="one entry"):
        game_seed(SEED, "abc")


# ------------------------------------------------------------------------------------ commitment


def test_commitment_is_64_lowercase_hex_and_deterministic():
    c = commitment(SEED, "g1", RULES)
    assert c == commitment(SEED, "g1", dict(RULES)) and len(c) == 64 and c == c.lower()


@settings(max_examples=50, deadline=None)
@given(other=seeds32)
def test_commitment_changes_with_the_server_seed(other):
    if other != SEED:
        assert commitment(other, "g1", RULES) != commitment(SEED, "g1", RULES)


@settings(max_examples=50, deadline=None)
@given(game_id=st.text(min_size=1, max_size=30))
def test_commitment_changes_with_the_game_id(game_id):
    if game_id != "g1":
        assert commitment(SEED, game_id, RULES) != commitment(SEED, "g1", RULES)


@pytest.mark.parametrize(
    "change",
    [
        {"id": "120s-house"},
        {"players": 3},
        {"settings": {"nil": False}},
        {"settings": {"nil": True, "x": 1}},
        {"version": 2},
    ],
)
def test_commitment_binds_rules_and_settings(change):
    assert commitment(SEED, "g1", {**RULES, **change}) != commitment(SEED, "g1", RULES)


def test_commitment_refuses_rules_that_are_not_the_rules_object():
    with pytest.raises(ValueError, match="exactly the keys"):
        commitment(SEED, "g1", {"id": "spades"})
    with pytest.raises(ValueError, match="game id"):
        commitment(SEED, "", RULES)


# ------------------------------------------------------------------------------------ game seed


@settings(max_examples=50, deadline=None)
@given(seeds=client_seeds, data=st.data())
def test_any_change_of_a_client_seed_changes_the_game_seed_and_the_deck(seeds, data):
    i = data.draw(st.integers(0, len(seeds) - 1))
    other = data.draw(st.none() | client_seed)
    changed = seeds[:i] + [other] + seeds[i + 1 :]
    if changed != seeds:
        assert game_seed(SEED, changed) != game_seed(SEED, seeds)
        assert shuffle(game_seed(SEED, changed), "deal/0", PACK_52) != shuffle(
            game_seed(SEED, seeds), "deal/0", PACK_52
        )


def test_game_seed_binds_seat_order_and_seat_count():
    assert game_seed(SEED, ["a", None]) != game_seed(SEED, [None, "a"])
    assert game_seed(SEED, ["a", None]) != game_seed(SEED, ["a", None, None])
    assert game_seed(SEED, ["a,b"]) != game_seed(SEED, ["a", "b"])  # the encoding is unambiguous


@settings(max_examples=50, deadline=None)
@given(server=seeds32)
def test_any_change_of_the_server_seed_changes_the_deck(server):
    if server != SEED:
        assert shuffle(game_seed(server, ["a"]), "deal/0", PACK_52) != shuffle(
            game_seed(SEED, ["a"]), "deal/0", PACK_52
        )


# ------------------------------------------------------------------------------------ derivation


@settings(max_examples=50, deadline=None)
@given(seed=seeds32, label=labels, n=st.integers(0, 200))
def test_derive_bytes_is_a_prefix_of_the_stream(seed, label, n):
    long = derive_bytes(seed, label, 200)
    assert derive_bytes(seed, label, n) == long[:n]
    rng = DerivedRng(seed, label)
    assert rng.read(n) + rng.read(200 - n) == long


@pytest.mark.parametrize("label", ["", "deal 0", "d\u00e9al", "a\x00b", 7])
def test_bad_labels_are_refused(label):
    with pytest.raises(ValueError, match="label"):
        DerivedRng(GS, label)


def test_labels_are_separated():
    assert derive_bytes(GS, "deal/1", 64) != derive_bytes(GS, "deal/10", 64)
    assert derive_bytes(GS, "bot/1", 64) != derive_bytes(GS, "deal/1", 64)


@settings(max_examples=100, deadline=None)
@given(seed=seeds32, n=st.integers(1, 2**70))
def test_randbelow_is_in_range(seed, n):
    rng = DerivedRng(seed, "bot/1")
    assert all(0 <= rng.randbelow(n) < n for _ in range(5))


def test_randbelow_of_one_reads_nothing():
    rng = DerivedRng(GS, "bot/1")
    assert rng.randbelow(1) == 0
    assert rng.read(8) == derive_bytes(GS, "bot/1", 8)


def test_randbelow_rejects_values_above_the_limit():
    # randbelow(200) accepts a byte only below 200; the first value must be the first such byte
    stream = derive_bytes(GS, "bot/9", 64)
    first = next(b for b in stream if b < 200)
    assert DerivedRng(GS, "bot/9").randbelow(200) == first
    # with two-byte values (n = 40000, limit 40000) the same rule applies to big-endian pairs
    pairs = [int.from_bytes(stream[i : i + 2], "big") for i in range(0, 64, 2)]
    assert DerivedRng(GS, "bot/9").randbelow(40000) == next(p for p in pairs if p < 40000)


@pytest.mark.parametrize("n", [0, -1, 2.0, True, "3"])
def test_randbelow_refuses_non_positive_or_non_integers(n):
    with pytest.raises(ValueError, match="positive integer"):
        DerivedRng(GS, "bot/1").randbelow(n)


def test_choice_uses_randbelow():
    assert DerivedRng(GS, "bot/2").choice("abc") == "abc"[DerivedRng(GS, "bot/2").randbelow(3)]
    with pytest.raises(ValueError):
        DerivedRng(GS, "bot/2").choice([])


# ---------------------------------------------------------------------------------------- shuffles


@settings(max_examples=60, deadline=None)
@given(seed=seeds32, label=labels, m=st.integers(0, 300))
def test_shuffle_is_a_permutation_and_the_fast_path_is_fisher_yates(seed, label, m):
    cards = list(range(m))
    deck = shuffle(seed, label, cards)
    assert sorted(deck) == cards
    assert deck == generic_shuffle(seed, label, cards)
    assert cards == list(range(m))  # the input is not touched


@settings(max_examples=200, deadline=None)
@given(seed=seeds32, label=labels, m=st.integers(0, 300))
def test_the_keyed_shuffle_of_the_deals_is_the_shuffle(seed, label, m):
    cards = list(range(m))
    chance = SeedChance(seed)
    assert chance._shuffle(label, cards) == shuffle(seed, label, cards)
    assert cards == list(range(m))
    if m <= 256:
        assert shuffle_keyed(chance._mac, label, cards) == generic_shuffle(seed, label, cards)
    else:
        with pytest.raises(ValueError):
            shuffle_keyed(chance._mac, label, cards)


def test_a_seed_chance_copied_or_pickled_deals_alike():
    import copy
    import pickle

    chance = SeedChance(GS)
    for other in (copy.copy(chance), copy.deepcopy(chance), pickle.loads(pickle.dumps(chance))):
        assert other.deck(5, PACK_52) == chance.deck(5, PACK_52) == shuffle(GS, "deal/5", PACK_52)
        assert other.reshuffle(2, 1, PACK_32) == shuffle(GS, "reshuffle/2/1", PACK_32)


def test_the_keyed_shuffle_reads_further_blocks_for_rejections():
    # A 256-card pack needs 255 bytes (8 blocks) without a rejection and fetches more for each byte rejected:
    # over many labels some shuffles need a ninth block, and all agree with the general shuffle.
    chance = SeedChance(GS)
    for k in range(300):
        for cards in (list(range(256)), list(range(33)), list(PACK_52)):
            assert chance._shuffle(f"x/{k}", cards) == shuffle(GS, f"x/{k}", cards)


@settings(max_examples=50, deadline=None)
@given(seed=seeds32, label=labels)
def test_same_inputs_same_deck(seed, label):
    assert shuffle(seed, label, PACK_32) == shuffle(bytes(seed), label, list(PACK_32))


@settings(max_examples=50, deadline=None)
@given(seed=seeds32, a=labels, b=labels)
def test_a_different_label_gives_a_different_deck(seed, a, b):
    if a != b:
        assert shuffle(seed, a, PACK_52) != shuffle(seed, b, PACK_52)


# -------------------------------------------------------------------------------------- SeedChance


def test_seed_chance_uses_the_documented_labels():
    chance = SeedChance(GS)
    assert chance.deck(3, PACK_32) == shuffle(GS, "deal/3", PACK_32)
    assert chance.first_dealer(4) == DerivedRng(GS, "first-dealer").randbelow(4)
    assert chance.bot_rng(12).read(16) == derive_bytes(GS, "bot/12", 16)
    assert seed_chance(SEED, ["a", None, "b", None]).deck(0, PACK_52) == chance.deck(0, PACK_52)


def test_reshuffle_does_not_depend_on_the_order_the_cards_were_collected_in():
    chance = SeedChance(GS)
    cards = cards_from_str("KS 2C 10H AH 5D")
    result = chance.reshuffle(1, 0, cards)
    assert result == chance.reshuffle(1, 0, list(reversed(cards)))
    assert sorted(result) == sorted(cards)
    assert result == shuffle(GS, "reshuffle/1/0", cards_from_str("2C 5D 10H AH KS"))


def test_every_deal_of_a_game_is_a_different_shuffle():
    chance = SeedChance(GS)
    decks = {tuple(chance.deck(h, PACK_52)) for h in range(50)}
    assert len(decks) == 50


@pytest.mark.parametrize(
    "call",
    [
        lambda c: c.deck(-1, PACK_52),
        lambda c: c.deck("1", PACK_52),
        lambda c: c.reshuffle(0, -2, []),
        lambda c: c.bot_rng(1.0),
        lambda c: c.first_dealer(0),
    ],
)
def test_seed_chance_refuses_bad_numbers(call):
    with pytest.raises(ValueError):
        call(SeedChance(GS))


def test_first_dealer_is_a_seat():
    assert all(0 <= SeedChance(game_seed(SEED, [str(i)])).first_dealer(4) < 4 for i in range(20))
    assert {SeedChance(game_seed(SEED, [str(i)])).first_dealer(4) for i in range(40)} == {0, 1, 2, 3}
