"""`fairdeal-verify TRANSCRIPT`: the report, exit statuses, keys and pins, receipts, --json, --explain, URLs."""

import http.server
import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from fairdeal.core.checks import CHECK_IDS
from fairdeal.core.keys import public_key_text
from fairdeal.core.transcript import record_hash
from tests.verifier.cli_run import run
from tests.verifier.tamper_kit import ATTACKER_KEY, SERVER_PUBLIC, resign, valid_transcript

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def game_file(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(valid_transcript("120s-auction")))
    return path


def write(tmp_path, t, name="t.json"):
    path = tmp_path / name
    path.write_text(json.dumps(t))
    return path


def test_a_fair_game_passes_every_check_with_exit_0(game_file, capsys):
    code, out, err = run(["--key", SERVER_PUBLIC, str(game_file)], capsys)
    assert code == 0
    for cid in CHECK_IDS:
        assert cid in out
    assert "VERIFIED" in out and "FAIL" not in out
    assert "warning" not in err


def test_each_check_is_printed_with_pass_or_fail_and_its_reason(game_file, capsys):
    code, out, _ = run(["--key", SERVER_PUBLIC, str(game_file)], capsys)
    lines = [line for line in out.splitlines() if line.split()[:1] in (["PASS"], ["FAIL"], ["skip"])]
    assert [line.split()[1] for line in lines] == list(CHECK_IDS)
    assert all(len(line.split()) > 2 for line in lines)  # every line says why


def test_a_changed_score_fails_with_exit_1_and_names_the_check(tmp_path, capsys):
    t = valid_transcript("spades")
    t["end"]["result"]["scores"][0] += 10
    code, out, _ = run(["--key", SERVER_PUBLIC, str(write(tmp_path, resign(t)))], capsys)
    assert code == 1
    assert any(line.startswith("FAIL") and " result " in line for line in out.splitlines())
    assert "FAILED: 1 check(s) failed: result" in out


def test_standard_input(game_file, capsys, monkeypatch):
    code, out, _ = run(["-", "--key", SERVER_PUBLIC], capsys, stdin=game_file.read_bytes(), monkeypatch=monkeypatch)
    assert code == 0 and "VERIFIED" in out


def test_json_report_for_programs(game_file, capsys):
    code, out, _ = run(["--json", "--key", SERVER_PUBLIC, str(game_file)], capsys)
    report = json.loads(out)
    assert code == 0 and report["ok"] is True and report["exit_code"] == 0 and report["error"] is None
    assert [c["id"] for c in report["checks"]] == list(CHECK_IDS)
    assert {c["status"] for c in report["checks"]} <= {"pass", "skip"}
    assert report["key"] == {
        "key": SERVER_PUBLIC,
        "key_id": report["key"]["key_id"],
        "source": "given",
        "origin": "--key",
        "created": None,
        "retired": None,
        "status": "unknown",
        "game_time": "2026-01-01T00:00:00Z",
    }
    assert report["game"]["rule_set"] == "120s-auction" and report["game"]["moves"] > 0
    assert report["failed"] == []


def test_json_report_of_a_failure(tmp_path, capsys):
    t = valid_transcript("twenty-down")
    t["signature"] = "A" + t["signature"][1:] if t["signature"][0] != "A" else "B" + t["signature"][1:]
    code, out, _ = run(["--json", str(write(tmp_path, t))], capsys)
    report = json.loads(out)
    assert code == 1 and report["failed"] == ["signature-transcript"] and report["ok"] is False
    failed = [c for c in report["checks"] if c["status"] == "fail"]
    assert failed[0]["detail"]


GARBAGE = {
    "empty": b"",
    "spaces": b"   \n",
    "binary": bytes(range(256)),
    "not utf-8": b'\xff\xfe{"protocol": 1}',
    "truncated": json.dumps(valid_transcript("spades")).encode()[:2000],
    "a list": b"[1, 2, 3]",
    "a number": b"42",
    "a string": b'"fairdeal"',
    "null": b"null",
    "deep nesting": b"[" * 100000 + b"]" * 100000,
    "unknown protocol": json.dumps({"protocol": "fairdeal/99", "records": []}).encode(),
    "an empty object": b"{}",
    "a float": json.dumps({**valid_transcript("spades"), "records": 1.5}).encode(),
    "records not a list": json.dumps({**valid_transcript("spades"), "records": {"a": 1}}).encode(),
    "a record not an object": json.dumps({**valid_transcript("spades"), "records": [7]}).encode(),
    "the end missing a field": json.dumps({**valid_transcript("spades"), "end": {"type": "end"}}).encode(),
}


