"""fairdeal-verify on whole blind Spades games (docs/blind.md, "The transcript"; docs/verify.md, blind-*)."""

from __future__ import annotations

import copy

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from fairdeal.core.blind.messages import sign
from fairdeal.core.blind.selfplay import blind_selfplay, seat_identity
from fairdeal.core.checks import verify_transcript
from fairdeal.core.selfplay import selfplay
from fairdeal.core.writer import sign_transcript

KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
SEED = bytes(range(32))
SHORT = 60  # moves: the first hand and the start of the second
IDENTITIES = [seat_identity(SEED, s) for s in range(4)]  # a cheating seat signs what it sends


def statuses(report):
    return {c.id: c.status for c in report.checks}


def _cheat(seat: int, kind: str, change):
    """A tamper hook: the first `kind` message of `seat` changed by change(message), signed again by the seat."""
    done = []

    def tamper(m):
        if m["type"] == kind and m["seat"] == seat and not done:
            done.append(1)
            m = copy.deepcopy(m)
            change(m)
            return sign(IDENTITIES[seat], m)
        return m

    return tamper


@pytest.fixture(scope="module")
def whole_game():
    return blind_selfplay(KEY, SEED, bots=(3,))


def test_a_whole_blind_game_with_a_bot_verifies(whole_game):
    report = verify_transcript(whole_game)
    assert report.ok, [c.detail for c in report.failed]
    checks = {c.id: c for c in report.checks}
    assert checks["blind-deal"].fields["deals"] == len(whole_game["end"]["deals"]) > 1
    assert checks["blind-opens"].fields["plays"] == sum(r["move"]["kind"] == "play" for r in whole_game["records"])
    assert "blind shuffles" in checks["deals"].detail


def test_four_humans_verify():
    t = blind_selfplay(KEY, SEED, bots=(), stop_after=SHORT)
    report = verify_transcript(t)
    assert report.ok, [c.detail for c in report.failed]
    assert statuses(report)["blind-blame"] == "pass"


def test_the_blind_deal_is_not_the_seed_deal(whole_game):
    """The seed's deal would give other hands: the blind member, removed, leaves a transcript that fails."""
    t = copy.deepcopy(whole_game)
    del t["blind"]
    t["signature"] = sign_transcript(KEY, t)
    report = verify_transcript(t)
    assert statuses(report)["blind-deal"] == "skip"
    assert statuses(report)["deals"] == "fail"


def test_the_final_signature_covers_the_blind_messages(whole_game):
    t = copy.deepcopy(whole_game)
    t["blind"]["blame"] = [2]
    assert statuses(verify_transcript(t))["signature-transcript"] == "fail"


def test_an_ordinary_game_skips_the_blind_checks():
    report = verify_transcript(selfplay("spades", KEY, SEED, stop_after=10))
    assert report.ok
    assert {statuses(report)[c] for c in ("blind-messages", "blind-deal", "blind-opens", "blind-blame")} == {"skip"}


def _tampered(tamper, blame=None):
    return verify_transcript(blind_selfplay(KEY, SEED, stop_after=SHORT, tamper=tamper, blame=blame))


def test_a_wrong_key_in_a_release_fails_and_is_blamed():
    def wrong(m):
        h = sorted(m["keys"])[0]
        j = sorted(m["keys"][h], key=int)[0]
        m["keys"][h][j] = "%064x" % (int(m["keys"][h][j], 16) ^ 1)

    report = _tampered(_cheat(1, "release", wrong))
    deal = report.check("blind-deal")
    assert (deal.status, deal.code, deal.fields["seat"]) == ("fail", "blind-release-wrong-key", 1)
    assert report.check("blind-blame").status == "pass" and report.check("blind-blame").fields["named"] == [1]


def test_a_non_permutation_shuffle_fails_and_names_the_seat():
    def dup(m):
        m["deck"][3] = m["deck"][4]

    report = _tampered(_cheat(2, "shuffle", dup))
    deal = report.check("blind-deal")
    assert (deal.status, deal.code, deal.fields["seat"]) == ("fail", "blind-shuffle-not-permutation", 2)
    assert "seat 2" in deal.detail


def test_a_cheat_the_end_does_not_name_is_still_named():
    def dup(m):
        m["deck"][3] = m["deck"][4]

    report = _tampered(_cheat(0, "shuffle", dup), blame=[])
    blame = report.check("blind-blame")
    assert (blame.status, blame.fields["claimed"], blame.fields["named"]) == ("pass", [], [0])
    assert "seat 0" in blame.detail
    assert report.check("blind-deal").status == "fail" and report.check("blind-deal").fields["seat"] == 0


def test_a_server_that_blames_an_honest_seat_fails_blame():
    t = blind_selfplay(KEY, SEED, stop_after=SHORT, blame=[2])
    report = verify_transcript(t)
    blame = report.check("blind-blame")
    assert (blame.status, blame.code, blame.fields["framed"]) == ("fail", "blind-blame-framed", [2])
    assert [c.id for c in report.failed] == ["blind-blame"]


def test_a_missing_reveal_names_the_seat():
    report = verify_transcript(blind_selfplay(KEY, SEED, stop_after=SHORT, unrevealed=(1,)))
    messages = report.check("blind-messages")
    assert (messages.status, messages.code, messages.fields["seat"]) == ("fail", "blind-missing-reveal", 1)
    assert report.check("blind-blame").fields["named"] == [1]


def test_a_skipped_release_names_the_seat():
    def skip(m):
        h = sorted(m["keys"])[0]
        del m["keys"][h][sorted(m["keys"][h], key=int)[0]]

    report = _tampered(_cheat(3, "release", skip))
    deal = report.check("blind-deal")
    assert (deal.code, deal.fields["seat"]) == ("blind-release-skipped", 3)


def test_a_play_without_its_open_fails():
    def drop_first_open(messages):
        first = next(i for i, m in enumerate(messages) if m["type"] == "open")
        return messages[:first] + messages[first + 1 :]

    t = blind_selfplay(KEY, SEED, stop_after=SHORT, edit=drop_first_open)
    report = verify_transcript(t)
    opens = report.check("blind-opens")
    assert (opens.status, opens.code) == ("fail", "blind-play-not-opened")


def test_without_every_reveal_the_replay_is_not_guessed():
    report = verify_transcript(blind_selfplay(KEY, SEED, stop_after=SHORT, unrevealed=(2,)))
    for cid in ("blind-opens", "deals", "moves-legal", "result"):
        assert (report.check(cid).status, report.check(cid).code) == ("skip", "blind-deal-unknown")
    assert not report.ok


def test_explain_tells_a_blind_game_from_its_blind_deal(tmp_path):
    from fairdeal.verify.explain import explain_game

    t = blind_selfplay(KEY, SEED, stop_after=SHORT)
    story = explain_game(t, checks=verify_transcript(t).checks)
    assert "does not replay" not in story and "Hand 2:" in story
