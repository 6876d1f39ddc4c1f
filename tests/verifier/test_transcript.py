"""Writing, reading and checking transcripts (fairdeal.core.writer, .reader, .integrity) and canonical JSON;
tampering is caught. Built here by hand, record by record, in both protocols."""

from __future__ import annotations

import copy
import enum
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairdeal.core import keys
from fairdeal.core.canonical import canonical_json
from fairdeal.core.fairness import client_seed_commitment, commitment, game_seed, record_salt
from fairdeal.core.integrity import (
    check_chain,
    check_client_seeds,
    check_commitment,
    check_header,
    check_signatures,
    check_transcript,
)
from fairdeal.core.reader import TranscriptError, parse_transcript
from fairdeal.core.transcript import public_view, receipt, record_hash, transcript_body
from fairdeal.core.writer import (
    add_seating,
    add_start,
    append_move,
    chain_head,
    finish,
    make_commit,
    make_end,
    make_move_record,
    make_seat,
    make_seating,
    make_start,
    new_transcript,
    seating_seat,
    sign_record,
    sign_transcript,
    start_seat,
)

KEY = keys.private_key_from_hex("22" * 32)
PUB = keys.public_key_text(KEY)
SEED = bytes(range(100, 132))
RULES = {"id": "spades", "players": 4, "settings": {"nil": True}, "version": 1}
T0 = "2026-11-29T17:00:00Z"
GAME = "g1"
SEEDS = ["ann's seed", None, None, 'c"\\']
NONCES = ["0a" * 32, None, None, "0c" * 32]


def codes(results) -> list[str]:
    return [r.code for r in results]


def commit_record(protocol: str = "fairdeal/2") -> dict:
    return make_commit(
        GAME, RULES, commitment(SEED, GAME, RULES, protocol), PUB, T0, protocol=protocol, deal_layout="spades-4"
    )


def v2_seats() -> list[dict]:
    out = []
    for i, (name, bot) in enumerate((("ann", False), ("Bot", True), ("ben", False), ("cat", False))):
        seed, nonce = SEEDS[i], NONCES[i]
        out.append(
            {
                "seat": i,
                "name": name,
                "bot": bot,
                "client_seed": seed,
                "nonce": nonce,
                "client_seed_commitment": client_seed_commitment(GAME, seed, nonce) if seed else None,
            }
        )
    return out


def v1_seats() -> list[dict]:
    return [
        make_seat(0, "ann", False, SEEDS[0]),
        make_seat(1, "Bot", True),
        make_seat(2, "ben", False),
        make_seat(3, "cat", False, SEEDS[3]),
    ]


def seated(protocol: str = "fairdeal/2") -> dict:
    t = new_transcript(KEY, commit_record(protocol))
    if protocol != "fairdeal/1":
        add_seating(KEY, t, make_seating(t["commit"], v2_seats(), T0, T0))
    return t


def running(moves: int = 3, protocol: str = "fairdeal/2") -> dict:
    t = seated(protocol)
    seats = v1_seats() if protocol == "fairdeal/1" else v2_seats()
    add_start(KEY, t, make_start(t["commit"], seats, {"play": 25, "decide": 30}, T0, t.get("seating")))
    gs = game_seed(SEED, SEEDS, protocol)
    for i in range(moves):
        append_move(
            t,
            i % 4,
            ("player", "bot", "timeout")[i % 3],
            {"kind": "bid", "value": i},
            at=T0,
            salt=record_salt(gs, i + 1),
        )
    return t


def ended(moves: int = 3, protocol: str = "fairdeal/2") -> dict:
    deals = None if protocol == "fairdeal/1" else [(0, 2)]
    return finish(
        KEY, running(moves, protocol), "finished", SEED, {"scores": [1, 2], "winners": [1, 3]}, T0, deals=deals
    )


PROTOCOLS = ("fairdeal/2", "fairdeal/1")


# --------------------------------------------------------------------------------------- canonical JSON


