"""`fairdeal play`, the terminal client: against a real `fairdeal serve` on a loopback port (the `served` fixture
of test_cli, on the embedded store), a game played with --auto ends, is saved and verifies; an interactive
player's illegal choice is refused with the server's sentence and a legal one is taken; and without a service
the player is told how to start it."""

from __future__ import annotations

import io
import json
import os
import pty
import re
import select
import shlex
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from fairdeal.client.play import Table, parse_move, play, state_lines, throw_hint
from fairdeal.core import fairness
from tests.service.redis_servers import free_port
from tests.service.served import served_fixture  # noqa: F401 - the live-server fixture
from tests.waiting import scaled

ON_SQLITE = pytest.mark.parametrize("served", ["sqlite"], indirect=True)


def _verify_command(output: str) -> list[str]:
    line = next(x for x in output.splitlines() if x.strip().startswith("fairdeal-verify "))
    return shlex.split(line)[1:]


@ON_SQLITE
def test_auto_game_finishes_is_saved_and_verifies(served, tmp_path, capsys):
    out = tmp_path / "game.json"
    r = CliRunner().invoke(
        play,
        ["--server", served, "--rules", "120s-auction", "--auto", "--client-seed", "my lucky words", "--out", str(out)],
    )
    assert r.exit_code == 0, r.output
    assert "Traceback" not in r.output
    saved = json.loads(out.read_text())
    assert saved["end"]["reason"] == "finished"
    assert "Game over: finished." in r.output and "Winners: " in r.output
    # the commitment shown before the game is the one the published transcript reveals the seed for
    assert saved["commit"]["commitment"] in r.output.split("Rules:")[0]
    assert "1 Bot 1 (bot), 2 Bot 2 (bot), 3 Bot 3 (bot)" in r.output
    assert "PASS  client-seeds" in r.output and "PASS  receipts" in r.output and "VERIFIED: all" in r.output
    # the printed command is one the player can run as it stands, and it verifies the saved file
    args = _verify_command(r.output)
    assert args[0] == str(out) and "0:my lucky words" in args and "--receipt" in args
    # the commitment the table showed before the first card is checked, here and in the command
    assert "PASS  commitment-noted" in r.output
    assert args[args.index("--commitment") + 1] == saved["commit"]["commitment"]
    from fairdeal.verify.cli import main as verify_main

    capsys.readouterr()
    with pytest.raises(SystemExit) as done:
        verify_main(args)
    assert done.value.code == 0
    assert "VERIFIED" in capsys.readouterr().out


@ON_SQLITE
def test_without_a_seed_a_random_one_is_committed_revealed_and_printed_in_the_verify_command(served, tmp_path):
    out = tmp_path / "g.json"
    r = CliRunner().invoke(play, ["--server", served, "--rules", "spades", "--auto", "--hands", "1", "--out", str(out)])
    assert r.exit_code == 0, r.output
    seed = r.output.split("Your client seed: ", 1)[1].split()[0]
    assert len(seed) == 32 and int(seed, 16) >= 0, "128 random bits by default"
    assert "Your client seed is revealed (it matches the commitment you gave when you sat down)." in r.output
    saved = json.loads(out.read_text())
    me = saved["start"]["seats"][0]
    assert saved["protocol"] == "fairdeal/2" and me["client_seed"] == seed
    assert me["client_seed_commitment"] == saved["seating"]["seats"][0]["client_seed_commitment"]
    assert me["client_seed_commitment"] == fairness.client_seed_commitment(
        saved["commit"]["game_id"], seed, me["nonce"]
    )
    assert f"0:{seed}" in _verify_command(r.output)
    other = CliRunner().invoke(
        play, ["--server", served, "--rules", "spades", "--auto", "--hands", "1", "--out", str(tmp_path / "h.json")]
    )
    assert other.output.split("Your client seed: ", 1)[1].split()[0] != seed, "a new seed every game"