@pytest.mark.parametrize("name", sorted(GARBAGE))
def test_garbage_input_exits_2_without_a_traceback(name, tmp_path, capsys):
    path = tmp_path / "garbage.json"
    path.write_bytes(GARBAGE[name])
    code, out, err = run([str(path)], capsys)
    assert code == 2, (out, err)
    assert "cannot verify" in err


def test_garbage_through_the_console_script_never_shows_a_traceback(tmp_path):
    path = tmp_path / "bad.json"
    path.write_bytes(b'{"protocol": "fairdeal/1", "commit": [')
    proc = subprocess.run(
        [sys.executable, "-m", "fairdeal.verify.cli", str(path)], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and "cannot verify" in proc.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["/no/such/file.json"],
        ["--receipt", "nonsense", "x.json"],
        ["--key", "ed25519:short", "x.json"],
        ["--key", "/no/such/key", "x.json"],
        ["--client-seed", "x", "x.json"],
        ["--no-such-option", "x.json"],
        ["audit"],
        ["--seat", "two", "x.json"],
    ],
)
def test_bad_arguments_exit_2(args, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.json").write_text(json.dumps(valid_transcript("spades")))
    code, _, err = run(args, capsys)
    assert code == 2 and err


def test_a_folder_is_not_a_transcript(tmp_path, capsys):
    code, _, err = run([str(tmp_path)], capsys)
    assert code == 2 and "audit" in err


def test_a_game_still_running_cannot_be_verified_yet(tmp_path, capsys):
    t = valid_transcript("spades")
    del t["end"], t["signature"]
    code, out, err = run([str(write(tmp_path, t))], capsys)
    assert code == 2 and "not ended" in err


# ------------------------------------------------------------------------------------------- keys and pins


def test_without_a_key_the_report_warns_it_used_the_transcripts_own(game_file, capsys):
    code, out, err = run([str(game_file)], capsys)
    assert code == 0
    assert "warning" in err and "--key" in err
    assert "ONLY the key the transcript carries" in out


def test_the_wrong_key_fails_both_signature_checks(game_file, capsys):
    code, out, _ = run(["--json", "--key", public_key_text(ATTACKER_KEY), str(game_file)], capsys)
    report = json.loads(out)
    assert code == 1 and {"signature-start", "signature-transcript"} <= set(report["failed"])


def test_key_from_a_file_plain_or_json(game_file, tmp_path, capsys):
    plain = tmp_path / "key.txt"
    plain.write_text(SERVER_PUBLIC + "\n")
    api = tmp_path / "key.json"
    api.write_text(json.dumps({"key": SERVER_PUBLIC, "key_id": "x"}))
    for path in (plain, api):
        code, out, _ = run(["--key", str(path), str(game_file)], capsys)
        assert code == 0 and "the key you gave" in out


def test_pin_then_verify_against_the_pin(game_file, tmp_path, capsys, no_pins):
    code, _, err = run(["--key", SERVER_PUBLIC, "--pin", str(game_file)], capsys)
    assert code == 0 and "pinned" in err
    pins = json.loads(no_pins.read_text())["pins"]
    assert [p["key"] for p in pins.values()] == [SERVER_PUBLIC]
    code, out, err = run([str(game_file)], capsys)
    assert code == 0 and "a key you pinned" in out and "warning" not in err
    # a transcript re-signed by someone else now fails, without --key
    forged = write(tmp_path, resign(valid_transcript("120s-auction"), ATTACKER_KEY), "forged.json")
    code, out, _ = run(["--json", str(forged)], capsys)
    report = json.loads(out)
    assert code == 1 and report["key"]["source"] == "pinned"
    assert {"signature-start", "signature-transcript"} <= set(report["failed"])


def test_nothing_is_pinned_when_a_check_fails(tmp_path, capsys, no_pins):
    t = valid_transcript("spades")
    t["end"]["result"]["winners"] = [0, 2]
    code, _, err = run(["--pin", "--key", SERVER_PUBLIC, str(write(tmp_path, resign(t)))], capsys)
    assert code == 1 and "not pinning" in err and not no_pins.exists()


def test_a_damaged_pin_file_is_a_clear_error(game_file, capsys, no_pins):
    no_pins.parent.mkdir(parents=True, exist_ok=True)
    no_pins.write_text("{not json")
    code, _, err = run([str(game_file)], capsys)
    assert code == 2 and "damaged" in err


# ------------------------------------------------------------------------------------- receipts and seeds


def test_receipts_match_the_chain(tmp_path, capsys):
    t = valid_transcript("spades")
    path = write(tmp_path, t)
    good = [f"{i}:{record_hash(t['records'][i - 1])}" for i in (1, 5)]
    code, out, _ = run(["--key", SERVER_PUBLIC, "--receipt", good[0], "--receipt", good[1], str(path)], capsys)
    assert code == 0 and "PASS  receipts" in out
    wrong = f"5:{record_hash(t['records'][5])}"
    code, out, _ = run(["--key", SERVER_PUBLIC, "--receipt", wrong, str(path)], capsys)
    assert code == 1 and "FAIL  receipts" in out
    code, out, _ = run(["--receipt", f"99999:{'0' * 64}", str(path)], capsys)
    assert code == 1 and "no move record 99999" in out


def test_a_player_checks_their_own_client_seed(tmp_path, capsys):
    t = valid_transcript("twenty-down")
    path = write(tmp_path, t)
    mine = t["start"]["seats"][0]["client_seed"]
    code, out, _ = run(["--client-seed", f"0:{mine}", str(path)], capsys)
    assert code == 0
    code, out, _ = run(["--client-seed", "0:something else", str(path)], capsys)
    assert code == 1 and "FAIL  client-seeds" in out


# ------------------------------------------------------------------------------------------------- explain


def test_explain_tells_the_120s_auction_game_in_drumpfs(game_file, capsys):
    code, out, _ = run(["--explain", str(game_file)], capsys)
    assert code == 0
    story = out.split("VERIFIED", 1)[1]
    assert "Hand 1:" in story and "Trick 1:" in story and "drumpf" in story
    assert "The 10-point trick was trick" in story and "Score:" in story and "The game is over" in story
    assert " wins it with " in story and " leads " in story


def test_seat_shows_that_seats_cards_each_hand(game_file, capsys):
    code, out, _ = run(["--seat", "2", str(game_file)], capsys)
    t = json.loads(game_file.read_text())
    name = t["start"]["seats"][2]["name"]
    holds = [line for line in out.splitlines() if line.strip().startswith(f"{name} holds:")]
    assert code == 0 and holds
    assert all(len(line.split(":", 1)[1].split()) == 5 for line in holds)  # 120s: five cards each


# ------------------------------------------------------------------------------------------------- URLs


class _Server:
    def __init__(self, routes):
        routes = {k: json.dumps(v).encode() for k, v in routes.items()}

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802
                body = routes.get(self.path)
                self.send_response(200 if body is not None else 404)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(body or b"{}")

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def test_url_of_a_finished_game(capsys):
    t = valid_transcript("spades")
    server = _Server({"/games/g1/transcript": t, "/games/g1": {"id": "g1", "state": "finished"}})
    try:
        for path in ("/games/g1/transcript", "/games/g1"):
            code, out, _ = run(["--key", SERVER_PUBLIC, server.url + path], capsys)
            assert code == 0 and "VERIFIED" in out
        code, _, err = run([server.url + "/games/nope/transcript"], capsys)
        assert code == 2 and "404" in err
    finally:
        server.close()


def test_pinning_from_a_url_names_the_service(capsys, no_pins):
    server = _Server({"/games/g1/transcript": valid_transcript("spades")})
    try:
        code, _, _ = run(["--key", SERVER_PUBLIC, "--pin", server.url + "/games/g1/transcript"], capsys)
    finally:
        server.close()
    assert code == 0
    assert list(json.loads(no_pins.read_text())["pins"]) == [server.url.split("//")[1]]


def test_a_reader_that_stops_early_gets_no_traceback_and_the_verdict_stands(game_file):
    # `fairdeal-verify --explain game.json | head -0`: the reader is gone before the first line is written
    # (the interpreter needs far longer to start than this test needs to close the pipe).
    proc = subprocess.Popen(
        [sys.executable, "-m", "fairdeal.verify.cli", "--explain", "--key", SERVER_PUBLIC, str(game_file)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert proc.returncode == 0 and "Traceback" not in err and "Exception" not in err, err


def test_json_with_explain_carries_the_story(game_file, capsys):
    code, out, _ = run(["--json", "--explain", "--seat", "0", str(game_file)], capsys)
    report = json.loads(out)
    assert code == 0 and "Trick 1:" in report["story"] and " holds: " in report["story"]


def test_explain_of_a_failed_game_tells_it_up_to_the_bad_record(tmp_path, capsys):
    t = valid_transcript("spades")
    i = next(i for i, r in enumerate(t["records"]) if r["move"]["kind"] == "play" and i > 20)
    t["records"][i]["move"] = {"kind": "bid", "value": 3}
    code, out, _ = run(["--explain", str(write(tmp_path, resign(t)))], capsys)
    assert code == 1 and "does not replay" in out and "the story stops here" in out
