"""fairdeal/2 clocks by decision kind (docs/transcript.md, "start"): `card` times the decisions whose moves are cards
to play, `other` every other one. At a table with one kind's clock off a timeout there is a player's move the
server relabelled: the verifier fails it, even re-signed by the server itself."""

import copy
from functools import cache

import pytest

from fairdeal.core.checks import verify_transcript
from fairdeal.core.selfplay import selfplay
from tests.verifier.tamper_kit import SERVER_KEY, SERVER_PUBLIC, SERVER_SEED, resign


@cache
def _game(card, other):
    return selfplay(
        "spades", SERVER_KEY, SERVER_SEED, bots=(1, 3), clocks={"card": card, "other": other}, timeout_every=3
    )


def game(card, other):
    return copy.deepcopy(_game(card, other))


def relabel_first(t, kind):
    """The first player's move of `kind` ("play" or any other) relabelled as a timeout, everything re-signed. Human
    moves of selfplay are the timeout policy's choices, so only the clock can tell."""
    for rec in t["records"]:
        if rec["by"] == "player" and (rec["move"]["kind"] == "play") == (kind == "play"):
            rec["by"] = "timeout"
            return resign(t)
    raise AssertionError(f"no player move of kind {kind}")


@pytest.mark.parametrize("card, other, kind", [(None, 30, "play"), (25, None, "bid")])
def test_a_timeout_where_that_kind_has_no_clock_fails_even_re_signed(card, other, kind):
    report = verify_transcript(relabel_first(game(card, other), kind), key=SERVER_PUBLIC)
    failed = {c.id: c for c in report.failed}
    assert report.exit_code == 1 and set(failed) == {"timeout-moves"}
    assert failed["timeout-moves"].code == "timeout-kind-without-clock"
    assert ("card" if card is None else "other") in failed["timeout-moves"].detail
    # the game as played verifies: its own timeouts are all of the kind that has a clock
    t = game(card, other)
    assert verify_transcript(t, key=SERVER_PUBLIC).exit_code == 0
    timeouts = [r for r in t["records"] if r["by"] == "timeout"]
    assert timeouts and all((r["move"]["kind"] == "play") == (card is not None) for r in timeouts)


def test_a_timeout_where_that_kind_has_a_clock_passes():
    # the control: the same relabelling at a decision of the clocked kind is indistinguishable from a timeout
    report = verify_transcript(relabel_first(game(None, 30), "bid"), key=SERVER_PUBLIC)
    assert report.exit_code == 0, [c.to_json() for c in report.failed]


def test_the_clock_keys_and_the_older_all_or_nothing_reading():
    from fairdeal.core.transcript import clocked_kinds

    assert clocked_kinds({"card": None, "other": 30}) == {"other"}
    assert clocked_kinds({"card": 25}) == {"card"}  # a kind not named has no clock
    assert clocked_kinds({"card": None, "other": None}) == set()
    # clocks naming neither key (docs/examples: play_seconds, decide_seconds): every kind or none
    assert clocked_kinds({"play_seconds": 25, "decide_seconds": 30}) == {"card", "other"}
    assert clocked_kinds({"play_seconds": None, "decide_seconds": 30}) == set()
    assert clocked_kinds({}) == set()
