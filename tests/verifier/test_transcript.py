"""fairdeal.verifier.transcript and fairdeal.verifier.canonical: building, reading and checking transcripts; tampering is caught."""
from __future__ import annotations

import copy
import enum
import json

import pytest
from hypothesis import given, settings, strategies as st

from fairdeal.verifier import keys
from fairdeal.verifier.canonical import canonical_json
from fairdeal.verifier.fairness import commitment
from fairdeal.verifier.transcript import (TranscriptError, add_start, append_move, chain_head, check_chain,
                                 check_commitment, check_header, check_signatures, check_transcript, finish,
                                 make_commit, make_end, make_move_record, make_seat, make_start, new_transcript,
                                 parse_transcript, public_view, receipt, record_hash, sign_record,
                                 sign_transcript, transcript_body)

KEY = keys.private_key_from_hex("22" * 32)
PUB = keys.public_key_text(KEY)
SEED = bytes(range(100, 132))
RULES = {"id": "spades", "players": 4, "settings": {"nil": True}, "version": 1}
T0 = "2026-11-29T17:00:00Z"
SALT = "5a" * 32


def commit_record(game_id: str = "g1") -> dict:
    return make_commit(game_id, RULES, commitment(SEED, game_id, RULES), PUB, T0)


def seats() -> list[dict]:
    return [make_seat(0, "ann", False, "ann's seed"), make_seat(1, "Bot", True),
            make_seat(2, "ben", False), make_seat(3, "cat", False, 'c"\\')]


def running(moves: int = 3) -> dict:
    t = new_transcript(KEY, commit_record())
    add_start(KEY, t, make_start(t["commit"], seats(), {"play": 25, "decide": None}, T0))
    for i in range(moves):
        append_move(t, i % 4, ("player", "bot", "timeout")[i % 3], {"kind": "bid", "value": i}, at=T0, salt=SALT)
    return t


def ended(moves: int = 3) -> dict:
    return finish(KEY, running(moves), "finished", SEED, {"scores": [1, 2], "winners": [1, 3]}, T0)


# --------------------------------------------------------------------------------------- canonical JSON

def test_canonical_json_sorts_keys_and_has_no_whitespace():
    assert canonical_json({"b": 1, "a": [True, None, "x y"]}) == b'{"a":[true,null,"x y"],"b":1}'
    assert canonical_json(("a", 1)) == b'["a",1]'
    assert canonical_json({"\u00e9": "\u20ac\n"}) == '{"\u00e9":"\u20ac\\n"}'.encode("utf-8")


class Color(enum.IntEnum):
    RED = 1


@pytest.mark.parametrize("value, where", [
    (1.0, "float"), (float("nan"), "float"), ({"a": [0.5]}, r"\$\.a\[0\]"), (2**53, "outside"),
    ({1: "x"}, "keys must be strings"), ("\ud800", "surrogate"), ({"s": {1, 2}}, "set"),
    (Color.RED, "not a plain integer"), (b"x", "bytes"),
])
def test_canonical_json_refuses_what_has_no_single_form(value, where):
    with pytest.raises(ValueError, match=where):
        canonical_json(value)


# ------------------------------------------------------------------------------------------ building

def test_a_complete_transcript_passes_every_check_and_survives_json():
    t = ended()
    assert check_transcript(t) == [] and check_transcript(t, PUB) == []
    text = json.dumps(t)
    assert check_transcript(parse_transcript(text), PUB) == []
    assert check_transcript(parse_transcript(text.encode()), PUB) == []


def test_member_order_and_whitespace_do_not_matter_to_a_reader():
    t = ended()
    def reverse(v):
        if isinstance(v, dict):
            return {k: reverse(v[k]) for k in reversed(list(v))}
        if isinstance(v, list):
            return [reverse(x) for x in v]
        return v
    pretty = json.dumps(reverse(t), indent=4, ensure_ascii=True)
    assert check_transcript(parse_transcript(pretty), PUB) == []


def test_receipts_are_the_hash_of_the_move_record_and_the_next_prev():
    t = running(0)
    record, r1 = append_move(t, 2, "player", {"kind": "play", "card": "10H"}, salt=SALT)
    assert r1 == record_hash(record) == receipt(record)
    assert record["seq"] == 1 and record["prev"] == record_hash(t["start"])
    second, _ = append_move(t, 3, "player", {"kind": "pass"}, salt=SALT)
    assert second["prev"] == r1 and chain_head(t) == (3, record_hash(second))