def test_canonical_json_sorts_keys_and_has_no_whitespace():
    assert canonical_json({"b": 1, "a": [True, None, "x y"]}) == b'{"a":[true,null,"x y"],"b":1}'
    assert canonical_json(("a", 1)) == b'["a",1]'
    assert canonical_json({"\u00e9": "\u20ac\n"}) == '{"\u00e9":"\u20ac\\n"}'.encode("utf-8")


class Color(enum.IntEnum):
    RED = 1


@pytest.mark.parametrize(
    "value, where",
    [
        (1.0, "float"),
        (float("nan"), "float"),
        ({"a": [0.5]}, r"\$\.a\[0\]"),
        (2**53, "outside"),
        ({1: "x"}, "keys must be strings"),
        ("\ud800", "surrogate"),
        ({"s": {1, 2}}, "set"),
        (Color.RED, "not a plain integer"),
        (b"x", "bytes"),
    ],
)
def test_canonical_json_refuses_what_has_no_single_form(value, where):
    with pytest.raises(ValueError, match=where):
        canonical_json(value)


# ------------------------------------------------------------------------------------------ building


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_complete_transcript_passes_every_check_and_survives_json(protocol):
    t = ended(protocol=protocol)
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
    record, r1 = append_move(t, 2, "player", {"kind": "play", "card": "10H"}, salt="5a" * 32)
    assert r1 == record_hash(record) == receipt(record)
    assert record["seq"] == 1 and record["prev"] == record_hash(t["start"])
    second, _ = append_move(t, 3, "player", {"kind": "pass"}, salt="5a" * 32)
    assert second["prev"] == r1 and chain_head(t) == (3, record_hash(second))


def test_the_end_reveals_the_seed_and_the_final_signature_covers_everything_but_the_log():
    t = ended(2)
    assert (
        t["end"]["server_seed"] == SEED.hex()
        and t["end"]["seq"] == 3
        and t["end"]["deals"] == [{"hand": 0, "dealer": 2}]
    )
    assert keys.verify(PUB, transcript_body(t), t["signature"])
    assert t["signature"] == sign_transcript(KEY, t)
    assert t["commit_signature"] == sign_record(KEY, t["commit"])
    assert t["seating_signature"] == sign_record(KEY, t["seating"])
    with_log = {**t, "log": {"entry": [1, 2]}}
    assert transcript_body(with_log) == transcript_body(t)
    assert check_transcript(parse_transcript(with_log), PUB) == []


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_game_cancelled_before_it_started_is_a_valid_transcript(protocol):
    t = finish(KEY, new_transcript(KEY, commit_record(protocol)), "cancelled", SEED, None, T0)
    assert t["end"]["seq"] == 1 and t["end"]["prev"] == record_hash(t["commit"])
    assert check_transcript(parse_transcript(json.dumps(t)), PUB) == []


def test_a_table_cancelled_between_seating_and_start_names_the_seats_that_did_not_reveal():
    t = seated()
    finish(KEY, t, "not-revealed", SEED, None, T0, reveals=[{"seat": 3, "client_seed": SEEDS[3], "nonce": NONCES[3]}])
    assert t["end"]["prev"] == record_hash(t["seating"]) and t["end"]["unrevealed"] == [0]
    assert t["end"]["reveals"] == [{"seat": 3, "client_seed": SEEDS[3], "nonce": NONCES[3]}]
    assert check_transcript(parse_transcript(json.dumps(t)), PUB) == []


def test_a_running_game_checks_clean_except_for_the_unrevealed_seed():
    t = parse_transcript(json.dumps(running()))
    assert check_header(t) == check_chain(t) == check_client_seeds(t) == []
    assert [c.status for c in check_signatures(t, PUB)] == ["pass", "pass"]
    assert codes(check_commitment(t)) == ["not-ended"]
    assert "not revealed yet" in check_commitment(t)[0].detail


def _reveal(seed=SEEDS[0], nonce=NONCES[0]):
    return {
        "seat": 0,
        "name": "ann",
        "bot": False,
        "client_seed": seed,
        "nonce": nonce,
        "client_seed_commitment": client_seed_commitment(GAME, SEEDS[0], NONCES[0]),
    }


