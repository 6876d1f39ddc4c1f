"""`fairdeal play` tells a game in order: every other seat's move, each trick's winner, and each hand's result
(with the points each side took) after the hand's last move and before the next hand's first — for every rule
set, on real games fed to the client in the batches a seated player receives."""

from __future__ import annotations

import re

import click
import pytest
from click.testing import CliRunner

from fairdeal.client.play import Session
from fairdeal.core.keys import private_key_from_hex
from fairdeal.core.selfplay import selfplay
from tests.client.engine_hands import engine_ends, live_game, tricks_done

KEY = private_key_from_hex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")


class Feed:
    """Stands in for the service's event feed: each answer is the records up to seat 0's next turn and seat 0's
    view after them, as GET /games/{id}/events gives them."""

    def __init__(self, t: dict, seed: bytes):
        self.t, self.records = t, t["records"]
        self.game = live_game(t, seed)
        self.at = 0
        self.seats = [
            {"seat": s["seat"], "name": s["name"], "bot": s["bot"], "gone": False} for s in t["start"]["seats"]
        ]

    def get(self, path: str, timeout: float = 30):
        after = int(re.search(r"after=(\d+)", path).group(1))
        assert after == self.at, "the client asked from another place than where it stopped"
        batch = []
        while self.at < len(self.records):
            rec = self.records[self.at]
            if batch and rec["seat"] == 0:  # seat 0 is to move: the batch stops here
                break
            self.game.apply_record(rec, chain=False)
            batch.append(rec)
            self.at += 1
        over = self.at == len(self.records)
        state = self.game.state
        game = {
            "seat": 0,
            "seats": self.seats,
            "seq": self.at,
            "status": "over" if over else "playing",
            "view": state.view(0),
            "your_turn": False,
            "result": state.result if over else None,
        }
        return {"seq": self.at, "ended": over, "records": batch, "game": game}

    wait_get = get  # the client's feed request (made again after errors; none here)


@pytest.mark.parametrize("rule_set", ["120s-auction", "120s-house", "120s-traditional", "spades", "twenty-down"])
def test_each_hands_result_is_told_after_its_last_move_and_before_the_next_hands_first(rule_set):
    seed = bytes([len(rule_set)] * 32)
    t = selfplay(rule_set, KEY, seed, bots=(1, 2, 3), timeout_every=0)
    feed = Feed(t, seed)
    session = Session(feed, "g", rule_set=rule_set, players=4)
    session.stream = None  # the fake answers the long-poll form of the feed (the stream's batches are alike)

    @click.command()
    def tell():
        while True:
            game = session.feed(0)
            if game["status"] == "over":
                return

    out = CliRunner().invoke(tell).output.splitlines()
    ends = dict(engine_ends(t, seed))
    # what the client prints, reduced to moves ("rec") and hand ends ("hand")
    said = []
    for line in out:
        if re.match(r"  \S", line) and not re.search(r"take(s)? the trick", line):
            said.append("rec")  # a move ("  bot 1: bid 20"); a hand's details are indented further
        elif re.match(r"(Hand|Deal) \d+ over", line):
            said.append("hand")
        elif line.startswith("A new deal"):
            said.append("new-deal")
    expected = []
    for rec in t["records"]:
        if rec["seat"] != 0:
            expected.append("rec")
        if rec["seq"] in ends:
            expected.append(ends[rec["seq"]])
    assert said == expected
    text = "\n".join(out)
    assert re.search(r"takes? the trick with", text)
    if rule_set.startswith("120s"):
        assert re.search(r"\n    Points taken: you & bot 2 \d+, bot 1 & bot 3 \d+", text)
    if rule_set == "spades":
        assert re.search(r"\n    you & bot 2: bid \d+, took \d+, (made|set)", text)
    if rule_set == "twenty-down":
        assert re.search(r"\n    you (\d trick\(s\), [+-]\d+|out); bot 1 ", text)


@pytest.mark.parametrize("rule_set", ["120s-auction", "spades", "twenty-down"])
def test_every_tricks_winner_is_told_the_last_of_each_hand_too(rule_set):
    seed = bytes([3 + len(rule_set)] * 32)
    t = selfplay(rule_set, KEY, seed, bots=(1, 2, 3), timeout_every=0)
    done = tricks_done(t, seed)
    feed = Feed(t, seed)
    session = Session(feed, "g", rule_set=rule_set, players=4)
    session.stream = None  # the fake answers the long-poll form of the feed (the stream's batches are alike)

    @click.command()
    def tell():
        while session.feed(0)["status"] != "over":
            pass

    out = CliRunner().invoke(tell).output
    assert len(re.findall(r"takes? the trick", out)) == done


def test_a_spades_trick_is_taken_by_the_highest_spade_else_the_highest_of_the_suit_led():
    from fairdeal.client.text import spades_trick

    t = selfplay("spades", KEY, bytes([9] * 32), bots=(1, 2, 3), timeout_every=0)
    game, checked = live_game(t, bytes([9] * 32)), 0
    for rec in t["records"]:
        game.apply_record(rec, chain=False)
        for trick in game.state.view(None)["tricks"]:
            assert spades_trick(trick["plays"])["winner"] == trick["winner"]
            assert spades_trick(trick["plays"])["winning_card"] == trick["winning_card"]
            checked += 1
    assert checked > 100


class WatcherFeed(Feed):
    """The feed as a watcher (no seat) receives it when it keeps up: a batch per move."""

    def get(self, path: str, timeout: float = 30):
        after = int(re.search(r"after=(\d+)", path).group(1))
        assert after == self.at
        rec = self.records[self.at]
        self.game.apply_record(rec, chain=False)
        self.at += 1
        over = self.at == len(self.records)
        game = {
            "seat": None,
            "seats": self.seats,
            "seq": self.at,
            "status": "over" if over else "playing",
            "view": self.game.state.view(None),
            "your_turn": False,
            "result": self.game.state.result if over else None,
        }
        return {"seq": self.at, "ended": over, "records": [rec], "game": game}

    wait_get = get


def test_a_watcher_that_keeps_up_is_shown_the_table_after_every_trick():
    """`fairdeal play --watch`: after each trick's winner, the table as it stands (the trick just taken, the
    scores), except after the game's last move; never a hand (a watcher has none)."""
    seed = bytes([21] * 32)
    t = selfplay("spades", KEY, seed, bots=(0, 1, 2, 3), timeout_every=0)
    feed = WatcherFeed(t, seed)
    session = Session(feed, "g", rule_set="spades", players=4)
    session.stream = None

    @click.command()
    def tell():
        while session.feed(0)["status"] != "over":
            pass

    out = CliRunner().invoke(tell).output
    tricks = tricks_done(t, seed)
    # a trick that ends a hand leaves the view in the next hand: the table then has no "Last trick" line
    hands = len(t["end"]["deals"])
    assert len(re.findall(r"takes the trick", out)) == tricks
    assert tricks - hands <= out.count("Last trick: ") <= tricks - 1
    table_scores = re.findall(r"^Scores: ", out, re.M)  # a hand's result has its own, indented
    assert len(table_scores) == tricks - 1, "the table after every trick but the game's last"
    assert "Your hand" not in out
