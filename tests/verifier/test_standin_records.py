"""Stand-in moves ("by": "stand-in", docs/transcript.md "Stand-ins"): the table's bot playing a seated player's
seat is checked as a bot move; a stand-in move that is not the bot's choice, or one for a bot's seat, fails."""

from __future__ import annotations

import copy
from functools import cache

from fairdeal.core.checks import verify_transcript
from fairdeal.core.integrity import game_seed_of
from fairdeal.core.replay import LiveGame
from fairdeal.core.selfplay import selfplay
from tests.verifier.tamper_kit import SERVER_KEY, SERVER_PUBLIC, SERVER_SEED, resign


@cache
def _stood_in(rule_set: str) -> dict:
    # seat 2 is a human; the bot stands in for it from move 9 to move 40, then the player is back
    return selfplay(
        rule_set,
        SERVER_KEY,
        SERVER_SEED,
        bots=(1, 3),
        client_seeds=["n", None, "s", None],
        timeout_every=4,
        variety_every=3,
        stand_ins={2: (9, 40)},
    )


def stood_in(rule_set: str = "spades") -> dict:
    return copy.deepcopy(_stood_in(rule_set))


def test_a_game_with_a_stand_in_verifies_and_counts_its_moves_as_bot_moves():
    for rule_set in ("spades", "120s-auction", "twenty-down"):
        t = stood_in(rule_set)
        mine = [r for r in t["records"] if r["by"] == "stand-in"]
        assert mine and {r["seat"] for r in mine} == {2}
        assert any(r["seat"] == 2 and r["by"] == "player" and r["seq"] > 40 for r in t["records"]), "came back"
        report = verify_transcript(t, key=SERVER_PUBLIC)
        assert report.ok, [(c.id, c.detail) for c in report.checks if c.status != "pass"]
        bots = report.check("bot-moves")
        assert bots.fields["stand_ins"] == len(mine) and "standing in" in bots.detail


def _other_legal(t: dict, index: int):
    """A legal move at record `index` other than the recorded one, or None."""
    game = LiveGame(t["start"], game_seed_of(t))
    for r in t["records"][:index]:
        game.apply_record(r, chain=False, policies=False)
    rec = t["records"][index]
    for m in game.state.legal_moves(rec["seat"]):
        if m.to_json() != rec["move"]:
            return m.to_json()
    return None


def test_a_stand_in_move_that_is_not_the_bots_choice_fails_bot_moves_at_its_own_record():
    t = stood_in()
    for i, r in enumerate(t["records"]):
        other = r["by"] == "stand-in" and _other_legal(t, i)
        if other:
            break
    t["records"][i]["move"] = other
    report = verify_transcript(resign(t), key=SERVER_PUBLIC)
    bots = report.check("bot-moves")
    assert bots.status == "fail" and bots.code == "policy-differs" and bots.seq == i + 1


def test_a_players_move_relabelled_as_a_stand_in_fails_unless_it_is_the_bots_choice():
    t = stood_in()
    i = next(
        i
        for i, r in enumerate(t["records"])
        if r["by"] == "player" and r["seat"] == 0 and i > 3 and _other_legal(t, i) and r["move"] != _bot_choice(t, i)
    )
    t["records"][i]["by"] = "stand-in"
    report = verify_transcript(resign(t), key=SERVER_PUBLIC)
    assert report.check("bot-moves").status == "fail" and report.check("bot-moves").seq == i + 1


def _bot_choice(t: dict, index: int) -> dict:
    game = LiveGame(t["start"], game_seed_of(t))
    for r in t["records"][:index]:
        game.apply_record(r, chain=False, policies=False)
    return game.bot_move(t["records"][index]["seat"]).to_json()


def test_a_stand_in_for_a_bots_seat_fails():
    t = stood_in()
    i = next(i for i, r in enumerate(t["records"]) if r["by"] == "bot")
    t["records"][i]["by"] = "stand-in"
    report = verify_transcript(resign(t), key=SERVER_PUBLIC)
    bots = report.check("bot-moves")
    assert bots.status == "fail" and bots.code == "stand-in-for-bot" and bots.seq == i + 1


def test_fairdeal_1_has_no_stand_in_moves():
    t = selfplay("spades", SERVER_KEY, SERVER_SEED, protocol="fairdeal/1")
    i = next(i for i, r in enumerate(t["records"]) if r["by"] == "player")
    t["records"][i]["by"] = "stand-in"
    report = verify_transcript(resign(t), key=SERVER_PUBLIC)
    assert not report.ok and report.check("moves-legal").code == "unknown-mover"
