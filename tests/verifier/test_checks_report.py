"""fairdeal.verifier.checks: the check list, the key choice, the replay's verdicts, and the documented examples."""
import copy
import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from fairdeal.verifier import checks, transcript
from fairdeal.verifier.checks import (CHECK_IDS, choose_key, parse_client_seed, parse_receipt, verify_transcript)
from fairdeal.verifier.selfplay import selfplay
from fairdeal.verifier.transcript import finish, make_commit, new_transcript
from fairdeal.verifier.fairness import commitment

from tests.verifier.test_tamper_kit import SERVER_KEY, SERVER_PUBLIC, resign, valid_transcript

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def statuses(report):
    return {c.id: c.status for c in report.checks}


def test_check_ids_are_stable_and_documented():
    assert CHECK_IDS == ("protocol", "signature-start", "signature-transcript", "header", "commitment",
                         "client-seeds", "hash-chain", "deals", "moves-legal", "bot-moves", "timeout-moves",
                         "result", "receipts")
    text = (DOCS / "verify.md").read_text()
    for cid in CHECK_IDS:
        assert f"`{cid}`" in text, f"docs/verify.md does not describe {cid}"


def test_the_checks_use_the_protocol_functions_the_test_vectors_check():
    # One implementation: the verifier calls the very functions that docs' vectors are checked against.
    assert checks.check_chain is transcript.check_chain
    assert checks.check_commitment is transcript.check_commitment
    assert checks.check_header is transcript.check_header
    assert checks.parse_transcript is transcript.parse_transcript
    assert checks.record_hash is transcript.record_hash
    assert checks.transcript_body is transcript.transcript_body


# ------------------------------------------------------------------------------------------ the key choice

def test_given_key_wins_over_pins():
    assert choose_key("ed25519:T", "ed25519:G", {"s": "ed25519:P"}) == ("ed25519:G", "given", None)


def test_a_pinned_key_is_used_when_the_transcript_names_it():
    assert choose_key("ed25519:P", None, {"s": "ed25519:P"}) == ("ed25519:P", "pinned", None)


def test_a_key_that_is_not_pinned_is_refused_when_keys_are_pinned():
    key, source, problem = choose_key("ed25519:X", None, {"s": SERVER_PUBLIC})
    assert key is None and source == "pinned" and "not a pinned key" in problem


def test_with_no_key_and_no_pins_only_the_transcripts_own_key():
    assert choose_key("ed25519:T", None, {}) == ("ed25519:T", "transcript", None)


# -------------------------------------------------------------------------------------------- option texts

def test_parse_receipt():
    assert parse_receipt(f"12:{'AB' * 32}") == (12, "ab" * 32)
    for bad in ("12", "x:" + "a" * 64, "3:" + "a" * 63, "3:" + "g" * 64):
        with pytest.raises(ValueError):
            parse_receipt(bad)


def test_parse_client_seed_keeps_colons_in_the_seed():
    assert parse_client_seed("2:a:b c") == (2, "a:b c")
    with pytest.raises(ValueError):
        parse_client_seed("two:x")


# ---------------------------------------------------------------------------------------------- verdicts

def test_bot_card_not_the_policys_choice_fails_bot_moves_not_deals():
    # A bot's card replaced by another legal card: not the bot's choice. The deal is still the seed's (the
    # card played twice later on is an illegal move, not a different deal).
    from tests.verifier.test_tamper_kit import TAMPERS, run_tamper
    tamper = next(t for t in TAMPERS if t.name.startswith("a bot's card"))
    for rule_set in ("spades", "120s-auction", "twenty-down"):
        outcome = run_tamper(rule_set, tamper)
        assert "bot-moves" in outcome.failed and "deals" not in outcome.failed, (rule_set, outcome.failed)


def test_first_move_by_another_seat_than_the_seeds_dealer_fails_deals():
    t = valid_transcript("spades")
    first = t["records"][0]["seat"]
    t["records"][0]["seat"] = (first + 1) % 4
    report = verify_transcript(resign(t), key=SERVER_PUBLIC)
    assert report.check("deals").status == "fail" and report.check("deals").seq == 1
    assert "moves first" in report.check("deals").detail