def test_the_end_reveals_the_seed_and_the_final_signature_covers_everything():
    t = ended(2)
    assert t["end"]["server_seed"] == SEED.hex() and t["end"]["seq"] == 3
    assert keys.verify(PUB, transcript_body(t), t["signature"])
    assert t["signature"] == sign_transcript(KEY, t)
    assert t["commit_signature"] == sign_record(KEY, t["commit"])


def test_a_game_cancelled_before_it_started_is_a_valid_transcript():
    t = finish(KEY, new_transcript(KEY, commit_record()), "cancelled", SEED, None, T0)
    assert t["end"]["seq"] == 1 and t["end"]["prev"] == record_hash(t["commit"])
    assert check_transcript(parse_transcript(json.dumps(t)), PUB) == []


def test_a_running_game_checks_clean_except_for_the_unrevealed_seed():
    t = parse_transcript(json.dumps(running()))
    assert check_header(t) == check_chain(t) == check_signatures(t, PUB) == []
    assert check_commitment(t) == [
        "The game has not ended: the server seed is not revealed yet, so the commitment cannot be checked."]


@pytest.mark.parametrize("build, message", [
    (lambda: make_move_record("ab", 1, 0, "player", {}, salt=SALT), "prev"),
    (lambda: make_move_record("a" * 64, 0, 0, "player", {}, salt=SALT), "sequence"),
    (lambda: make_move_record("a" * 64, 1, -1, "player", {}, salt=SALT), "seat"),
    (lambda: make_move_record("a" * 64, 1, 0, "robot", {}, salt=SALT), "'by'"),
    (lambda: make_move_record("a" * 64, 1, 0, "player", {"value": 1.5}, salt=SALT), "float"),
    (lambda: make_seat(1, "Bot", True, "seed"), "bot has no client seed"),
    (lambda: make_seat(0, "x", False, "\u00e9"), "printable ASCII"),
    (lambda: make_start(commit_record(), seats()[:3], {}, T0), "4 players; 3 seats"),
    (lambda: make_start(commit_record(), list(reversed(seats())), {}, T0), "in order"),
    (lambda: make_start(commit_record(), seats(), {"play": 2.5}, T0), "integers or nulls"),
    (lambda: make_commit("g", RULES, "xyz", PUB, T0), "commitment"),
    (lambda: make_commit("g", RULES, "a" * 64, "ed25519:nope", T0), "public key"),
    (lambda: make_end("a" * 64, 1, "won", SEED, None, T0), "reason"),
    (lambda: make_end("a" * 64, 1, "finished", SEED[:5], None, T0), "32 bytes"),
    (lambda: append_move(new_transcript(KEY, commit_record()), 0, "player", {}, salt=SALT), "before the game starts"),
    (lambda: append_move(ended(), 0, "player", {}, salt=SALT), "ended"),
    (lambda: finish(KEY, ended(), "finished", SEED, None, T0), "already ended"),
])
def test_building_refuses_bad_input_with_a_clear_message(build, message):
    with pytest.raises(ValueError, match=message):
        build()


def test_a_refused_move_changes_nothing():
    t = running()
    before = copy.deepcopy(t)
    with pytest.raises(ValueError):
        append_move(t, 0, "player", {"kind": "bid", "value": 0.5}, salt=SALT)
    assert t == before


# ------------------------------------------------------------------------------------------- public view

def test_public_view_of_a_running_game_has_no_seed_and_nothing_extra():
    t = running()
    t["server_seed_cache"] = SEED.hex()  # something a careless store might keep beside it
    view = public_view(t)
    assert SEED.hex() not in json.dumps(view)
    assert set(view) == {"protocol", "commit", "commit_signature", "start", "start_signature", "records"}
    view["records"].clear()
    assert len(t["records"]) == 3  # a copy


def test_public_view_of_an_ended_game_is_the_whole_transcript():
    t = ended()
    assert public_view(t) == t


# ------------------------------------------------------------------------------------------- tampering