def test_a_client_seed_that_is_not_printable_ascii_is_refused_before_any_request():
    r = CliRunner().invoke(play, ["--server", "http://127.0.0.1:1", "--client-seed", "caf\u00e9"])
    assert r.exit_code == 2 and "printable ASCII" in r.output and "fairdeal serve" not in r.output


def test_seeds_are_not_revealed_when_the_seating_is_not_signed_or_lacks_ours():
    from fairdeal.client.play import Distrust, check_seating
    from fairdeal.core import keys as vkeys
    from fairdeal.core.canonical import canonical_json

    key = vkeys.generate_private_key()
    seating = {"seats": [{"seat": 0, "client_seed_commitment": "ab" * 32}]}

    class Fake:
        def __init__(self, answer):
            self.answer = answer

        def get(self, path):
            return self.answer

    signed = {"seating": seating, "seating_signature": vkeys.sign(key, canonical_json(seating))}
    check_seating(Fake(signed), "g", 0, "ab" * 32, vkeys.public_key_text(key))
    with pytest.raises(Distrust, match="not signed"):
        check_seating(
            Fake({**signed, "seating_signature": vkeys.sign(key, b"other")}),
            "g",
            0,
            "ab" * 32,
            vkeys.public_key_text(key),
        )
    with pytest.raises(Distrust, match="does not hold"):
        check_seating(Fake(signed), "g", 0, "cd" * 32, vkeys.public_key_text(key))


@ON_SQLITE
def test_interactive_choice_refused_with_the_servers_sentence_then_a_legal_one_taken(served, tmp_path):
    out = tmp_path / "g.json"
    # Seat 0's first turn in spades is a bid: a card is refused, then move 1 of the list (bid 0) is taken;
    # the end of input leaves the table, which ends the game as abandoned.
    r = CliRunner().invoke(
        play, ["--server", served, "--rules", "spades", "--client-seed", "s", "--out", str(out)], input="2C\n1\n"
    )
    assert r.exit_code == 0, r.output
    assert "Refused: It is time to bid: say how many tricks you expect to take, 0 (nil) to 13." in r.output
    assert "   1. nil" in r.output and "<- suggested" in r.output
    mine = [rec["move"] for rec in json.loads(out.read_text())["records"] if rec["seat"] == 0]
    assert mine == [{"kind": "bid", "value": 0}]
    assert "Game over: abandoned." in r.output and "VERIFIED: all" in r.output


@ON_SQLITE
def test_interactive_120s_shows_the_drumpf_and_takes_typed_moves(served, tmp_path):
    # always the first listed move: a bid is made, so a drumpf suit is named and shown in the rule set's word
    r = CliRunner().invoke(play, ["--server", served, "--out", str(tmp_path / "g.json")], input="1\n" * 12)
    assert r.exit_code == 0, r.output
    assert "Drumpf: " in r.output and "Trump:" not in r.output
    assert "Your hand: " in r.output and "Scores: you & Bot 2 0, Bot 1 & Bot 3 0" in r.output


class SlowStdin(io.RawIOBase):
    """Standard input that answers only after `delay` seconds: a player who thinks too long."""

    def __init__(self, text: str, delay: float):
        self.data, self.delay = text.encode(), delay

    def readable(self):
        return True

    def readinto(self, b):
        if self.delay and len(b):  # click probes the stream with read(0) before the command runs
            time.sleep(self.delay)
            self.delay = 0
        n = min(len(b), len(self.data))
        b[:n], self.data = self.data[:n], self.data[n:]
        return n


