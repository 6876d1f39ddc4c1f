"""fairdeal.core.checks: the check list, the key choice, the replay's verdicts, and the documented examples."""

import copy
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fairdeal.core import checks, integrity
from fairdeal.core.checks import CHECK_IDS, choose_key, parse_client_seed, parse_receipt, verify_transcript
from fairdeal.core.fairness import commitment
from fairdeal.core.messages import MESSAGES
from fairdeal.core.selfplay import selfplay
from fairdeal.core.writer import finish, make_commit, new_transcript
from tests.verifier.tamper_kit import SERVER_KEY, SERVER_PUBLIC, resign, valid_transcript

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def statuses(report):
    return {c.id: c.status for c in report.checks}


def test_check_ids_are_stable_and_documented():
    assert CHECK_IDS == (
        "protocol",
        "signature-start",
        "signature-transcript",
        "header",
        "commitment",
        "client-seeds",
        "hash-chain",
        "blind-messages",
        "blind-deal",
        "blind-opens",
        "blind-blame",
        "deals",
        "moves-legal",
        "bot-moves",
        "timeout-moves",
        "result",
        "receipts",
        "log-inclusion",
        "commitment-noted",
    )
    text = (DOCS / "verify.md").read_text()
    for cid in CHECK_IDS:
        assert f"`{cid}`" in text, f"docs/verify.md does not describe {cid}"


def test_the_checks_use_the_protocol_functions_the_test_vectors_check():
    # One implementation: the report is made by the very functions test_vectors.py checks the documents' vectors
    # with (fairdeal.core.integrity), and there is one signature check, not two.
    from fairdeal.core import reader, transcript

    assert checks.integrity is integrity
    assert checks.parse_transcript is reader.parse_transcript
    assert checks.record_hash is transcript.record_hash
    assert not hasattr(transcript, "check_signatures") and not hasattr(checks, "_check_signatures")


def test_every_result_code_has_its_sentence():
    # every code a check can give is one MESSAGES renders; none falls back to the raw "code {fields}" form
    import inspect
    import re as _re

    from fairdeal.core import replay

    codes = set()
    for module in (checks, integrity, replay):
        src = inspect.getsource(module)
        codes |= set(_re.findall(r'(?:failed|passed|skipped)\(\s*"[a-z-]+",\s*"([a-z-]+)"', src))
        codes |= set(_re.findall(r'ReplayError\(\s*(?:f?"[{}a-z-]+"),\s*"([a-z-]+)"', src))
    assert codes and codes <= set(MESSAGES), codes - set(MESSAGES)


# ------------------------------------------------------------------------------------------ the key choice


def test_given_key_wins_over_pins():
    assert choose_key("ed25519:T", "ed25519:G", {"s": "ed25519:P"}) == ("ed25519:G", "given", None)


def test_a_pinned_key_is_used_when_the_transcript_names_it():
    assert choose_key("ed25519:P", None, {"s": "ed25519:P"}) == ("ed25519:P", "pinned", None)


def test_a_key_that_is_not_pinned_is_refused_when_keys_are_pinned():
    key, source, problem = choose_key("ed25519:X", None, {"s": SERVER_PUBLIC})
    assert key is None and source == "pinned" and problem["pinned"].startswith("s (")


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
    from tests.verifier.tamper_kit import TAMPERS, run_tamper

    tamper = next(t for t in TAMPERS if t.name.startswith("a bot's card"))
    for rule_set in ("spades", "120s-auction", "twenty-down"):
        outcome = run_tamper(rule_set, tamper)
        assert "bot-moves" in outcome.failed and "deals" not in outcome.failed, (rule_set, outcome.failed)


def test_first_move_by_another_seat_than_the_seeds_dealer_fails_deals():
    t = valid_transcript("spades")
    first = t["records"][0]["seat"]
    t["records"][0]["seat"] = (first + 1) % 4
    report = verify_transcript(resign(t), key=SERVER_PUBLIC)
    deals = report.check("deals")
    assert deals.status == "fail" and deals.seq == 1 and deals.code == "first-mover"
    assert deals.fields["seat"] == (first + 1) % 4 and deals.fields["expected"] == first
    assert "moves first" in deals.detail


def _still_legal(t) -> bool:
    """Every move of `t` is legal in turn (the engine alone, no policy): the changed bid kept the game going."""
    from fairdeal.core.games.base import GameError, Move
    from fairdeal.core.integrity import game_seed_of
    from fairdeal.core.replay import LiveGame

    game = LiveGame(t["start"], game_seed_of(t))
    try:
        for r in t["records"]:
            game.state.apply(r["seat"], Move.from_json(r["move"]))
    except GameError:
        return False
    return game.state.is_over