@pytest.mark.parametrize(
    "build, message",
    [
        (lambda: make_move_record("ab", 1, 0, "player", {}, salt="5a" * 32), "prev"),
        (lambda: make_move_record("a" * 64, 0, 0, "player", {}, salt="5a" * 32), "sequence"),
        (lambda: make_move_record("a" * 64, 1, -1, "player", {}, salt="5a" * 32), "seat"),
        (lambda: make_move_record("a" * 64, 1, 0, "robot", {}, salt="5a" * 32), "'by'"),
        (lambda: make_move_record("a" * 64, 1, 0, "player", {"value": 1.5}, salt="5a" * 32), "float"),
        (lambda: make_seat(1, "Bot", True, "seed"), "bot has no client seed"),
        (lambda: make_seat(0, "x", False, "\u00e9"), "printable ASCII"),
        (lambda: seating_seat(1, "Bot", True, "ab" * 32), "bot has no client seed"),
        (lambda: seating_seat(0, "x", False, "AB" * 32), "64 lowercase hex"),
        (lambda: start_seat(GAME, **{k: v for k, v in _reveal(seed="another").items()}), "do not open"),
        (lambda: start_seat(GAME, **{k: v for k, v in _reveal(nonce="0b" * 32).items()}), "do not open"),
        (lambda: start_seat(GAME, 2, "ben", False, None, "a seed", "0a" * 32), "committed to no client seed"),
        (lambda: make_seating(commit_record(), v2_seats(), None, T0), "reveal deadline"),
        (lambda: make_seating(commit_record("fairdeal/1"), v2_seats(), T0, T0), "no seating"),
        (lambda: make_start(commit_record(), v2_seats(), {}, T0), "follows its seating"),
        (
            lambda: make_start(
                commit_record(), v2_seats()[:3] + [_reveal()], {}, T0, make_seating(commit_record(), v2_seats(), T0, T0)
            ),
            "not the seating",
        ),
        (lambda: make_start(commit_record("fairdeal/1"), v1_seats()[:3], {}, T0), "4 players; 3 seats"),
        (lambda: make_start(commit_record("fairdeal/1"), list(reversed(v1_seats())), {}, T0), "in order"),
        (lambda: make_start(commit_record("fairdeal/1"), v1_seats(), {"play": 2.5}, T0), "integers or nulls"),
        (lambda: make_commit("g", RULES, "xyz", PUB, T0), "commitment"),
        (lambda: make_commit("g", RULES, "a" * 64, "ed25519:nope", T0), "public key"),
        (lambda: make_commit("g", RULES, "a" * 64, PUB, T0), "deal layout"),
        (lambda: make_end("a" * 64, 1, "won", SEED, None, T0), "reason"),
        (lambda: make_end("a" * 64, 1, "not-revealed", SEED, None, T0, protocol="fairdeal/1"), "reason"),
        (lambda: make_end("a" * 64, 1, "not-revealed", SEED, None, T0, deals=[]), "only when a committed seat"),
        (lambda: make_end("a" * 64, 1, "finished", SEED, None, T0, deals=[(1, 0)]), "numbered 0, 1"),
        (lambda: make_end("a" * 64, 1, "finished", SEED[:5], None, T0), "32 bytes"),
        (lambda: append_move(seated(), 0, "player", {}, salt="5a" * 32), "before the game starts"),
        (lambda: append_move(ended(), 0, "player", {}, salt="5a" * 32), "ended"),
        (lambda: finish(KEY, ended(), "finished", SEED, None, T0), "already ended"),
        (
            lambda: finish(KEY, seated(), "not-revealed", SEED, None, T0, reveals=[{**_reveal(), "client_seed": "x"}]),
            "do not open",
        ),
        (lambda: add_start(KEY, new_transcript(KEY, commit_record()), {}), "follows the seating"),
    ],
)
def test_building_refuses_bad_input_with_a_clear_message(build, message):
    with pytest.raises(ValueError, match=message):
        build()