def test_a_bid_changed_by_a_bot_seat_with_the_deal_intact_fails_bot_moves_and_still_checks_the_deal():
    t = valid_transcript("spades")
    i = next(i for i, r in enumerate(t["records"]) if r["by"] == "bot" and r["move"]["kind"] == "bid")
    t["records"][i]["move"]["value"] = (t["records"][i]["move"]["value"] + 1) % 14
    report = verify_transcript(resign(t), key=SERVER_PUBLIC)
    s = statuses(report)
    assert s["bot-moves"] == "fail" and s["deals"] == "pass" and s["moves-legal"] == "pass"


def test_abandoned_game_with_its_seed_revealed_passes():
    t = selfplay("120s-house", SERVER_KEY, bytes(32), stop_after=30)
    report = verify_transcript(t, key=SERVER_PUBLIC)
    assert t["end"]["reason"] == "abandoned" and report.exit_code == 0
    assert report.check("result").status == "pass" and "abandoned" in report.check("result").detail


def test_an_abandoned_game_claiming_a_result_fails():
    t = selfplay("120s-house", SERVER_KEY, bytes(32), stop_after=30)
    t["end"]["result"] = {"scores": [120, 0], "winners": [0, 2]}
    report = verify_transcript(resign(t), key=SERVER_PUBLIC)
    assert [c.id for c in report.failed] == ["result"]


def test_a_game_cancelled_before_it_started_passes():
    rules = {"id": "spades", "players": 4, "settings": {}, "version": 1}
    seed = bytes(range(32))
    commit = make_commit("g-cancelled", rules, commitment(seed, "g-cancelled", rules), SERVER_PUBLIC,
                         "2026-01-01T00:00:00Z")
    t = finish(SERVER_KEY, new_transcript(SERVER_KEY, commit), "cancelled", seed, None, "2026-01-01T00:05:00Z")
    report = verify_transcript(t, key=SERVER_PUBLIC)
    assert report.exit_code == 0
    assert statuses(report)["deals"] == "skip" and statuses(report)["result"] == "pass"


def test_a_game_in_progress_is_unusable_but_its_chain_is_still_checked():
    t = valid_transcript("twenty-down")
    del t["end"], t["signature"]
    report = verify_transcript(t)
    assert report.exit_code == 2 and "not ended" in report.unusable
    assert statuses(report)["hash-chain"] == "pass"


def test_an_unknown_rule_set_is_unusable_not_a_crash():
    t = valid_transcript("spades")
    for rec in (t["commit"], t["start"]):
        rec["rules"] = {**rec["rules"], "id": "poker"}
    seed = bytes(range(32))
    t["commit"]["commitment"] = t["start"]["commitment"] = commitment(seed, t["commit"]["game_id"],
                                                                      t["commit"]["rules"])
    report = verify_transcript(resign(t), key=SERVER_PUBLIC)
    assert report.exit_code == 2 and "poker" in report.unusable


def test_report_json_round_trips():
    report = verify_transcript(valid_transcript("120s-traditional"), key=SERVER_PUBLIC)
    data = json.loads(json.dumps(report.to_json()))
    assert data["ok"] and data["exit_code"] == 0 and len(data["checks"]) == len(CHECK_IDS)
    assert all(set(c) == {"id", "title", "status", "detail", "seq"} for c in data["checks"])


# -------------------------------------------------------------------------------------- robustness property

@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_any_single_byte_change_is_reported_and_never_crashes(data):
    text = bytearray(json.dumps(valid_transcript("twenty-down"), separators=(",", ":")).encode())
    i = data.draw(st.integers(0, len(text) - 1))
    b = data.draw(st.integers(0, 255).filter(lambda x: x != text[i]))
    text[i] = b
    report = verify_transcript(bytes(text), key=SERVER_PUBLIC)
    assert report.exit_code in (1, 2)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["120s-auction", "120s-house", "120s-traditional", "spades", "twenty-down"]),
       st.binary(min_size=32, max_size=32), st.data())
def test_every_selfplayed_game_verifies_whatever_the_table(rule_set, seed, data):
    # Any table of any rule set: its settings, its size, its bots; humans sometimes leave the policy's move.
    from fairdeal.verifier.games import rules_class
    cls = rules_class(rule_set)
    settings = {s.name: data.draw(st.sampled_from(s.choices), label=s.name) for s in cls.SETTINGS}
    players = data.draw(st.sampled_from(cls.table_sizes), label="players")
    bots = data.draw(st.sets(st.integers(0, players - 1)), label="bots")
    t = selfplay(rule_set, SERVER_KEY, seed, settings=settings, players=players, bots=tuple(sorted(bots)),
                 variety_every=3)
    report = verify_transcript(t, key=SERVER_PUBLIC)
    assert report.exit_code == 0, [c.to_json() for c in report.failed]