def test_a_bid_changed_by_a_bot_seat_with_the_deal_intact_fails_bot_moves_and_still_checks_the_deal():
    # The last bot bid whose change (one more) leaves every later move legal: only the bot's choice is wrong.
    base = valid_transcript("spades")
    bids = [i for i, r in enumerate(base["records"]) if r["by"] == "bot" and r["move"]["kind"] == "bid"]
    for i in reversed(bids):
        t = copy.deepcopy(base)
        t["records"][i]["move"]["value"] = (t["records"][i]["move"]["value"] + 1) % 14
        if _still_legal(t):
            break
    else:
        raise AssertionError("no bot bid of this game could change without changing the game's end")
    report = verify_transcript(resign(t), key=SERVER_PUBLIC)
    s = statuses(report)
    assert s["bot-moves"] == "fail" and s["deals"] == "pass" and s["moves-legal"] == "pass"
    assert report.check("bot-moves").seq == i + 1 and report.check("bot-moves").code == "policy-differs"


def test_a_fairdeal_1_record_with_a_member_its_kind_does_not_use_is_read_as_fairdeal_1_read_it():
    # The fairdeal/1 service signed {"kind": "bid", "value": 3, "card": "AS"} as sent; its readers ignored "card".
    # fairdeal/1 keeps verifying as it did; under fairdeal/2 the same record fails (tamper suite).
    t = valid_transcript("spades", "fairdeal/1")
    i = next(i for i, r in enumerate(t["records"]) if r["by"] == "player" and r["move"]["kind"] == "bid")
    t["records"][i]["move"]["card"] = "AS"
    report = verify_transcript(resign(t), key=SERVER_PUBLIC)
    assert report.exit_code == 0, [c.to_json() for c in report.failed]


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


@pytest.mark.parametrize("protocol", ["fairdeal/1", "fairdeal/2"])
def test_a_game_cancelled_before_it_started_passes(protocol):
    rules = {"id": "spades", "players": 4, "settings": {}, "version": 1}
    seed = bytes(range(32))
    commit = make_commit(
        "g-cancelled",
        rules,
        commitment(seed, "g-cancelled", rules, protocol),
        SERVER_PUBLIC,
        "2026-01-01T00:00:00Z",
        protocol=protocol,
        deal_layout="spades-4",
    )
    t = finish(SERVER_KEY, new_transcript(SERVER_KEY, commit), "cancelled", seed, None, "2026-01-01T00:05:00Z")
    report = verify_transcript(t, key=SERVER_PUBLIC)
    assert report.exit_code == 0 and report.protocol == protocol
    assert statuses(report)["deals"] == "skip" and statuses(report)["result"] == "pass"


def test_a_table_whose_seat_did_not_reveal_names_it_and_passes():
    from tests.verifier.tamper_kit import aborted_transcript

    report = verify_transcript(aborted_transcript("spades"), key=SERVER_PUBLIC, client_seeds=[(0, "north's seed")])
    assert report.exit_code == 0, [c.to_json() for c in report.failed]
    seeds, result = report.check("client-seeds"), report.check("result")
    assert seeds.code == "seeds-aborted" and seeds.fields["unrevealed"] == [2] and seeds.fields["revealed"] == [0]
    assert result.code == "result-aborted" and "seat 2 did not reveal" in result.detail
    wrong = verify_transcript(aborted_transcript("spades"), key=SERVER_PUBLIC, client_seeds=[(2, "south's seed")])
    assert wrong.check("client-seeds").code == "seed-not-in-transcript"


def test_a_game_in_progress_is_unusable_but_its_chain_is_still_checked():
    t = valid_transcript("twenty-down")
    del t["end"], t["signature"]
    report = verify_transcript(t)
    assert report.exit_code == 2 and "not ended" in report.unusable
    assert statuses(report)["hash-chain"] == "pass"


def test_an_unknown_rule_set_is_unusable_not_a_crash():
    t = valid_transcript("spades")
    for rec in (t["commit"], t["seating"], t["start"]):
        rec["rules"] = {**rec["rules"], "id": "poker"}
    seed = bytes(range(32))
    for rec in (t["commit"], t["seating"], t["start"]):
        rec["commitment"] = commitment(seed, t["commit"]["game_id"], t["commit"]["rules"])
    report = verify_transcript(resign(t), key=SERVER_PUBLIC)
    assert report.exit_code == 2 and "poker" in report.unusable