def test_a_timeout_move_is_refused_at_a_table_without_clocks():
    t = seated()
    add_start(KEY, t, make_start(t["commit"], v2_seats(), {"card": None, "other": None}, T0, t["seating"]))
    before = copy.deepcopy(t)
    with pytest.raises(ValueError, match="without clocks"):
        append_move(t, 0, "timeout", {"kind": "pass"}, salt="5a" * 32)
    assert t == before
    append_move(t, 0, "player", {"kind": "pass"}, salt="5a" * 32)  # a player's own move is fine


def test_a_refused_move_changes_nothing():
    t = running()
    before = copy.deepcopy(t)
    with pytest.raises(ValueError):
        append_move(t, 0, "player", {"kind": "bid", "value": 0.5}, salt="5a" * 32)
    assert t == before


# ------------------------------------------------------------------------------------------- public view


def test_public_view_of_a_running_game_has_no_seed_and_nothing_extra():
    t = running()
    t["server_seed_cache"] = SEED.hex()  # something a careless store might keep beside it
    view = public_view(t)
    assert SEED.hex() not in json.dumps(view)
    assert set(view) == {
        "protocol",
        "commit",
        "commit_signature",
        "seating",
        "seating_signature",
        "start",
        "start_signature",
        "records",
    }
    view["records"].clear()
    assert len(t["records"]) == 3  # a copy


def test_public_view_of_an_ended_game_is_the_whole_transcript():
    for protocol in PROTOCOLS:
        t = ended(protocol=protocol)
        assert public_view(t) == t


# ------------------------------------------------------------------------------------------- tampering


def tampered_is_caught(data: bytes) -> bool:
    try:
        t = parse_transcript(data)
    except TranscriptError:
        return True
    return check_transcript(t, PUB) != []


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_changing_any_byte_of_a_transcript_is_detected(protocol):
    data = canonical_json(ended(2, protocol))
    assert not tampered_is_caught(data)
    for i in range(len(data)):
        changed = data[:i] + bytes([data[i] ^ 0x01]) + data[i + 1 :]
        assert tampered_is_caught(changed), f"byte {i} ({data[max(0, i - 20) : i + 20]!r}) changed undetected"


@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_changing_any_byte_to_any_value_is_detected(data):
    raw = canonical_json(ended(1))
    i = data.draw(st.integers(0, len(raw) - 1))
    b = data.draw(st.integers(0, 255).filter(lambda v: v != raw[i]))
    assert tampered_is_caught(raw[:i] + bytes([b]) + raw[i + 1 :])


@pytest.mark.parametrize("record", ["commit", "seating", "start", "records.0", "records.1", "end"])
def test_changing_a_record_without_resigning_is_reported(record):
    t = ended(2)
    target = t[record.split(".")[0]]
    if "." in record:
        target = target[int(record.split(".")[1])]
    target["game_id" if "game_id" in target else "seq"] = "forged" if "game_id" in target else 99
    problems = check_transcript(t, PUB)
    assert problems and {"signature-start", "signature-transcript", "hash-chain", "header"} & {p.id for p in problems}


@pytest.mark.parametrize(
    "member, record",
    [
        ("commit_signature", "commit"),
        ("seating_signature", "seating"),
        ("start_signature", "start"),
        ("signature", None),
    ],
)
def test_a_changed_signature_is_reported(member, record):
    # the final signature covers the other signatures as well: changing one fails both results
    for forged in (keys.sign(KEY, b"something else"), "not base64!", ""):
        t = ended()
        t[member] = forged
        start, final = check_signatures(t, PUB)
        assert final.status == "fail" and final.code == "final-signature-bad"
        if record is None:
            assert start.status == "pass"
        else:
            assert start.code == "header-signature-bad" and start.fields["record"] == record


def test_dropped_inserted_and_swapped_records_break_the_chain():
    for mutate in (
        lambda r: r.pop(1),
        lambda r: r.insert(1, copy.deepcopy(r[0])),
        lambda r: r.__setitem__(slice(0, 2), [r[1], r[0]]),
    ):
        t = ended(3)
        mutate(t["records"])
        problems = check_chain(t)
        assert problems and {p.code for p in problems} <= {"seq-wrong", "prev-broken"}
        assert all(p.seq == p.fields["place"] for p in problems)


