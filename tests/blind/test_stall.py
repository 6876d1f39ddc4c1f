"""A stall's blame is held to the transcript (docs/blind.md, "Aborts"; fairdeal.core.blind.stall): the abort record
of a seat that did not send its step or move in time verifies and names the seat; moved to a seat that was not
due, to a seat whose message is in the log, declared before its deadline, or malformed, it fails blind-blame as
the server's fault."""

from __future__ import annotations

import copy

import pytest

from fairdeal.core.blind.selfplay import blind_selfplay
from fairdeal.core.checks import verify_transcript
from fairdeal.core.writer import sign_transcript
from tests.blind.stall_kit import KEY, SEED, SHORT, hand_lengths, to_move, with_abort


@pytest.fixture(scope="module")
def step_stall() -> tuple[dict, int]:
    """A game whose second deal stops at seat 2's lock (seat 2 sends nothing more, reveals nothing): the records
    end with the first hand."""
    first = hand_lengths(blind_selfplay(KEY, SEED, bots=(), stop_after=SHORT))[0]

    def stop_at_lock(messages):
        cut = next(i for i, m in enumerate(messages) if m.get("deal") == 1 and (m["type"], m["seat"]) == ("lock", 2))
        return messages[:cut] + [m for m in messages[cut:] if m["type"] == "reveal"]

    t = blind_selfplay(KEY, SEED, bots=(), stop_after=first, edit=stop_at_lock, unrevealed=(2,), blame=[2])
    return t, first


@pytest.fixture(scope="module")
def move_stall() -> tuple[dict, int]:
    """A game stopped before move SHORT + 1, its seat silent but revealing (so only the abort record blames it)."""
    t = blind_selfplay(KEY, SEED, bots=(), stop_after=SHORT)
    seat = to_move(t)
    return blind_selfplay(KEY, SEED, bots=(), stop_after=SHORT, blame=[seat]), seat


def _step_abort(**change) -> dict:
    return {"seat": 2, "why": "step-timeout", "deal": 1, "step": "lock", **change}


def test_an_honest_step_stall_verifies_and_names_the_seat(step_stall):
    t, _ = step_stall
    report = verify_transcript(with_abort(t, **_step_abort()))
    blame = report.check("blind-blame")
    assert (blame.status, blame.code, blame.fields["named"]) == ("pass", "blind-blame-ok", [2])
    deal = report.check("blind-deal")  # the missing lock is seat 2's fault, no other seat's, not the server's
    assert (deal.code, deal.fields["seat"], deal.fields["type"]) == ("blind-missing-message", 2, "lock")
    assert all(c.fields.get("seat") == 2 for c in report.failed)


def test_an_honest_move_stall_verifies_naming_the_seat_only_the_abort_blames(move_stall):
    t, seat = move_stall
    without = verify_transcript(t)  # no abort record: nothing shows the seat at fault
    assert without.check("blind-blame").code == "blind-blame-framed"
    abort = {"seat": seat, "why": "move-timeout", "deal": 1, "step": "move", "seq": SHORT + 1}
    report = verify_transcript(with_abort(t, **abort))
    assert report.ok, [c.detail for c in report.failed]
    blame = report.check("blind-blame")
    assert (blame.code, blame.fields["claimed"], blame.fields["named"]) == ("blind-blame-ok", [seat], [seat])


def _framed(report) -> str:
    blame = report.check("blind-blame")
    assert (blame.status, blame.code, blame.fields["seat"] if "seat" in blame.fields else None) == (
        "fail",
        "blind-stall-framed",
        None,
    ), blame.fields
    return blame.fields["reason"]


@pytest.mark.parametrize(
    "seat, reason",
    [(3, "not-due"), (1, "present")],
    ids=["blame-moved-to-a-seat-not-due", "blame-of-a-seat-whose-message-is-in-the-log"],
)
def test_a_step_stall_blamed_on_another_seat_is_framed(step_stall, seat, reason):
    t, _ = step_stall
    t = copy.deepcopy(t)
    t["blind"]["blame"] = [seat]
    assert _framed(verify_transcript(with_abort(t, **_step_abort(seat=seat)))) == reason


def test_a_move_stall_of_a_seat_whose_turn_it_was_not_is_framed(move_stall):
    t, seat = move_stall
    other = (seat + 1) % 4
    t = copy.deepcopy(t)
    t["blind"]["blame"] = [other]
    abort = {"seat": other, "why": "move-timeout", "deal": 1, "step": "move", "seq": SHORT + 1}
    assert _framed(verify_transcript(with_abort(t, **abort))) == "not-their-turn"


def test_a_move_stall_of_a_move_that_is_recorded_is_framed(move_stall):
    t, seat = move_stall
    last = t["records"][-1]
    abort = {"seat": last["seat"], "why": "move-timeout", "deal": 1, "step": "move", "seq": SHORT}
    assert _framed(verify_transcript(with_abort(t, **abort))) in ("not-next-move", "not-their-turn")


def test_a_stall_declared_before_its_deadline_fails(step_stall):
    t, _ = step_stall
    early = with_abort(t, **_step_abort(at="2026-01-01T00:29:49.99Z"))
    assert _framed(verify_transcript(early)) == "before-deadline"
    late = with_abort(t, **_step_abort(at="2026-01-01T01:00:00.01Z"))  # after the game's end
    assert _framed(verify_transcript(late)) == "after-end"


