"""`fairdeal play` at dealer-blind tables (docs/blind.md, "The terminal client"), against a real `fairdeal serve`:
a whole blind Spades game against three server bots whose saved transcript passes `fairdeal-verify`; the
client's own timeout moves when its clock runs out; and --resume after the client is killed mid-game and the
service restarted, from the σ and identity key kept in the seat's state file."""

from __future__ import annotations

import json
import os
import re
import shlex
import stat
import subprocess
import urllib.request
from concurrent.futures import ThreadPoolExecutor

from click.testing import CliRunner

from fairdeal.client.blind import commits_fingerprint
from fairdeal.client.play import play
from tests.service.http import serving
from tests.service.metrics_kit import samples
from tests.service.play_proc import Proc, _cli, verify_cli
from tests.service.redis_servers import free_port
from tests.waiting import scaled


def requests_by_route(base: str) -> dict[tuple[str, str], float]:
    """The service's request counts (its /metrics) by (method, route)."""
    with urllib.request.urlopen(base + "/metrics", timeout=30) as r:
        text = r.read().decode()
    out: dict[tuple[str, str], float] = {}
    for sample in samples(text, "fairdeal_http_requests_total"):
        key = (sample.labels["method"], sample.labels["route"])
        out[key] = out.get(key, 0) + sample.value
    return out


def test_a_blind_game_against_three_bots_is_played_to_the_end_and_verifies(tmp_path, monkeypatch):
    monkeypatch.setenv("FAIRDEAL_STATE", str(tmp_path / "state"))
    out = tmp_path / "game.json"
    with serving(tmp_path / "data", workers=2) as base:  # the embedded store, shared by two workers
        r = CliRunner().invoke(
            play,
            ["--server", base, "--rules", "spades", "--blind", "--auto", "--clocks", "off", "--out", str(out)],
        )
        served = requests_by_route(base)
    # the client learnt of the blind log's growth from the game's stream (`blind` events), never by polling it
    assert served.get(("GET", "/games/<game_id>/stream"), 0) >= 1, served
    assert served.get(("GET", "/games/<game_id>/blind"), 0) == 0, served
    assert served.get(("GET", "/games/<game_id>/events"), 0) == 0, served
    assert r.exit_code == 0, r.output
    assert "Traceback" not in r.output
    t = json.loads(out.read_text())
    assert t["end"]["reason"] == "finished" and t["blind"]["blame"] == []
    hands = len(t["end"]["deals"])
    assert r.output.count("(read by this client alone; the server cannot see them) are in.") == hands
    mine = [m for m in t["blind"]["messages"] if m["seat"] == 0]
    kinds = [m["type"] for m in mine]
    assert kinds.count("commit") == 1 and kinds.count("reveal") == 1
    assert kinds.count("shuffle") == kinds.count("lock") == kinds.count("release") == hands
    assert kinds.count("open") == 13 * hands, "every card this seat played went with its open"
    plays = [r["move"]["card"] for r in t["records"] if r["seat"] == 0 and r["move"]["kind"] == "play"]
    assert [m["card"] for m in mine if m["type"] == "open"] == plays
    for name in ("blind-messages", "blind-deal", "blind-opens", "moves-legal", "receipts", "client-seeds"):
        assert f"PASS  {name}" in r.output, name
    assert "VERIFIED: all" in r.output
    line = next(x for x in r.output.splitlines() if x.strip().startswith("fairdeal-verify "))
    v = verify_cli(shlex.split(line)[1:])
    assert v.returncode == 0 and "VERIFIED" in v.stdout and "PASS  blind-deal" in v.stdout, v.stdout + v.stderr
    assert not list((tmp_path / "state").glob("seat-*.json")), "a finished seat (its σ revealed) is forgotten"