def test_report_json_round_trips():
    report = verify_transcript(valid_transcript("120s-traditional"), key=SERVER_PUBLIC)
    data = json.loads(json.dumps(report.to_json()))
    assert data["ok"] and data["exit_code"] == 0 and len(data["checks"]) == len(CHECK_IDS)
    assert data["report"] == "fairdeal-verify/2" and data["protocol"] == "fairdeal/2"
    assert all(set(c) == {"id", "title", "status", "code", "detail", "seq", "fields"} for c in data["checks"])
    chain = next(c for c in data["checks"] if c["id"] == "hash-chain")
    assert chain["code"] == "chain-ok" and chain["fields"]["records"] == data["game"]["moves"] + 1


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
@given(
    st.sampled_from(["120s-auction", "120s-house", "120s-traditional", "spades", "twenty-down"]),
    st.binary(min_size=32, max_size=32),
    st.data(),
)
def test_every_selfplayed_game_verifies_whatever_the_table(rule_set, seed, data):
    # Any table of any rule set: its settings, its size, its bots; humans sometimes leave the policy's move.
    from fairdeal.core.games import rules_class

    cls = rules_class(rule_set)
    settings = {s.name: data.draw(st.sampled_from(s.choices), label=s.name) for s in cls.SETTINGS}
    players = data.draw(st.sampled_from(cls.table_sizes), label="players")
    bots = data.draw(st.sets(st.integers(0, players - 1)), label="bots")
    # Every game ends by its rules (Twenty Down since rules version 2, whose last deals end any game; selfplay
    # raises if one runs past 50,000 moves), so no game is cut short here.
    t = selfplay(
        rule_set, SERVER_KEY, seed, settings=settings, players=players, bots=tuple(sorted(bots)), variety_every=3
    )
    assert t["end"]["reason"] == "finished"
    report = verify_transcript(t, key=SERVER_PUBLIC)
    assert report.exit_code == 0, [c.to_json() for c in report.failed]


# ---------------------------------------------------------------------------------- the documented examples


@pytest.mark.parametrize(
    "name, protocol", [("120s-auction-game.json", "fairdeal/1"), ("120s-auction-game-fairdeal-2.json", "fairdeal/2")]
)
def test_the_example_games_in_docs_examples_verify_with_the_example_key(name, protocol):
    key = (DOCS / "examples" / "example-key.txt").read_text().strip()
    data = (DOCS / "examples" / name).read_bytes()
    report = verify_transcript(data, key=key)
    assert report.exit_code == 0, [c.to_json() for c in report.failed]
    assert json.loads(data)["start"]["rules"]["id"] == "120s-auction" and report.protocol == protocol


def test_the_fairdeal_1_example_is_the_one_its_script_made_byte_for_byte():
    # fairdeal/1 transcripts keep verifying as they are: the writer still makes exactly the bytes it made then
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_example_game", ROOT / "scripts" / "make_example_game.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    for name, text in script.examples().items():
        assert (DOCS / "examples" / name).read_text(encoding="utf-8") == text, name


def _paths(obj, path=()):
    yield path
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, path + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj[:8]):
            yield from _paths(v, path + (i,))


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**60), 2**60)
    | st.text(max_size=8)
    | st.sampled_from(["AS", "10H", "ed25519:x", "0" * 64, "fairdeal/1", "play", "bot"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)
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
        return  # the value drawn was the one already there
    report = verify_transcript(t, key=SERVER_PUBLIC)
    assert report.exit_code in (1, 2)
    assert not (report.unusable or "").startswith("The transcript could not be checked"), report.unusable


def test_a_broken_link_names_its_record_and_the_replay_still_runs():
    t = valid_transcript("spades")
    t["records"][7]["prev"] = "0" * 64
    report = verify_transcript(t, key=SERVER_PUBLIC)
    chain = report.check("hash-chain")
    assert chain.status == "fail" and chain.seq == 8 and chain.code == "prev-broken"
    assert "record 8" in chain.detail.lower()
    # the moves themselves are untouched: the replay checks still pass
    s = statuses(report)
    assert s["deals"] == s["moves-legal"] == s["bot-moves"] == s["result"] == "pass"


def test_a_salt_the_seed_does_not_derive_fails_the_chain_and_the_replay_goes_on():
    t = valid_transcript("120s-auction")
    t["records"][3]["salt"] = "ab" * 32
    report = verify_transcript(resign(t, keep_salts=True), key=SERVER_PUBLIC)
    chain = report.check("hash-chain")
    assert chain.status == "fail" and chain.seq == 4 and chain.code == "salt-wrong" and chain.fields["place"] == 4
    assert [c.id for c in report.failed] == ["hash-chain"]
    assert statuses(report)["result"] == "pass"