def tampered_is_caught(data: bytes) -> bool:
    try:
        t = parse_transcript(data)
    except TranscriptError:
        return True
    return check_transcript(t, PUB) != []


def test_changing_any_byte_of_a_transcript_is_detected():
    data = canonical_json(ended(2))
    assert not tampered_is_caught(data)
    for i in range(len(data)):
        changed = data[:i] + bytes([data[i] ^ 0x01]) + data[i + 1:]
        assert tampered_is_caught(changed), f"byte {i} ({data[max(0, i - 20):i + 20]!r}) changed undetected"


@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_changing_any_byte_to_any_value_is_detected(data):
    raw = canonical_json(ended(1))
    i = data.draw(st.integers(0, len(raw) - 1))
    b = data.draw(st.integers(0, 255).filter(lambda v: v != raw[i]))
    assert tampered_is_caught(raw[:i] + bytes([b]) + raw[i + 1:])


@pytest.mark.parametrize("record", ["commit", "start", "records.0", "records.1", "end"])
def test_changing_a_record_without_resigning_is_reported(record):
    t = ended(2)
    target = t[record.split(".")[0]]
    if "." in record:
        target = target[int(record.split(".")[1])]
    target[next(iter(target))] = "forged"  # the record's first member ("type")
    problems = check_transcript(t, PUB)
    assert problems and any("signature" in p or "chain" in p or "differs" in p for p in problems)


@pytest.mark.parametrize("field, problem", [
    ("commit_signature", "The commit record's signature is not valid."),
    ("start_signature", "The start record's signature is not valid."),
    ("signature", "The transcript's final signature is not valid."),
])
def test_a_changed_signature_is_reported(field, problem):
    final = "The transcript's final signature is not valid."  # it covers the other two signatures as well
    for forged in (keys.sign(KEY, b"something else"), "not base64!", ""):
        t = ended()
        t[field] = forged
        assert check_signatures(t, PUB) == sorted({problem, final}, key=[problem, final].index)


def test_dropped_inserted_and_swapped_records_break_the_chain():
    for mutate in (lambda r: r.pop(1), lambda r: r.insert(1, copy.deepcopy(r[0])),
                   lambda r: r.__setitem__(slice(0, 2), [r[1], r[0]])):
        t = ended(3)
        mutate(t["records"])
        assert check_chain(t)


def test_a_resigned_forgery_by_another_key_fails_against_the_pinned_key():
    other = keys.generate_private_key()
    forged = ended()
    forged["commit"]["key"] = forged["start"]["key"] = keys.public_key_text(other)
    forged["commit_signature"] = sign_record(other, forged["commit"])
    forged["start_signature"] = sign_record(other, forged["start"])
    forged["signature"] = sign_transcript(other, forged)
    assert check_signatures(forged) == []  # consistent with itself...
    assert "not by the pinned key" in check_signatures(forged, PUB)[0]  # ...but not by the server's key


def test_a_wrong_revealed_seed_fails_the_commitment_even_when_signed():
    t = running()
    t = finish(KEY, t, "abandoned", bytes(32), None, T0)
    assert check_signatures(t, PUB) == [] and check_chain(t) == []
    assert check_commitment(t) == ["The revealed server seed does not match the commitment published before the game."]


def test_header_problems_are_reported():
    t = ended()
    t["start"]["game_id"] = "other"
    t["start"]["seats"][1]["client_seed"] = "bot seed"
    problems = check_header(t)
    assert "The start record's game_id differs from the commit record's." in problems
    assert "Seat 1 is a bot but has a client seed." in problems


def test_an_ended_transcript_without_its_final_signature_is_reported():
    t = ended()
    del t["signature"]
    assert check_signatures(t, PUB) == ["The game has ended but the transcript has no final signature."]


# ------------------------------------------------------------------------------------------- parsing

@settings(max_examples=60, deadline=None)
@given(st.data())
def test_a_truncated_transcript_is_refused_as_truncated(data):
    text = json.dumps(ended())
    cut = data.draw(st.integers(1, len(text) - 1))
    with pytest.raises(TranscriptError, match="ends early|not valid JSON"):
        parse_transcript(text[:cut])