def test_the_clients_own_timeout_moves_and_resume_after_a_kill_and_a_server_restart(tmp_path):
    env = dict(os.environ, FAIRDEAL_STATE=str(tmp_path / "state"), COLUMNS="200")
    data, port = tmp_path / "data", free_port()
    grace = {"FAIRDEAL_BLIND_GRACE": "90"}  # the client is away for the restart: not long enough to abort
    client = None
    try:
        with serving(data, workers=1, port=port, **grace) as base:
            client = Proc(
                _cli("--server", base, "--rules", "spades", "--blind", "--clocks", "5,5", "--client-seed", "mine"),
                tmp_path,
                env,
            )  # nothing is typed: every clock of this seat runs out
            gid = re.search(r"Table (\w+):", client.until(r"^Table \w+:")).group(1)
            client.until(r"^Your time is up: your client plays the timeout move for you: bid", 60)
            client.until(r"^Your time is up: your client plays the timeout move for you: \w+\.", 60)  # a card
            client.until(r"^Your move:", 60)
            path = tmp_path / "state" / f"seat-{gid}-0.json"
            assert stat.S_IMODE(path.stat().st_mode) == 0o600, "σ and the identity key are the owner's alone"
            kept = json.loads(path.read_text())["blind"]
            assert len(kept["secret"]) == 64 and len(kept["identity"]) == 64 and kept["cards"]
            client.kill()  # the client crashes mid-hand
        with serving(data, workers=1, port=port, **grace) as base:  # and the service restarts
            back = Proc(_cli("--server", base, "--resume", gid, "--auto"), tmp_path, env, stdin=False)
            out = back.finish(400)
        assert back.p.returncode == 0, out
        assert "You are back at seat 0" in out and "VERIFIED: all" in out and "Traceback" not in out
        t = json.loads((tmp_path / f"fairdeal-game-{gid}-seat0.json").read_text())
        assert t["end"]["reason"] == "finished" and t["blind"]["blame"] == []
        timed_out = [r for r in t["records"] if r["seat"] == 0 and r["by"] == "timeout"]
        assert [r["move"]["kind"] for r in timed_out[:2]] == ["bid", "play"]
        assert re.search(rf"PASS  timeout-moves +{len(timed_out)} timeout move", out), out[-4000:]
        assert "PASS  blind-deal" in out and "PASS  receipts" in out
    finally:
        if client:
            client.kill()


def test_a_card_the_rules_refuse_is_refused_by_the_client_and_a_leaver_reveals_as_it_leaves(tmp_path):
    env = dict(os.environ, FAIRDEAL_STATE=str(tmp_path / "state"), COLUMNS="200")
    with serving(tmp_path / "data", workers=1) as base:
        p = Proc(_cli("--server", base, "--rules", "spades", "--blind", "--clocks", "off"), tmp_path, env)
        try:
            for _ in range(13 * 6):  # the own hand's dimmed cards: the server cannot refuse them, the client does
                start = len(p.lines)
                p.until(r"\(you may type:")
                dimmed = [x for x in p.lines[start:] if re.match(r"^\s+-\s+\S+.*: (You must follow|Spades are not)", x)]
                if dimmed:
                    break
                p.send("1\n")
            else:
                raise AssertionError("no card was ever barred by the rules")
            card = re.match(r"^\s+-\s+(\S+)", dimmed[0]).group(1)
            p.send(f"{card}\n")
            p.until(r"^.*Refused: (You must follow \w+|Spades are not broken yet)\.")
            p.send("1\n")  # the first legal card
            p.until(r"\(you may type:")
            p.send("q\n")
            p.until(r"leaving ends the game at once, aborted. Your client sends your secret with the leave")
            p.send("y\n")
            out = p.finish(120)
        finally:
            p.kill()
    gid = re.search(r"Table (\w+):", out).group(1)
    t = json.loads((tmp_path / f"fairdeal-game-{gid}-seat0.json").read_text())
    assert t["end"]["reason"] == "aborted" and t["blind"]["blame"] == [], t["end"]  # it left with its reveal
    plays = [r["move"]["card"] for r in t["records"] if r["seat"] == 0 and r["move"]["kind"] == "play"]
    assert card not in plays, "the barred card was never sent"
    assert "The game is aborted in hand 1: you left the table." in out and "Game over: aborted." in out
    assert "Nobody is blamed in the signed end record: you left with the seat's secret revealed." in out
    # the leave carried the leaver's σ: every deal is derived, and its own check of the transcript passes
    assert any(m["type"] == "reveal" and m["seat"] == 0 for m in t["blind"]["messages"])
    for name in ("blind-messages", "blind-deal", "blind-opens", "blind-blame"):
        assert f"PASS  {name}" in out, name
    assert p.p.returncode == 0, out[-3000:]


