"""The tamper suite: every kind of change to a valid transcript of every rule set, under fairdeal/2 and
fairdeal/1, is detected, and the report names the check that catches it (the catalogue is in tamper_kit.py).
The few changes the protocol cannot tell from an honest transcript are in the catalogue too, with no check
expected, so that the limits stay written down (docs/fairness.md, "Threat model")."""

import pytest

from fairdeal.core.checks import verify_transcript
from fairdeal.core.games import available
from tests.verifier.tamper_kit import (
    ATTACKER_KEY,
    PROTOCOLS,
    SERVER_PUBLIC,
    TAMPERS,
    aborted_transcript,
    resign,
    run_all,
    run_tamper,
    summary,
    valid_transcript,
)

RULE_SETS = available()


def test_every_rule_set_is_in_the_suite():
    assert set(RULE_SETS) == {"120s-auction", "120s-house", "120s-traditional", "spades", "twenty-down"}


@pytest.mark.parametrize("protocol", PROTOCOLS)
@pytest.mark.parametrize("rule_set", RULE_SETS)
def test_the_untouched_transcript_passes_with_the_servers_key(rule_set, protocol):
    t = valid_transcript(rule_set, protocol)
    assert t["protocol"] == protocol
    report = verify_transcript(t, key=SERVER_PUBLIC)
    assert report.exit_code == 0, [c.to_json() for c in report.failed]


@pytest.mark.parametrize("rule_set", RULE_SETS)
def test_the_untouched_aborted_table_passes_with_the_servers_key(rule_set):
    report = verify_transcript(aborted_transcript(rule_set), key=SERVER_PUBLIC)
    assert report.exit_code == 0, [c.to_json() for c in report.failed]
    assert report.game["unrevealed"] == [2] and report.game["reason"] == "not-revealed"


def _not_applicable(rule_set: str, protocol: str, name: str) -> bool:
    """What does not apply: a setting of a rule set that has none (Spades); what fairdeal/1 does not have (a
    seating, commitments, the end's deals, the deal layout, the log, canonical move forms, aborted tables);
    a throw in a rule set without throws; a ten that was never played in a game."""
    v2_only = (
        "seating",
        "commitment",
        "clocks",
        "deal",
        "log",
        "a ten",
        "lower case",
        "thrown cards",
        "an abort",
        "a bid with",
    )
    return (
        (name.startswith("a setting") and rule_set == "spades")
        or (name.startswith("a bid with") and rule_set == "twenty-down")
        or (protocol == "fairdeal/1" and any(word in name for word in v2_only))
        or (name == "thrown cards out of order" and rule_set == "spades")
    )


@pytest.mark.parametrize("protocol", PROTOCOLS)
@pytest.mark.parametrize("tamper", TAMPERS, ids=[t.name for t in TAMPERS])
@pytest.mark.parametrize("rule_set", RULE_SETS)
def test_tamper_is_detected_and_named(rule_set, tamper, protocol):
    outcome = run_tamper(rule_set, tamper, protocol)
    if not outcome.applied:
        assert _not_applicable(rule_set, protocol, tamper.name), f"{tamper.name} did not apply"
        return
    if outcome.expected is None:
        # a change the protocol leaves free (an unsigned member) or cannot tell from the truth (a documented limit)
        assert outcome.exit_code == 0, f"{tamper.name}: nothing should fail, failed {outcome.failed}"
        return
    assert outcome.exit_code != 0, f"{tamper.name} was not detected"
    assert outcome.expected in outcome.failed, f"{tamper.name}: expected {outcome.expected}, failed {outcome.failed}"


def test_server_rewrites_need_the_replay_not_the_signatures():
    # A server-side rewrite re-signed with the real key passes every signature check: the replay catches it.
    t = resign(valid_transcript("spades"))
    t["end"]["result"]["scores"][1] -= 10
    resign(t)
    report = verify_transcript(t, key=SERVER_PUBLIC)
    assert report.check("signature-start").status == "pass"
    assert report.check("signature-transcript").status == "pass"
    assert [c.id for c in report.failed] == ["result"]


def test_a_transcript_resigned_by_another_key_passes_only_without_a_trusted_key():
    t = resign(valid_transcript("twenty-down"), ATTACKER_KEY)
    alone = verify_transcript(t)
    assert alone.exit_code == 0 and alone.key_source == "transcript" and alone.warnings
    assert verify_transcript(t, key=SERVER_PUBLIC).exit_code == 1
    assert verify_transcript(t, pins={"svc": SERVER_PUBLIC}).exit_code == 1


def test_tamper_summary_line(capsys):
    outcomes = run_all(["120s-auction", "twenty-down"])
    line = summary(outcomes)
    tried = sum(o.applied for o in outcomes)
    assert f"{tried} changes tried" in line and f"{tried} detected" in line and f"{tried} named" in line
    assert "2 protocols" in line
    with capsys.disabled():
        print("\n" + line)