def test_a_resigned_forgery_by_another_key_fails_against_the_pinned_key():
    other = keys.generate_private_key()
    forged = ended()
    for name in ("commit", "seating", "start"):
        forged[name]["key"] = keys.public_key_text(other)
        forged[f"{name}_signature"] = sign_record(other, forged[name])
    forged["signature"] = sign_transcript(other, forged)
    assert [c.status for c in check_signatures(forged)] == ["pass", "pass"]  # consistent with itself...
    start, _ = check_signatures(forged, PUB)  # ...but not by the server's key
    assert start.code == "key-differs" and start.fields["key_id"] == keys.key_id(PUB)


def test_a_wrong_revealed_seed_fails_the_commitment_even_when_signed():
    t = running()
    t = finish(KEY, t, "abandoned", bytes(32), None, T0, deals=[(0, 2)])
    assert [c.status for c in check_signatures(t, PUB)] == ["pass", "pass"] and check_chain(t) == []
    assert codes(check_commitment(t)) == ["commitment-mismatch"]


def test_header_problems_are_reported():
    t = ended()
    t["start"]["game_id"] = "other"
    t["seating"]["seats"][2]["name"] = "someone else"
    t["start"]["seats"][1]["client_seed"] = "bot seed"
    assert {(p.code, p.fields.get("record"), p.fields.get("member")) for p in check_header(t)} == {
        ("repeat-differs", "start", "game_id"),
        ("seating-differs", None, "name"),
    }
    assert [(p.code, p.fields["seat"]) for p in check_client_seeds(t)] == [("bot-has-seed", 1)]


def test_v1_header_problems_are_reported():
    t = ended(protocol="fairdeal/1")
    t["start"]["game_id"] = "other"
    t["start"]["seats"][1]["client_seed"] = "bot seed"
    assert codes(check_header(t)) == ["repeat-differs"]
    assert [(p.code, p.fields["seat"]) for p in check_client_seeds(t)] == [("bot-has-seed", 1)]


def test_a_reveal_that_does_not_open_its_commitment_is_reported():
    t = ended()
    t["start"]["seats"][3]["client_seed"] = "c"
    assert [(p.code, p.fields["seat"]) for p in check_client_seeds(t)] == [("reveal-mismatch", 3)]
    t = ended()
    t["start"]["seats"][0]["nonce"] = None
    assert [(p.code, p.fields["seat"]) for p in check_client_seeds(t)] == [("seed-not-revealed", 0)]


def test_an_ended_transcript_without_its_final_signature_is_reported():
    t = ended()
    del t["signature"]
    assert [c.code for c in check_signatures(t, PUB)] == ["headers-signed", "final-signature-missing"]


# ------------------------------------------------------------------------------------------- parsing


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_a_truncated_transcript_is_refused_as_truncated(data):
    text = json.dumps(ended())
    cut = data.draw(st.integers(1, len(text) - 1))
    with pytest.raises(TranscriptError, match="ends early|not valid JSON"):
        parse_transcript(text[:cut])


def _with(path: str, value, protocol: str = "fairdeal/2", base=None) -> str:
    t = base() if base else ended(protocol=protocol)
    *parents, last = path.split(".")
    target = t
    for p in parents:
        target = target[int(p)] if isinstance(target, list) else target[p]
    if value is KeyError:
        del target[last]
    else:
        target[last] = value
    return json.dumps(t)


def _aborted() -> dict:
    return finish(KEY, seated(), "not-revealed", SEED, None, T0)