def _with(path: str, value) -> str:
    t = ended()
    *parents, last = path.split(".")
    target = t
    for p in parents:
        target = target[int(p)] if isinstance(target, list) else target[p]
    if value is KeyError:
        del target[last]
    else:
        target[last] = value
    return json.dumps(t)


@pytest.mark.parametrize("data, message", [
    ("", "empty"),
    (b"\xff\xfe", "not UTF-8"),
    ("[1, 2]", "not a fairdeal transcript"),
    ('{"hello": 1}', "not a fairdeal transcript"),
    ('{"protocol": "fairdeal/2", "commit": {}}', "'fairdeal/2'; this verifier knows 'fairdeal/1' only"),
    ('{"protocol": "fairdeal/1", "protocol": "fairdeal/1"}', "appears twice"),
    ('{"protocol": "fairdeal/1", "x": 1.5}', "integers only"),
    ('{"protocol": "fairdeal/1", "x": NaN}', "integers only"),
    ("{not json}", "not valid JSON"),
    (_with("commit.extra", 1), "commit has an unknown field 'extra'"),
    (_with("start.seats.0.client_seed", 5), r"start.seats\[0\].client_seed should be text or null"),
    (_with("records.0.by", "ghost"), "by should be one of"),
    (_with("records.0.type", "end"), "type should be 'move'"),
    (_with("records.0.prev", "AB" * 32), "prev should be 64 hex digits"),
    (_with("end.reason", "bored"), "reason should be one of"),
    (_with("end.server_seed", KeyError), "end has no 'server_seed'"),
    (_with("start_signature", KeyError), "start record without its signature"),
    (_with("start.clocks.play", "fast"), "clocks.play should be an integer or null"),
    (_with("commit.rules.players", "4"), "commit.rules.players should be integer"),
    (_with("records", {}), "records should be list"),
    (_with("surprise", 1), "unknown field 'surprise'"),
    (_with("records.0.move.value", 2**60), "no canonical JSON form"),
    (_with("records.0.seq", 2**53), "no canonical JSON form"),
    ('{"protocol": "fairdeal/1", "x": ' + "9" * 5000 + "}", "could not be read"),
    ("[" * 100000 + "]" * 100000, "nested too deeply"),
])
def test_unreadable_input_is_refused_with_a_clear_message(data, message):
    with pytest.raises(TranscriptError, match=message):
        parse_transcript(data)


def test_moves_without_a_start_and_a_signature_without_an_end_are_refused():
    t = ended()
    del t["start"], t["start_signature"]
    with pytest.raises(TranscriptError, match="moves but no start"):
        parse_transcript(t)
    t = running()
    t["signature"] = "x"
    with pytest.raises(TranscriptError, match="final signature but no end"):
        parse_transcript(t)


def test_parsing_a_dict_copies_it_and_refuses_floats():
    t = ended()
    parsed = parse_transcript(t)
    parsed["records"].clear()
    assert len(t["records"]) == 3
    t["records"][0]["move"]["value"] = 0.5
    with pytest.raises(TranscriptError, match="no canonical JSON form"):
        parse_transcript(t)
    with pytest.raises(TranscriptError, match="JSON text or an object"):
        parse_transcript(42)


def test_a_move_record_needs_its_salt():
    with pytest.raises(ValueError, match="salt"):
        make_move_record("a" * 64, 1, 0, "player", {"kind": "pass"}, salt="short")
    t = ended()
    del t["records"][0]["salt"]
    with pytest.raises(TranscriptError, match="salt"):
        parse_transcript(t)


def test_the_salt_hides_a_throw_from_its_hash():
    # The same throw at the same place hashes differently under different salts, so a seat that sees the hash
    # cannot recover the cards by trying every possible throw without the (secret until the end) game seed.
    from fairdeal.verifier.fairness import record_salt
    throw = {"kind": "throw", "cards": ["2C", "5H"]}
    a = make_move_record("a" * 64, 7, 1, "player", throw, salt=record_salt(b"\x01" * 32, 7))
    b = make_move_record("a" * 64, 7, 1, "player", throw, salt=record_salt(b"\x02" * 32, 7))
    assert record_hash(a) != record_hash(b)
    assert record_salt(b"\x01" * 32, 7) != record_salt(b"\x01" * 32, 8)
