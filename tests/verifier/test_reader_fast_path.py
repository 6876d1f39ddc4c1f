"""The reader's fast path for move records (reader.plain_move_records) answers as its full checks do: it passes a
list of records exactly when check_move_record refuses none of them, for well-formed records and for every kind of
damage a hostile transcript could carry (a member missing, added or of another kind, a bool for an integer, hex
digits in upper case or of another length, an unknown mover, a record that is not an object)."""
import copy

from hypothesis import given, settings, strategies as st

from fairdeal.verifier.reader import TranscriptError, check_move_record, plain_move_records

GOOD = {"type": "move", "seq": 3, "prev": "ab" * 32, "seat": 1, "by": "bot", "move": {"kind": "play", "card": "5H"},
        "salt": "0f" * 32, "at": "2026-12-01T10:00:00.000Z"}

ODD_VALUES = [None, True, False, 0, -1, 2**60, "", "move", "MOVE", "AB" * 32, "ab" * 31, "ab" * 32 + "0",
              "zz" * 32, ["ab" * 32], {"kind": "play"}, [], "player", "timeout", "nobody"]


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