@ON_SQLITE
def test_a_move_typed_after_the_clock_ran_out_is_told_as_the_tables_move_for_you(served, tmp_path):
    # standard input without a file descriptor (the test runner's): the line is read whenever it comes
    out = tmp_path / "g.json"
    r = CliRunner().invoke(
        play,
        ["--server", served, "--rules", "spades", "--clocks", "5,5", "--out", str(out)],
        input=SlowStdin("1\n", 5.5),
    )
    assert r.exit_code == 0, r.output
    assert "The table has moved on (did your clock run out?)" in r.output
    timeout = [rec for rec in json.loads(out.read_text())["records"] if rec["seat"] == 0]
    assert [rec["by"] for rec in timeout] == ["timeout"]
    value = timeout[0]["move"]["value"]
    assert f"The clock ran out: the table {'bid nil' if value == 0 else f'bid {value}'} for you." in r.output


def test_no_service_says_how_to_start_it():
    r = CliRunner().invoke(play, ["--server", f"http://127.0.0.1:{free_port()}", "--auto"])
    assert r.exit_code == 2
    assert "Is the service running? Start it with: fairdeal serve" in r.output
    assert "Traceback" not in r.output


def test_bad_setting_is_refused_before_any_request():
    r = CliRunner().invoke(play, ["--server", "http://127.0.0.1:1", "--setting", "kitty_teaser"])
    assert r.exit_code == 2 and "NAME=VALUE" in r.output and "fairdeal serve" not in r.output


# ------------------------------------------------------------------------- reading moves, showing the state

LEGAL_THROWS = [{"kind": "throw", "cards": []}, {"kind": "throw", "cards": ["KC", "8S"]}]


@pytest.mark.parametrize(
    "text,move",
    [
        ("2", {"kind": "throw", "cards": ["KC", "8S"]}),
        ("10h", {"kind": "play", "card": "10H"}),
        ("play QS", {"kind": "play", "card": "QS"}),
        ("bid 20", {"kind": "bid", "value": 20}),
        ("pass", {"kind": "pass"}),
        ("trump hearts", {"kind": "trump", "value": "H"}),
        ("throw 8s kc", {"kind": "throw", "cards": ["KC", "8S"]}),  # the server's own order for the same cards
        ("throw 2C 3D", {"kind": "throw", "cards": ["2C", "3D"]}),  # not legal here: the server will say why
    ],
)
def test_typed_moves_are_read(text, move):
    assert parse_move(text, LEGAL_THROWS, LEGAL_THROWS) == move


@pytest.mark.parametrize("text", ["", "3", "bid twenty", "trump X", "hello", "11Z"])
def test_text_that_is_no_move_gets_a_sentence(text):
    with pytest.raises(ValueError) as err:
        parse_move(text, LEGAL_THROWS, LEGAL_THROWS)
    assert str(err.value).endswith(".")


def test_state_shows_scores_bid_drumpf_trick_last_trick_and_hand():
    game = {
        "seat": 0,
        "seq": 15,
        "seats": [{"seat": i, "name": n, "bot": i > 0} for i, n in enumerate(["ann", "Bot 1", "Bot 2", "Bot 3"])],
        "view": {
            "rule_set": "120s-auction",
            "sides": [[0, 2], [1, 3]],
            "trump_word": "drumpf",
            "dealer": 1,
            "hand_number": 0,
            "hand": ["7C", "QD", "AD", "AH"],
            "scores": [20, 5],
            "bidding": {"log": [[2, "bid", 15], [3, "pass", None], [0, "pass", None], [1, "pass", None]]},
            "bidder": 2,
            "bid": 15,
            "trump": "H",
            "trick": {"leader": 2, "plays": [[2, "8S"], [3, "6S"]]},
            "tricks": [
                {"leader": 2, "plays": [[2, "5H"], [3, "7H"], [0, "6H"], [1, "2H"]], "winner": 2, "winning_card": "5H"}
            ],
        },
    }
    text = "\n".join(state_lines(game, Table(game)))
    assert "Scores: you & Bot 2 20, Bot 1 & Bot 3 5" in text
    assert "Bidding: Bot 2 bid 15, Bot 3 pass, you pass, Bot 1 pass" in text
    assert "Bid: Bot 2 15" in text and "Drumpf: hearts" in text
    assert "Trick: Bot 2 8S, Bot 3 6S" in text
    assert "Last trick: 5H 7H 6H 2H, won by Bot 2 with 5H" in text
    assert "Your hand: 7C QD AD AH" in text