def test_a_deadline_before_the_tables_clock_allows_fails(move_stall):
    _, seat = move_stall
    # the card due at move 61 had ten minutes from the last time the transcript shows (its start: no record has one)
    t = blind_selfplay(KEY, SEED, bots=(), stop_after=SHORT, blame=[seat], clocks={"card": 600, "other": 600})
    abort = {"seat": seat, "why": "move-timeout", "deal": 1, "step": "move", "seq": SHORT + 1}
    early = dict(abort, deadline="2026-01-01T00:05:00.00Z", at="2026-01-01T00:06:00.00Z")
    assert _framed(verify_transcript(with_abort(t, **early))) == "deadline-too-early"
    fine = dict(abort, deadline="2026-01-01T00:10:01.00Z", at="2026-01-01T00:11:00.00Z")
    assert verify_transcript(with_abort(t, **fine)).check("blind-blame").code == "blind-blame-ok"


def test_after_must_split_the_log_at_the_abort(step_stall):
    t, _ = step_stall
    assert _framed(verify_transcript(with_abort(t, **_step_abort(after=10)))) == "after"


@pytest.mark.parametrize(
    "change, says",
    [
        ({"why": "slow"}, "'why'"),
        ({"step": "move"}, "names the step"),
        ({"seq": 3}, "exactly the members"),
        ({"after": 10**6}, "'after'"),
        ({"seat": 4}, "'seat'"),
        ({"at": "yesterday"}, "ISO 8601"),
        ({"deadline": None}, "'deadline'"),
    ],
)
def test_a_malformed_abort_record_is_unknown(step_stall, change, says):
    t, _ = step_stall
    report = verify_transcript(with_abort(t, **_step_abort(**change)))
    blame = report.check("blind-blame")
    assert (blame.status, blame.code) == ("fail", "blind-stall-unknown")
    assert says in blame.fields["reason"], blame.fields["reason"]


def test_an_abort_record_without_a_member_is_unknown(step_stall):
    t, _ = step_stall
    t = with_abort(t, **_step_abort())
    del t["blind"]["abort"]["after"]
    t["signature"] = sign_transcript(KEY, t)
    assert verify_transcript(t).check("blind-blame").code == "blind-stall-unknown"


def test_the_final_signature_covers_the_abort_record(step_stall):
    t, _ = step_stall
    t = with_abort(t, **_step_abort())
    t["blind"]["abort"]["seat"] = 3
    assert verify_transcript(t).check("signature-transcript").status == "fail"


def _revoke(seat: int) -> dict:
    return {"seat": seat, "why": "revoke", "deal": 0, "step": "move", "seq": 5, "deadline": None}


def test_a_revoke_the_rules_replay_does_not_show_is_framed(move_stall):
    """Every message of the seat is in and right, and its move at seq 5 was legal: nothing shows it at fault."""
    t, _ = move_stall
    seat = t["records"][4]["seat"]
    t = copy.deepcopy(t)
    t["blind"]["blame"] = [seat]
    report = verify_transcript(with_abort(t, **_revoke(seat)))
    blame = report.check("blind-blame")
    assert (blame.status, blame.code, blame.fields["framed"]) == ("fail", "blind-blame-framed", [seat])


def test_a_revoke_in_a_game_whose_deals_cannot_be_derived_is_not_checked():
    t = blind_selfplay(KEY, SEED, bots=(), stop_after=SHORT, unrevealed=(1,))
    seat = t["records"][4]["seat"]
    assert seat != 1
    t["blind"]["blame"] = sorted({1, seat})
    report = verify_transcript(with_abort(t, **_revoke(seat)))
    blame = report.check("blind-blame")
    assert (blame.status, blame.code, blame.fields["seat"]) == ("skip", "blind-blame-unchecked", seat)


def _rechained(t: dict) -> dict:
    """t with every record's and the end's `prev` made again after a record was changed (the server's own chain:
    it signs what it writes), signed again."""
    from fairdeal.core.transcript import record_hash

    for before, record in zip(t["records"], t["records"][1:] + [t["end"]], strict=True):
        record["prev"] = record_hash(before)
    t["signature"] = sign_transcript(KEY, t)
    return t


def test_a_wrong_timeout_move_the_replay_shows_is_blamed_not_framed():
    """Every message of the seat is in and right: only the rules replay shows the fault, at the record the abort
    names (timeout-moves). Blamed on the seat, its blame is not framed; moved to a record the replay passes, it is."""
    t = blind_selfplay(KEY, SEED, bots=(), stop_after=SHORT, timeout_every=2)
    i = next(i for i, r in enumerate(t["records"]) if r["by"] == "timeout" and r["move"]["kind"] == "bid")
    record = t["records"][i]
    record["move"] = {"kind": "bid", "value": (record["move"]["value"] + 1) % 14}  # legal, not the policy's
    seat, seq = record["seat"], record["seq"]
    t["blind"]["blame"] = [seat]
    abort = {"seat": seat, "why": "bad-timeout-move", "deal": 0, "step": "move", "seq": seq, "deadline": None}
    report = verify_transcript(with_abort(_rechained(t), **abort))
    assert (report.check("timeout-moves").status, report.check("timeout-moves").seq) == ("fail", seq)
    blame = report.check("blind-blame")
    assert (blame.status, blame.code, blame.fields["named"]) == ("pass", "blind-blame-ok", [seat])
    wrong = dict(abort, seq=seq + 1)
    assert verify_transcript(with_abort(t, **wrong)).check("blind-blame").code == "blind-blame-framed"
