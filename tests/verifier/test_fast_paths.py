"""The audit's shortcuts give exactly what the general code gives: parsing JSON bytes without the canonical walk,
hashing a parsed transcript without validating it again, one quick test for a plain move record, card texts
precomputed, a complete trick's JSON made once."""
from __future__ import annotations

import copy
import json

import pytest

from fairdeal.verifier import keys
from fairdeal.verifier.canonical import canonical_json, canonical_json_of_parsed
from fairdeal.verifier.cards import PACK_52, RANK_TEXT, Card, card_from_str, cards_to_str
from fairdeal.verifier.games import available
from fairdeal.verifier.games.tricks import Trick, TrickPlay
from fairdeal.verifier.selfplay import selfplay
from fairdeal.verifier.integrity import check_chain
from fairdeal.verifier.reader import TranscriptError, parse_transcript
from fairdeal.verifier.transcript import record_hash, transcript_body

KEY = keys.private_key_from_hex("3c" * 32)


@pytest.fixture(scope="module")
def games() -> list[dict]:
    return [selfplay(rule_set, KEY, bytes([i + 1]) * 32, bots=(1, 3), timeout_every=3)
            for i, rule_set in enumerate(available())]


def _outcome(data):
    try:
        return "ok", parse_transcript(data)
    except TranscriptError as exc:
        return "refused", str(exc)


def _swap_first(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


def _hostile(text: str) -> list[str]:
    """Texts that the canonical walk refuses (or must not refuse), at several places of a real transcript."""
    seq = '"seq":1,'
    return [
        _swap_first(text, seq, '"seq":9007199254740992,'),                 # 2**53: out of range
        _swap_first(text, seq, '"seq":-9007199254740992,'),
        _swap_first(text, seq, '"seq":9007199254740991,'),                 # 2**53 - 1: in range
        _swap_first(text, seq, '"seq":100000000000000000000,'),
        _swap_first(text, '"settings":{', '"settings":{"x":[1,[12345678901234567890]],'),
        _swap_first(text, '"name":"', '"name":"\\ud800'),                # a lone surrogate
        _swap_first(text, '"name":"', '"name":"\\uDFFF'),
        _swap_first(text, '"name":"', '"name":"\\ud83d\\ude00'),         # a pair: one character, fine
        _swap_first(text, '"name":"', '"name":"\\\\ud800'),              # an escaped backslash: plain text
        _swap_first(text, '"name":"', '"name":"\\u00e9 1234567890123456 '),
    ]


def test_parsing_bytes_refuses_and_accepts_exactly_what_the_canonical_walk_does(games):
    for t in games:
        text = json.dumps(t, separators=(",", ":"), ensure_ascii=False)
        for hostile in _hostile(text):
            walked = _outcome(hostile)                    # text input always takes the walk
            fast = _outcome(hostile.encode("utf-8"))      # bytes skip it unless it can find something
            assert fast == walked


def test_an_out_of_range_integer_in_bytes_is_refused_with_the_walks_sentence(games):
    text = json.dumps(games[0], separators=(",", ":"))
    data = _swap_first(text, '"seq":2,', '"seq":9007199254740992,').encode()
    with pytest.raises(TranscriptError, match=r"no canonical JSON form: \$\.records\[1\]\.seq: integer "
                                              r"9007199254740992 is outside"):
        parse_transcript(data)


def test_a_parsed_transcript_hashes_and_signs_to_the_same_bytes(games):
    for t in games:
        parsed = parse_transcript(json.dumps(t).encode())
        assert canonical_json_of_parsed(parsed) == canonical_json(parsed)
        assert transcript_body(parsed, parsed=True) == transcript_body(parsed)
        for record in parsed["records"] + [parsed["seating"], parsed["start"], parsed["end"]]:
            assert canonical_json_of_parsed(record) == canonical_json(record)
        assert check_chain(parsed, parsed=True) == check_chain(parsed) == []


def test_a_broken_chain_is_reported_alike_on_the_quick_path(games):
    parsed = parse_transcript(json.dumps(games[1]).encode())
    parsed["records"][4]["prev"] = record_hash(parsed["records"][1])
    del parsed["records"][7]
    assert check_chain(parsed, parsed=True) == check_chain(parsed)
    assert len(check_chain(parsed)) >= 2


def test_move_records_that_fail_the_quick_test_get_the_full_sentences(games):
    t = copy.deepcopy(games[0])
    rec = t["records"][3]
    cases = [("seq", True, r"records\[3\]\.seq should be integer"), ("by", "ghost", "by should be one of"),
             ("move", [], r"records\[3\]\.move should be object"), ("salt", "ab", "salt should be 64 hex"),
             ("at", 5, r"records\[3\]\.at should be text"), ("extra", 1, "unknown field 'extra'"),
             ("type", "end", "type should be 'move'")]
    for key, value, message in cases:
        bad = copy.deepcopy(t)
        bad["records"][3][key] = value
        with pytest.raises(TranscriptError, match=message):
            parse_transcript(json.dumps(bad).encode())
    for key in rec:
        bad = copy.deepcopy(t)
        del bad["records"][3][key]
        with pytest.raises(TranscriptError, match=rf"records\[3\] has no '{key}'"):
            parse_transcript(json.dumps(bad).encode())


def test_card_texts_are_the_rank_and_suit_written_out():
    for c in PACK_52:
        text = RANK_TEXT.get(c.rank, str(c.rank)) + c.suit
        assert str(c) == text and cards_to_str([c]) == [text]
        assert card_from_str(text) is c and card_from_str(" " + text.lower() + " ") is c
    assert card_from_str("TH") is card_from_str("10H")
    assert str(Card(1, "X")) == "1X" and cards_to_str([Card(15, "S")]) == ["15S"]


def test_a_complete_tricks_json_is_made_once_and_stays_right():
    hands = {0: [card_from_str("2H")], 1: [card_from_str("9H")]}
    play = TrickPlay(hands, [0, 1], 0, lambda c, led: c.rank if c.suit == led.suit else -1, 1)
    play.play(0, card_from_str("2H"))
    play.play(1, card_from_str("9H"))
    done = play.done[0]
    first = done.to_json()
    assert first == {"leader": 0, "plays": [[0, "2H"], [1, "9H"]], "winner": 1, "winning_card": "9H"}
    assert done.to_json() is first                      # not made again
    fresh = Trick(done.leader, list(done.plays), done.winner, done.winning_card)
    assert fresh == done and fresh.to_json() == first   # the cache is no field: == ignores it
    done.plays.append((0, card_from_str("3H")))         # a changed trick is never served from the cache
    assert done.to_json()["plays"][-1] == [0, "3H"]


def test_the_one_form_check_of_a_played_card_agrees_with_the_general_one():
    from hypothesis import given, settings, strategies as st
    from fairdeal.verifier.games.base import GameError, Move
    from fairdeal.verifier.replay import is_canonical
    texts = [str(c) for c in PACK_52] + ["TH", "th", "10h", "ah", " AS", "10S "]
    extra = st.dictionaries(st.sampled_from(["value", "cards", "seat", "x"]), st.integers(0, 3), max_size=2)

    @settings(max_examples=300, deadline=None)
    @given(st.sampled_from(texts), extra)
    def check(card, more):
        data = {"kind": "play", "card": card, **more}
        try:
            move = Move.from_json(data)
        except GameError:
            return
        if more:   # a member a play does not have: never its one form (transcript.md, "Moves")
            assert not is_canonical(move, data)
        else:
            assert is_canonical(move, data) == (move.to_json() == data) == (card in [str(c) for c in PACK_52])
    check()