def test_too_many_throws_to_list_are_described_with_a_legal_example():
    hint = throw_hint(LEGAL_THROWS)
    assert "0 to 2 of your cards" in hint and "'throw KC 8S'" in hint and "'keep' keeps them all" in hint


def test_an_unknown_move_is_explained_in_the_tables_own_word_for_trump():
    trumps = [{"kind": "trump", "value": s} for s in "CDHS"]
    with pytest.raises(ValueError, match="drumpf S"):
        parse_move("shuffle", trumps, trumps, "drumpf")


# ------------------------------------------------------------------------- brought level with the web table


@ON_SQLITE
def test_a_spades_table_offers_its_own_moves_and_understands_nil(served, tmp_path):
    out = tmp_path / "g.json"
    r = CliRunner().invoke(
        play, ["--server", served, "--rules", "spades", "--client-seed", "s", "--out", str(out)], input="nil\n"
    )
    assert r.exit_code == 0, r.output
    hint = next(line for line in r.output.splitlines() if "you may type:" in line)
    assert "nil" in hint and "bid " in hint
    assert "trump" not in hint and "throw" not in hint and "pass" not in hint
    mine = [rec["move"] for rec in json.loads(out.read_text())["records"] if rec["seat"] == 0]
    assert mine == [{"kind": "bid", "value": 0}]


def _cli(*args):
    return [sys.executable, "-m", "fairdeal.cli", "play", *args]


