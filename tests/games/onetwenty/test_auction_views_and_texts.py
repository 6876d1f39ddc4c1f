"""120s (Auction): what each seat sees, the Kitty Teaser setting, the rules line and the reminder, the words."""

import pytest

from fairdeal.core.cards import PACK_52
from fairdeal.core.games import make_rules
from fairdeal.core.games.base import BadSettings, FixedChance

from .helpers import bid, bid_and_throw, new_game, pass_round, trump

VIEW_KEYS = {
    "rule_set",
    "settings",
    "seat",
    "players",
    "sides",
    "trump_word",
    "to_move",
    "phase",
    "dealer",
    "hand_number",
    "hand",
    "hand_sizes",
    "scores",
    "start_scores",
    "made_bid",
    "target",
    "bidding",
    "bidder",
    "bid",
    "trump",
    "teaser",
    "kitty_count",
    "kitty",
    "pack_count",
    "throws",
    "trick",
    "tricks",
    "last_hand",
    "options",
    "result",
}


def test_view_keys_and_own_hand_only():
    g = new_game(hands={0: "5H JH AH KH QH", 1: "2C 3C 4C 6C 7C"})
    v = g.view(1)
    assert set(v) == VIEW_KEYS
    assert v["rule_set"] == "120s-auction" and v["seat"] == 1 and v["players"] == 4
    assert sorted(v["hand"]) == sorted("2C 3C 4C 6C 7C".split())
    assert v["options"] == {"bids": [15, 20, 25, 30], "pass": True, "mine": False, "redeal": False}
    assert not {"5H", "JH", "AH", "KH", "QH"} & set(str(v).replace("'", " ").split())
    assert g.view(2)["options"] is None  # not seat 2's turn
    spectator = g.view(None)
    assert spectator["hand"] is None and spectator["seat"] is None and spectator["options"] is None


def test_view_is_json_ready():
    import json

    g = new_game()
    bid_and_throw(g, 1, 15, "S")
    for seat in (None, 0, 1, 2, 3):
        assert json.loads(json.dumps(g.view(seat))) == g.view(seat)


def test_view_shows_bids_drumpf_and_counts_of_cards_thrown_and_drawn_but_never_which():
    g = new_game(hands={1: "5H 2C 3C 4C 6C"}, kitty="JH AH KH QH", pack="KD AD 8S 9S 10S")
    g.apply(1, bid(15))
    pass_round(g, 2, 3, 0)
    g.apply(1, trump("H"))
    from .helpers import throw

    g.apply(1, throw("2C 3C 4C 6C KH QH"))
    v = g.view(3)
    assert v["bidding"]["log"] == [[1, "bid", 15], [2, "pass", None], [3, "pass", None], [0, "pass", None]]
    assert v["trump"] == "H" and v["bidder"] == 1 and v["bid"] == 15
    assert v["throws"] == [{"seat": 1, "threw": 6, "drew": 2}]
    text = str(v)
    assert "2C" not in text and "KD" not in text and "KH" not in text


def test_kitty_teaser_off_by_default_all_four_kitty_cards_face_down():
    g = new_game(kitty="2S 3S 4S 6S")
    assert all(g.view(s)["teaser"] is None for s in (None, 0, 1, 2, 3))


def test_kitty_teaser_on_the_top_card_the_last_handt_to_the_kitty_is_face_up_for_everyone():
    rules = make_rules("120s-auction", {"kitty_teaser": True})
    g = rules.new_game(FixedChance([list(PACK_52)], first_dealer=0))
    top = str(PACK_52[19])  # the fourth kitty card: the 20th card of the deal
    for seat in (None, 0, 1, 2, 3):
        v = g.view(seat)
        assert v["teaser"] == top
        for i in (4, 9, 14):  # the other three stay secret
            if seat is None or PACK_52[i] not in g.hands[seat]:
                assert str(PACK_52[i]) not in str(v).replace("'", " ").split()


def test_settings_are_validated_and_a_bad_one_is_refused_with_a_clear_error():
    with pytest.raises(BadSettings) as err:
        make_rules("120s-auction", {"kitty_teaser": "yes"})
    assert "kitty_teaser" in err.value.message
    with pytest.raises(BadSettings) as err:
        make_rules("120s-auction", {"stick_the_dealer": True})
    assert "has no setting" in err.value.message
    with pytest.raises(BadSettings):
        make_rules("120s-auction", {"everybody_passes": "shuffle"})


def test_defaults_are_the_seed_texts_rules():
    r = make_rules("120s-auction")
    assert r.settings == {
        "everybody_passes": "redeal",
        "scores_below_zero": "allowed",
        "kitty_teaser": False,
        "shuffle_thrown_back": False,
    }
    assert r.reminder() == ""


def test_reminder_names_only_what_the_table_plays_differently():
    r = make_rules("120s-auction", {"kitty_teaser": True, "scores_below_zero": "floored"})
    assert r.reminder() == "Scores below zero: nobody goes below zero; Kitty Teaser: on"


def test_the_rules_line_says_drumpf_never_trump_and_carries_every_setting():
    r = make_rules("120s-auction", {"everybody_passes": "dealer-picks"})
    text = r.describe()
    assert "drumpf" in text and "trump" not in text.lower()
    for phrase in (
        "15, 20, 25 or 30",
        "From 90 points up",
        "115",
        "The bidder leads",
        "4 cards",
        "the dealer picks a bid or calls a redeal",
        "Kitty Teaser: off",
    ):
        assert phrase in text


def test_house_and_traditional_rules_lines_say_trump():
    for rid in ("120s-house", "120s-traditional"):
        text = make_rules(rid).describe()
        assert "trump" in text and "drumpf" not in text


def test_every_sentence_of_the_auction_says_drumpf(tmp_path):
    """Sentences from a sample of refused moves in many positions never say 'trump'."""
    import random

    from fairdeal.core.cards import PACK_52 as P
    from fairdeal.core.games.base import Move
    from tests.games.randomness import RandomChance

    rules = make_rules("120s-auction")
    sentences = set()
    for seed in range(6):
        g = rules.new_game(RandomChance(seed))
        rng = random.Random(seed)
        for _ in range(150):
            if g.is_over:
                break
            s = g.to_move
            for other in (
                Move.play(rng.choice(P)),
                Move.bid(rng.choice([10, 15, 20, 30])),
                Move.pass_(),
                Move.trump("X"),
                Move.throw(rng.sample(P, 2)),
                Move("mine"),
                Move("redeal"),
            ):
                for seat in (s, (s + 1) % 4):
                    why = g.why_not(seat, other)
                    if why:
                        sentences.add(why)
            g.apply(s, rng.choice(g.legal_moves(s)))
    assert len(sentences) > 10
    assert not [x for x in sentences if "trump" in x.lower()]
    assert any("drumpf" in x for x in sentences)
