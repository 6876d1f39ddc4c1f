"""`--explain` / `--seat`: the story is complete (every card in one trick line, every hand, the result) and
uses each rule set's words."""

import re

import pytest

from fairdeal.core.fairness import game_seed, server_seed_from_hex
from fairdeal.core.games import available
from fairdeal.core.replay import LiveGame
from fairdeal.verify.explain import explain_game
from tests.verifier.tamper_kit import valid_transcript

TRICK = re.compile(r"^  Trick (\d+): (.*?)(?: — (.+) wins it with (.+?)(?:, (.*))?\.)?$")


def trick_lines(story):
    return [TRICK.match(line) for line in story.splitlines() if line.startswith("  Trick ")]


@pytest.mark.parametrize("rule_set", available())
def test_every_card_played_is_told_once_in_order_and_every_trick_has_a_winner(rule_set):
    t = valid_transcript(rule_set)
    story = explain_game(t)
    told = []
    for m in trick_lines(story):
        assert m is not None and m.group(3), "each trick line names who won it"
        told += [tuple(p.rsplit(" ", 1)) for p in m.group(2).split(", ")]
    played = [
        (t["start"]["seats"][r["seat"]]["name"].split(" (")[0], r["move"]["card"])
        for r in t["records"]
        if r["move"]["kind"] == "play"
    ]
    assert [card for _, card in told] == [card for _, card in played]
    assert [who.rsplit(" ", 1)[0] for who, _ in told] == [who for who, _ in played]


@pytest.mark.parametrize("rule_set", available())
def test_every_hand_is_told_and_the_story_ends_with_the_result(rule_set):
    t = valid_transcript(rule_set)
    story = explain_game(t)
    seeds = [s["client_seed"] for s in t["start"]["seats"]]
    game = LiveGame(t["start"], game_seed(server_seed_from_hex(t["end"]["server_seed"]), seeds))
    for r in t["records"]:
        game.apply_record(r)
    assert story.count("\nHand ") == len(game.state.deals)
    winners = " & ".join(t["start"]["seats"][w]["name"] for w in t["end"]["result"]["winners"])
    assert story.rstrip().splitlines()[-1].startswith(f"The game is over: {winners} won.")
    assert "Score:" in story


def test_auction_120s_says_drumpf_and_where_the_ten_point_trick_went():
    story = explain_game(valid_transcript("120s-auction"))
    assert "drumpf" in story and " trump" not in story
    ten = re.findall(r"The 10-point trick was trick (\d+): (.+?) took it with (.+?), the highest card", story)
    assert ten and all(1 <= int(n) <= 5 for n, _, _ in ten)


def test_other_rule_sets_say_trump():
    for rule_set in ("120s-house", "spades", "twenty-down"):
        story = explain_game(valid_transcript(rule_set))
        assert "drumpf" not in story


def test_seat_shows_only_that_seats_cards():
    t = valid_transcript("spades")
    story = explain_game(t, seat=2)
    holds = [line for line in story.splitlines() if " holds: " in line]
    assert holds and all(line.strip().startswith(t["start"]["seats"][2]["name"] + " holds:") for line in holds)
    assert all(len(line.split(": ", 1)[1].rstrip(".").split()) == 13 for line in holds)
    assert " holds: " not in explain_game(t)


def test_spades_hand_end_tells_bids_tricks_and_contracts():
    story = explain_game(valid_transcript("spades"))
    assert "Bid / taken:" in story and "contract" in story


def test_twenty_down_tells_who_dropped_out_or_stayed():
    story = explain_game(valid_transcript("twenty-down"))
    assert "drops out" in story or "stays in" in story
    assert "Tricks taken:" in story


def test_the_story_tells_each_failed_check_where_it_happened_from_the_structured_result():
    from fairdeal.core.checks import verify_transcript
    from tests.verifier.tamper_kit import SERVER_PUBLIC, resign

    t = valid_transcript("spades")
    i = next(i for i, r in enumerate(t["records"]) if r["by"] == "bot" and r["move"]["kind"] == "bid")
    t["records"][i]["move"]["value"] = (t["records"][i]["move"]["value"] + 1) % 14
    t["end"]["result"]["scores"][0] += 1
    resign(t)
    report = verify_transcript(t, key=SERVER_PUBLIC)
    bot = report.check("bot-moves")
    story = explain_game(t, checks=report.checks)
    lines = story.splitlines()
    at = next(n for n, line in enumerate(lines) if line.startswith("  >> bot-moves fails here:"))
    assert lines[at] == f"  >> bot-moves fails here: {bot.detail}."
    assert f"bids {t['records'][i]['move']['value']}" in lines[at - 1], "told right after the record it is about"
    if report.check("result").failed:
        assert lines[-1] == f">> result fails: {report.check('result').detail}."
    assert ">>" not in explain_game(valid_transcript("spades"), checks=[])


def test_a_table_that_never_started_tells_who_did_not_reveal():
    from tests.verifier.tamper_kit import aborted_transcript

    story = explain_game(aborted_transcript("spades"))
    assert story.startswith("The table never started: player 2 (seat 2) did not reveal the client seed committed to")