@pytest.mark.parametrize(
    "data, message",
    [
        ("", "empty"),
        (b"\xff\xfe", "not UTF-8"),
        ("[1, 2]", "not a fairdeal transcript"),
        ('{"hello": 1}', "not a fairdeal transcript"),
        ('{"protocol": "fairdeal/3", "commit": {}}', "'fairdeal/3'; this verifier knows 'fairdeal/1' and 'fairdeal/2'"),
        ('{"protocol": "fairdeal/1", "protocol": "fairdeal/1"}', "appears twice"),
        ('{"protocol": "fairdeal/1", "x": 1.5}', "integers only"),
        ('{"protocol": "fairdeal/1", "x": NaN}', "integers only"),
        ("{not json}", "not valid JSON"),
        (_with("commit.extra", 1), "commit has an unknown field 'extra'"),
        (_with("commit.deal_layout", KeyError), "commit has no 'deal_layout'"),
        (_with("commit.deal_layout", "x", "fairdeal/1"), "commit has an unknown field 'deal_layout'"),
        (_with("start.seats.0.client_seed", 5, "fairdeal/1"), r"start.seats\[0\].client_seed should be text or null"),
        (_with("start.seats.0.nonce", "x"), r"start.seats\[0\].nonce should be 64 hex digits or null"),
        (_with("start.seats.0.nonce", KeyError), r"start.seats\[0\] has no 'nonce'"),
        (_with("seating.seats.0.client_seed", "x"), r"seating.seats\[0\] has an unknown field 'client_seed'"),
        (_with("seating.reveal_deadline", 5), "reveal_deadline should be text or null"),
        (_with("seating", KeyError), "seating record without its signature"),
        (_with("records.0.by", "ghost"), "by should be one of"),
        (_with("records.0.type", "end"), "type should be 'move'"),
        (_with("records.0.prev", "AB" * 32), "prev should be 64 hex digits"),
        (_with("end.reason", "bored"), "reason should be one of"),
        (_with("end.reason", "not-revealed", "fairdeal/1"), "reason should be one of finished, abandoned, cancelled,"),
        (_with("end.server_seed", KeyError), "end has no 'server_seed'"),
        (_with("end.deals", KeyError), "end has no 'deals'"),
        (_with("end.deals.0.dealer", "2"), r"end.deals\[0\].dealer should be integer"),
        (_with("end.reveals", []), "reveals and unrevealed seats exactly when"),
        (_with("end.reveals", KeyError, base=_aborted), "reveals and unrevealed seats exactly when"),
        (_with("end.unrevealed", ["0"], base=_aborted), "list of seat numbers"),
        (_with("log", [1]), "log should be object"),
        (_with("log", {}, "fairdeal/1"), "unknown field 'log'"),
        (_with("start_signature", KeyError), "start record without its signature"),
        (_with("start.clocks.play", "fast"), "clocks.play should be an integer or null"),
        (_with("commit.rules.players", "4"), "commit.rules.players should be integer"),
        (_with("records", {}), "records should be list"),
        (_with("surprise", 1), "unknown field 'surprise'"),
        (_with("records.0.move.value", 2**60), "no canonical JSON form"),
        (_with("records.0.seq", 2**53), "no canonical JSON form"),
        ('{"protocol": "fairdeal/1", "x": ' + "9" * 5000 + "}", "could not be read"),
        ("[" * 100000 + "]" * 100000, "nested too deeply"),
    ],
)
def test_unreadable_input_is_refused_with_a_clear_message(data, message):
    with pytest.raises(TranscriptError, match=message):
        parse_transcript(data)


def test_moves_without_a_start_a_start_without_a_seating_and_a_signature_without_an_end_are_refused():
    t = ended()
    del t["start"], t["start_signature"]
    with pytest.raises(TranscriptError, match="moves but no start"):
        parse_transcript(t)
    t = ended()
    del t["seating"], t["seating_signature"]
    with pytest.raises(TranscriptError, match="start record but no seating"):
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
    throw = {"kind": "throw", "cards": ["2C", "5H"]}
    a = make_move_record("a" * 64, 7, 1, "player", throw, salt=record_salt(b"\x01" * 32, 7))
    b = make_move_record("a" * 64, 7, 1, "player", throw, salt=record_salt(b"\x02" * 32, 7))
    assert record_hash(a) != record_hash(b)
    assert record_salt(b"\x01" * 32, 7) != record_salt(b"\x01" * 32, 8)
