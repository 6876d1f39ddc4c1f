"""The reader's fast path for move records (reader.plain_move_records) answers as its full checks do: it passes a
list of records exactly when check_move_record refuses none of them, for well-formed records and for every kind of
damage a hostile transcript could carry (a member missing, added or of another kind, a bool for an integer, hex
digits in upper case or of another length, an unknown mover, a record that is not an object)."""

import copy
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from fairdeal.core.reader import TranscriptError, check_move_record, plain_move_records

GOOD = {
    "type": "move",
    "seq": 3,
    "prev": "ab" * 32,
    "seat": 1,
    "by": "bot",
    "move": {"kind": "play", "card": "5H"},
    "salt": "0f" * 32,
    "at": "2026-12-01T10:00:00.000Z",
}

ODD_VALUES = [
    None,
    True,
    False,
    0,
    -1,
    2**60,
    "",
    "move",
    "MOVE",
    "AB" * 32,
    "ab" * 31,
    "ab" * 32 + "0",
    "zz" * 32,
    ["ab" * 32],
    {"kind": "play"},
    [],
    "player",
    "timeout",
    "nobody",
]


def full_checks_pass(records) -> bool:
    try:
        for i, rec in enumerate(records):
            check_move_record(rec, f"records[{i}]", "fairdeal/2")
    except TranscriptError:
        return False
    return True


@st.composite
def damaged(draw):
    rec = copy.deepcopy(GOOD)
    for _ in range(draw(st.integers(0, 3))):
        what = draw(st.sampled_from(["drop", "set", "add", "whole"]))
        if what == "drop" and rec:
            rec.pop(draw(st.sampled_from(sorted(rec))))
        elif what == "set" and rec:
            rec[draw(st.sampled_from(sorted(rec)))] = draw(st.sampled_from(ODD_VALUES))
        elif what == "add":
            rec[draw(st.sampled_from(["extra", "at", "Seq"]))] = draw(st.sampled_from(ODD_VALUES))
        elif what == "whole":
            return draw(st.sampled_from([None, [], "move", 7, [GOOD]]))
    return rec


@settings(max_examples=400, deadline=None)
@given(st.lists(damaged(), min_size=0, max_size=4))
def test_the_fast_path_passes_exactly_what_the_full_checks_pass(records):
    assert plain_move_records(records) == full_checks_pass(records)


def test_well_formed_records_with_and_without_their_time_take_the_fast_path():
    untimed = {k: v for k, v in GOOD.items() if k != "at"}
    assert plain_move_records([GOOD, untimed, GOOD])
    assert plain_move_records([])


def test_one_bad_record_among_good_ones_leaves_the_fast_path():
    bad = dict(GOOD, salt="AB" * 32)
    assert not plain_move_records([GOOD, GOOD, bad, GOOD])
    assert not full_checks_pass([GOOD, GOOD, bad, GOOD])


# ------------------------------------------------------------------- a key given twice, found by counting


def _game(names=None) -> dict:
    from fairdeal.core.keys import private_key_from_hex
    from fairdeal.core.selfplay import selfplay

    return selfplay("120s-house", private_key_from_hex("3c" * 32), bytes(range(32)), stop_after=40, names=names)


def _general_report(data: bytes):
    """The report with every object read through the parser's hook (the general path)."""
    from unittest import mock

    from fairdeal.core import checks
    from fairdeal.core.checks import verify_transcript
    from fairdeal.core.reader import read_encoded_with_hook

    with mock.patch.object(checks, "read_encoded", read_encoded_with_hook):  # read_encoded's declared general form
        return verify_transcript(data)


def _same(a, b) -> bool:
    return a.unusable == b.unusable and [c.to_json() for c in a.checks] == [c.to_json() for c in b.checks]


def test_the_count_of_keys_matches_a_transcript_read_with_the_hook():
    from fairdeal.core.reader import keys_written, read_transcript
    from fairdeal.core.transcript import parsed_body_and_hashes

    game = _game()
    for data in (json.dumps(game, separators=(",", ":")).encode(), json.dumps(game, indent=1).encode()):
        t, raw_keys = read_transcript(data)
        assert raw_keys is not None and raw_keys == keys_written(t, parsed_body_and_hashes(t)[0])


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_a_key_given_twice_anywhere_is_refused_as_the_hook_refuses_it(data):
    text = json.dumps(_GAME, separators=(",", ":"))
    opens = [i for i, ch in enumerate(text) if ch == "{"]
    at = data.draw(st.sampled_from(opens)) + 1
    twice = data.draw(st.booleans())
    key = data.draw(st.sampled_from(["kind", "seq", "zz", ":x", "signature"]))
    inserted = f'"{key}":1,"{key}":2,' if twice else f'"{key}x_once":1,'
    damaged = (text[:at] + inserted + text[at:]).encode()
    from fairdeal.core.checks import verify_transcript

    fast, general = verify_transcript(damaged), _general_report(damaged)
    assert _same(fast, general), (fast.unusable, general.unusable)
    if twice:
        assert "appears twice" in (fast.unusable or "")


def test_a_repeated_key_hidden_by_spacing_or_a_colon_in_a_text_is_still_found():
    from fairdeal.core.checks import verify_transcript

    game = _game(names=[":one", "two:", "\\u0000", ":"])
    text = json.dumps(game, separators=(",", ":"))
    assert verify_transcript(text.encode()).exit_code in (0, 1) and _same(
        verify_transcript(text.encode()), _general_report(text.encode())
    )
    spaced = json.dumps(game, separators=(",", " : ")).encode()  # '"a" : 1': counted only when re-read
    assert _same(verify_transcript(spaced), _general_report(spaced)) and verify_transcript(spaced).unusable is None
    for damaged in (
        text.replace('"records":', '"records":[],"records":', 1),
        text.replace('{"kind":', '{"kind":"x","kind":', 1),
        text.replace('"name":":one"', '"name":":one","name":":one"', 1),
        text.replace('"protocol":', '"protocol" :"x", "protocol":', 1),
    ):
        report = verify_transcript(damaged.encode())
        assert "appears twice" in (report.unusable or ""), damaged[:80]
        assert _same(report, _general_report(damaged.encode()))


_GAME = _game()