def _read_until(fd: int, pattern: str, timeout: float, seen: bytearray) -> str:
    """Read a pty's output until `pattern` (a regex) appears; the text so far."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        text = seen.decode("utf-8", "replace")
        if re.search(pattern, text):
            return text
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                seen.extend(os.read(fd, 4096))
            except OSError:
                break
    raise AssertionError(f"{pattern!r} never came; the output was:\n{seen.decode('utf-8', 'replace')[-3000:]}")


@ON_SQLITE
def test_on_a_terminal_the_clock_counts_down_and_the_tables_move_is_said(served, tmp_path):
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        _cli("--server", served, "--rules", "spades", "--clocks", "5,5", "--out", str(tmp_path / "g.json")),
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=dict(os.environ, COLUMNS="200"),
    )
    os.close(slave)
    seen = bytearray()
    try:
        _read_until(master, r"\(5 s left\)|\(4 s left\)", 30, seen)
        _read_until(master, r"\(2 s left\)", 10, seen)  # the same prompt, redrawn as the seconds go
        os.write(master, b"x")  # typing does not stop the clock
        _read_until(master, r"\(1 s left\): x", 5, seen)
        text = _read_until(master, r"The clock ran out: the table (bid \d+|bid nil) for you\.", 20, seen)
        assert "Your time is up: the table moves for you." in text
        _read_until(master, r"\(\d+ s left\)", 30, seen)  # the next decision is ours again
        os.write(master, b"q\r")  # leaving is confirmed first
        _read_until(
            master, r"only player at this table: leaving ends the game.*\n.*Leave the table\? \[y/N\]", 10, seen
        )
        os.write(master, b"y\r")
        _read_until(master, r"VERIFIED", 60, seen)
        assert proc.wait(scaled(30)) == 0
    finally:
        proc.kill()
        os.close(master)


@ON_SQLITE
def test_through_a_pipe_the_clock_still_ends_the_wait(served, tmp_path):
    proc = subprocess.Popen(
        _cli("--server", served, "--rules", "spades", "--clocks", "5,5", "--out", str(tmp_path / "g.json")),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        lines = []
        for line in proc.stdout:
            lines.append(line)
            if "The clock ran out: the table" in line:
                break
        assert any("Your time is up: the table moves for you." in x for x in lines)
        out, _ = proc.communicate("q\n", timeout=60)
        assert "VERIFIED" in out and proc.returncode == 0
    finally:
        proc.kill()


@ON_SQLITE
def test_a_host_waits_for_a_player_who_joins_while_a_third_watches(served, tmp_path):
    host = subprocess.Popen(
        _cli(
            "--server",
            served,
            "--rules",
            "120s-traditional",
            "--clocks",
            "off",
            "--wait",
            "--auto",
            "--name",
            "host",
            "--out",
            str(tmp_path / "host.json"),
        ),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    procs = [host]
    try:
        head = []
        for line in host.stdout:
            head.append(line)
            if "--join " in line:
                break
        gid = re.search(r"--join (\w+)", head[-1]).group(1)
        lobby = CliRunner().invoke(play, ["--server", served, "--lobby"])
        assert gid in lobby.output and f"--join {gid}" in lobby.output
        guest = subprocess.Popen(
            _cli(
                "--server",
                served,
                "--join",
                gid,
                "--seat",
                "2",
                "--auto",
                "--name",
                "guest",
                "--out",
                str(tmp_path / "guest.json"),
            ),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        fan = subprocess.Popen(
            _cli("--server", served, "--watch", gid, "--name", "fan", "--out", str(tmp_path / "fan.json")),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        procs += [guest, fan]
        for line in host.stdout:
            head.append(line)
            if re.search(r"2 guest", line):
                break
        host.stdin.write("\n")  # Enter starts the table
        host.stdin.flush()
        outs = [p.communicate(timeout=120)[0] for p in procs]
        host_out = "".join(head) + outs[0]
        assert [p.returncode for p in procs] == [0, 0, 0], outs
        assert "Waiting for players" in host_out and "Seats: 0 host (you), 1 Bot 1 (bot), 2 guest" in host_out
        assert "You sit at seat 2." in outs[1] and "waiting for the host to start" in outs[1]
        assert "You are watching." in outs[2]
        for out in outs:
            assert "Game over: finished." in out and "VERIFIED" in out
        t = json.loads((tmp_path / "fan.json").read_text())
        assert {r["seat"] for r in t["records"] if r["by"] == "player"} == {0, 2}
        # the watcher was told every move of both players
        assert outs[2].count("  host: ") == sum(1 for r in t["records"] if r["seat"] == 0)
        assert outs[2].count("  guest: ") == sum(1 for r in t["records"] if r["seat"] == 2)
    finally:
        for p in procs:
            p.kill()


@ON_SQLITE
def test_a_move_whose_answer_was_lost_is_sent_again_with_the_same_key_and_recorded_once(served):
    from fairdeal.client.http import Client, Unreachable

    c = Client(served, sleep=lambda s: None)
    c.token = c.post("/players", {"name": "flaky"})["token"]
    t = c.post("/tables", {"rule_set": "spades", "clocks": "off"})
    c.post(f"/tables/{t['id']}/start")
    g = c.get(f"/games/{t['id']}")
    keys = []
    real_post = c.post

    def lossy_post(path, body=None, headers=None):
        answer = real_post(path, body, headers)
        if path.endswith("/moves"):
            keys.append(headers["Idempotency-Key"])
            if len(keys) == 1:
                raise Unreachable("connection reset")  # the move is in; its answer never came
        return answer

    c.post = lossy_post
    retries = []
    ack = c.move(t["id"], g["seq"], g["legal_moves"][0], on_retry=lambda n, exc: retries.append(n))
    assert retries == [1] and len(keys) == 2 and keys[0] == keys[1]
    assert ack["replayed"] is True
    records = c.get(f"/games/{t['id']}/transcript")["transcript"]["records"]
    assert [r["seq"] for r in records if r["seat"] == 0] == [g["seq"] + 1]