def test_four_players_in_four_terminals_play_a_blind_game_to_its_end_and_each_file_verifies(tmp_path):
    """A host (--wait) and three --join: each client does its seat's part of the deal; seats 1 and 3 type their
    bids of 13 (26 cannot be made: the set costs 260, past the -200 that ends the game after its first hand) and
    the first listed card, seats 0 and 2 play the suggestion (--auto). Each prints the same fingerprint of the
    commits, saves the transcript and verifies it; each printed `fairdeal-verify` command passes."""
    env = dict(os.environ, FAIRDEAL_STATE=str(tmp_path / "state"), COLUMNS="200")
    typed = "bid 13\n" + "1\n" * 13  # a bid, then the first card listed at each of the 13 card decisions
    procs: dict[int, Proc] = {}
    try:
        with serving(tmp_path / "data", workers=2) as base:
            procs[0] = Proc(
                _cli("--server", base, "--rules", "spades", "--blind", "--wait", "--auto", "--clocks", "off"),
                tmp_path,
                env,
            )  # its stdin stays open and silent: it starts when every seat is taken
            gid = re.search(r"Table (\w+):", procs[0].until(r"^Table \w+:", scaled(60))).group(1)
            procs[0].until(r"They join with:", scaled(60))
            for seat in (1, 2, 3):
                auto = ("--auto",) if seat == 2 else ()
                procs[seat] = Proc(
                    _cli("--server", base, "--join", gid, "--seat", str(seat), "--name", f"p{seat}", *auto),
                    tmp_path,
                    env,
                )
                if seat != 2:
                    procs[seat].send(typed)
            try:
                outs = {seat: p.finish(scaled(120)) for seat, p in procs.items()}
            except subprocess.TimeoutExpired:  # say where each client stood
                tails = {seat: p.so_far()[-1500:] for seat, p in procs.items()}
                raise AssertionError(
                    "a client did not finish:\n" + "\n".join(f"--- seat {k}\n{v}" for k, v in tails.items())
                ) from None
    finally:
        for p in procs.values():
            p.kill()
    t = json.loads((tmp_path / f"fairdeal-game-{gid}-seat0.json").read_text())
    assert t["end"]["reason"] == "finished" and len(t["end"]["deals"]) == 1 and t["blind"]["blame"] == [], t["end"]
    assert not any(s["bot"] for s in t["start"]["seats"])
    bids = {r["seat"]: r["move"]["value"] for r in t["records"] if r["move"]["kind"] == "bid"}
    assert bids[1] == bids[3] == 13 and {r["seat"] for r in t["records"] if r["by"] == "player"} == {0, 1, 2, 3}
    want = commits_fingerprint(t["blind"]["messages"], 4)
    commands = []
    for seat, out in outs.items():
        assert procs[seat].p.returncode == 0 and "VERIFIED: all" in out and "Traceback" not in out, out[-3000:]
        assert f"The seats' blind commits (compare with the other players): {want}" in out, seat
        line = next(x for x in out.splitlines() if x.strip().startswith("fairdeal-verify "))
        commands.append(shlex.split(line)[1:])
    with ThreadPoolExecutor(4) as pool:  # each seat's saved file, checked by the command it printed
        verified = list(pool.map(lambda args: verify_cli(args, cwd=tmp_path), commands))
    for v in verified:
        assert v.returncode == 0 and "VERIFIED" in v.stdout and "PASS  blind-deal" in v.stdout, v.stdout + v.stderr