# ---------------------------------------------------------------------------------- the documented examples

def test_the_example_game_in_docs_examples_verifies_with_the_example_key():
    key = (DOCS / "examples" / "example-key.txt").read_text().strip()
    data = (DOCS / "examples" / "120s-auction-game.json").read_bytes()
    report = verify_transcript(data, key=key)
    assert report.exit_code == 0, ("if the rules engine or a policy changed, regenerate the example with "
                                   "python scripts/make_example_game.py", [c.to_json() for c in report.failed])
    assert json.loads(data)["start"]["rules"]["id"] == "120s-auction"


def _doc_vectors():
    text = (DOCS / "transcript.md").read_text()
    return [json.loads(b) for b in re.findall(r"```json vectors\n(.*?)```", text, re.S)]


def test_the_transcript_vector_of_docs_transcript_md_passes_the_protocol_checks():
    vectors = [v for v in _doc_vectors() if v["vector"] == "transcript"]
    assert vectors
    for v in vectors:
        receipts = [(i, h) for i, h in enumerate(v["receipts"], start=1)]
        report = verify_transcript(v["transcript"], key=v["public_key_text"], receipts=receipts)
        s = statuses(report)
        for cid in ("protocol", "signature-start", "signature-transcript", "header", "commitment", "client-seeds",
                    "hash-chain", "receipts"):
            assert s[cid] == "pass", (cid, report.check(cid).detail)
        assert v["game_seed"] in report.check("client-seeds").detail[:200] or \
            v["game_seed"][:16] in report.check("client-seeds").detail


def _paths(obj, path=()):
    yield path
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, path + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj[:8]):
            yield from _paths(v, path + (i,))


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers(-2**60, 2**60) | st.text(max_size=8)
                           | st.sampled_from(["AS", "10H", "ed25519:x", "0" * 64, "fairdeal/1", "play", "bot"]),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                                      max_size=3),
                           max_leaves=6)
_SHAPES = {rs: valid_transcript(rs) for rs in ("spades", "120s-auction")}
_PATHS = {rs: [p for p in _paths(t) if p] for rs, t in _SHAPES.items()}


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(_SHAPES)), st.data(), JSON_VALUES, st.booleans())
def test_any_changed_field_fails_or_is_refused_and_never_hits_an_internal_error(rule_set, data, value, delete):
    t = copy.deepcopy(_SHAPES[rule_set])
    path = data.draw(st.sampled_from(_PATHS[rule_set]))
    parent = t
    for key in path[:-1]:
        parent = parent[key]
    if delete and isinstance(parent, dict):
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    if json.dumps(t, sort_keys=True) == json.dumps(_SHAPES[rule_set], sort_keys=True):
        return   # the value drawn was the one already there
    report = verify_transcript(t, key=SERVER_PUBLIC)
    assert report.exit_code in (1, 2)
    assert not (report.unusable or "").startswith("The transcript could not be checked"), report.unusable


def test_a_broken_link_names_its_record_and_the_replay_still_runs():
    t = valid_transcript("spades")
    t["records"][7]["prev"] = "0" * 64
    report = verify_transcript(t, key=SERVER_PUBLIC)
    chain = report.check("hash-chain")
    assert chain.status == "fail" and chain.seq == 8 and "record 8" in chain.detail.lower()
    # the moves themselves are untouched: the replay checks still pass
    s = statuses(report)
    assert s["deals"] == s["moves-legal"] == s["bot-moves"] == s["result"] == "pass"


def test_a_salt_the_seed_does_not_derive_fails_the_chain_and_the_replay_goes_on():
    t = valid_transcript("120s-auction")
    t["records"][3]["salt"] = "ab" * 32
    report = verify_transcript(resign(t, keep_salts=True), key=SERVER_PUBLIC)
    chain = report.check("hash-chain")
    assert chain.status == "fail" and chain.seq == 4 and "salt" in chain.detail
    assert [c.id for c in report.failed] == ["hash-chain"]
    assert statuses(report)["result"] == "pass"
