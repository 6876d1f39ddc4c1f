"""`fairdeal play` when players come and go: a player whose service goes away waits it out (backoff) and plays
on; a crashed client comes back with --resume (after a server restart) and misses nothing; a joined player who
quits leaves the seat to the table's bot and is told when and how to fetch the transcript; the host, the joiner
and a watcher in one folder each keep their own file."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys

import pytest

from tests.service.http import serving
from tests.service.play_proc import Proc, _cli
from tests.service.redis_servers import free_port


@pytest.fixture
def env(tmp_path):
    return dict(os.environ, FAIRDEAL_STATE=str(tmp_path / "state"), COLUMNS="200")


def test_an_outage_is_waited_out_and_a_crashed_client_resumes_after_a_restart(tmp_path, env):
    data, port = tmp_path / "data", free_port()
    client = None
    try:
        with serving(data, workers=1, port=port) as base:
            client = Proc(
                _cli("--server", base, "--rules", "spades", "--clocks", "off", "--client-seed", "my words"),
                tmp_path,
                env,
            )
            gid = re.search(r"Table (\w+):", client.until(r"^Table \w+:")).group(1)
            client.until(r"^Your move:")
        # the service is down: the move typed now is sent again, with backoff, until it answers
        client.send("1\n")
        client.until(r"No answer from the service .*trying again in")
        with serving(data, workers=1, port=port) as base:
            client.until(r"^Your move:", 90)  # the move went in; the game goes on
            mine = json.loads((tmp_path / "state" / f"seat-{gid}-0.json").read_text())
            assert mine["receipts"], "the receipt of the move is kept beside the seat"
            client.kill()  # the client crashes
        with serving(data, workers=1, port=port) as base:  # the service restarts too
            back = Proc(_cli("--server", base, "--resume", gid, "--auto"), tmp_path, env, stdin=False)
            out = back.finish(180)
        assert back.p.returncode == 0, out
        assert "You are back at seat 0" in out and "VERIFIED" in out and "PASS  receipts" in out
        assert "PASS  client-seeds" in out, "the seed kept beside the seat is checked"
        saved = json.loads((tmp_path / f"fairdeal-game-{gid}-seat0.json").read_text())
        assert saved["end"]["reason"] == "finished"
        assert not (tmp_path / "state" / f"seat-{gid}-0.json").exists(), "a finished seat is forgotten"
        # the story told after coming back is the whole game: every move of ours is in it
        at = int(re.search(r"You are back at seat 0 \(move (\d+)\)", out).group(1))
        before = [r for r in saved["records"] if r["seat"] == 0 and r["by"] == "player" and r["seq"] <= at]
        assert before and out.count("  you: ") == len(before)
    finally:
        if client:
            client.kill()


def test_resume_without_a_saved_seat_says_where_it_looked(tmp_path, env):
    r = subprocess.run(
        _cli("--resume", "nosuchtable"), cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 2 and "No seat at table nosuchtable is saved in" in r.stderr


def test_a_joined_player_who_quits_leaves_the_seat_to_the_bot_and_is_told_how_to_fetch_the_file(tmp_path, env):
    with serving(tmp_path / "data", workers=1) as base:
        host = Proc(
            _cli("--server", base, "--rules", "spades", "--clocks", "off", "--wait", "--auto", "--name", "host"),
            tmp_path,
            env,
        )
        procs = [host]
        try:
            gid = re.search(r"--join (\w+)", host.until(r"--join \w+")).group(1)
            guest = Proc(_cli("--server", base, "--join", gid, "--seat", "2", "--name", "guest"), tmp_path, env)
            fan = Proc(_cli("--server", base, "--watch", gid, "--name", "fan"), tmp_path, env, stdin=False)
            procs += [guest, fan]
            host.until(r"2 guest")
            host.send("\n")  # Enter starts the table
            guest.until(r"^Your move:")
            guest.send("q\n")
            guest.until(r"bot will play your seat until you come back")
            guest.send("n\n")  # not yet: a stray q does not leave
            guest.send("q\n")
            guest.until(r"bot will play your seat until you come back")  # asked again: the first answer was no
            guest.send("y\n")
            g_out = guest.finish(60)
            assert guest.p.returncode == 0, g_out
            assert "Game over: None" not in g_out and "Transcript saved" not in g_out
            assert "You left seat 2." in g_out and "The game goes on at the table." in g_out
            cmd = next(x for x in g_out.splitlines() if x.strip().startswith("fairdeal-verify "))
            h_out, f_out = host.finish(180), fan.finish(60)
            assert host.p.returncode == 0 and fan.p.returncode == 0, h_out + f_out
            assert "Game over: finished." in h_out and "VERIFIED" in h_out and "VERIFIED" in f_out
            host_file = tmp_path / f"fairdeal-game-{gid}-seat0.json"
            fan_file = tmp_path / f"fairdeal-game-{gid}-watch.json"
            t = json.loads(host_file.read_text())
            assert json.loads(fan_file.read_text())["end"] == t["end"], "each keeps its own file, the same game"
            assert {r["by"] for r in t["records"] if r["seat"] == 2} == {"stand-in"}, "it left at its first turn"
            assert "  guest (the table's bot standing in): " in f_out, "the watcher is told who stands in"
            # --watch tells every trick (the table after each one is tests/client/test_story.py's: how many
            # batches the watcher got, and so how many tables it drew, depends on how fast it read)
            plays = sum(1 for r in t["records"] if r["move"]["kind"] == "play")
            assert len(re.findall(r"takes the trick with", f_out)) == plays // 4, f_out[-3000:]
            # the command the guest was given verifies the game once it has ended (fetched from the service)
            args = shlex.split(cmd)[1:]
            r = subprocess.run(
                [sys.executable, "-c", "from fairdeal.verify.cli import main; main()", *args],
                capture_output=True,
                text=True,
                timeout=120,
            )
            assert r.returncode == 0 and "VERIFIED" in r.stdout, r.stdout + r.stderr
        finally:
            for p in procs:
                p.kill()


def test_the_terminal_lobby_lists_games_to_watch_without_repeating_the_rules(tmp_path, env):
    with serving(tmp_path / "data", workers=1) as base:
        from fairdeal.client.http import Client

        c = Client(base)
        c.token = c.post("/players", {"name": "host"})["token"]
        for _ in range(2):
            c.post("/tables", {"rule_set": "120s-auction", "clocks": "off"})
        t = c.post("/tables", {"rule_set": "spades", "clocks": "off"})
        c.post(f"/tables/{t['id']}/start")
        r = subprocess.run(_cli("--server", base, "--lobby"), env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "Games being played:" in r.stdout and f"--watch {t['id']}" in r.stdout
    assert len(r.stdout) < 1200, "the lobby repeats a long rules paragraph for every table"


def test_the_end_of_a_game_shows_the_score_sheet_of_every_hand(tmp_path, env):
    with serving(tmp_path / "data", workers=1) as base:
        r = subprocess.run(
            _cli("--server", base, "--rules", "120s-auction", "--auto", "--clocks", "off"),
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=180,
        )
        assert r.returncode == 0, r.stdout + r.stderr
        gid = re.search(r"Table (\w+):", r.stdout).group(1)
        from fairdeal.client.http import Client

        hands = Client(base).get(f"/games/{gid}/sheet")["hands"]
    sheet = r.stdout.split("Score sheet:\n", 1)[1].split("Game over:", 1)[0]
    numbers = [int(m) for m in re.findall(r"^  Hand (\d+)", sheet, re.M)]
    assert numbers == [h["hand_number"] + 1 for h in hands] and len(numbers) >= 1
    assert "Scores: " in sheet.splitlines()[-1]


def test_the_rules_are_shown_in_short_sections_and_question_mark_shows_the_drumpf_order(tmp_path, env):
    with serving(tmp_path / "data", workers=1) as base:
        p = Proc(_cli("--server", base, "--rules", "120s-auction", "--clocks", "off"), tmp_path, env)
        try:
            p.until(r"^Your move:")
            p.send("?\n")
            p.until(r"Drumpfs, highest first:")
            p.send("q\n")
            p.send("y\n")
            out = p.finish(120)
        finally:
            p.kill()
    head = out.split("Your move:", 1)[0]
    assert '"Drumpf" is what 120s (Auction) calls the trump suit' in head
    assert "  Card order:" in head and "  Scoring:" in head
    assert max(len(line) for line in head.splitlines()) < 200, "no 1,700-character paragraph"
    assert "  S: 5S JS AH AS KS QS" in out
