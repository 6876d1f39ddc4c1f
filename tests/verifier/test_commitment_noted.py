"""--commitment: the commitment a player noted at the start, checked against the transcript by its own check."""

import json

import pytest

from fairdeal.core.checks import parse_commitment, verify_transcript
from tests.verifier.cli_run import run
from tests.verifier.tamper_kit import SERVER_PUBLIC, valid_transcript


@pytest.fixture
def game(tmp_path):
    t = valid_transcript("spades")
    path = tmp_path / "game.json"
    path.write_text(json.dumps(t))
    return path, t["commit"]["commitment"]


@pytest.mark.parametrize("digits", [16, 40, 64])
def test_the_noted_commitment_passes_whole_or_as_a_prefix(game, digits, capsys):
    path, commitment = game
    noted = commitment[:digits].upper()
    code, out, _ = run(["--key", SERVER_PUBLIC, "--commitment", noted, str(path)], capsys)
    assert code == 0
    assert "PASS  commitment-noted" in out and f"first {digits} hex digits are the {noted.lower()} you noted" in out


def test_another_games_commitment_fails_its_own_check_in_text_json_and_explain(game, capsys):
    path, commitment = game
    other = ("0" if commitment[0] != "0" else "1") + commitment[1:16]
    code, out, _ = run(["--key", SERVER_PUBLIC, "--commitment", other, str(path)], capsys)
    assert code == 1 and "FAIL  commitment-noted" in out and "not the game you were shown" in out
    assert "FAILED: 1 check(s) failed: commitment-noted" in out
    code, out, _ = run(["--json", "--key", SERVER_PUBLIC, "--commitment", other, str(path)], capsys)
    report = json.loads(out)
    assert report["failed"] == ["commitment-noted"]
    check = next(c for c in report["checks"] if c["id"] == "commitment-noted")
    assert (check["code"], check["fields"]["noted"], check["fields"]["commitment"]) == (
        "commitment-noted-differs",
        other,
        commitment,
    )
    code, out, _ = run(["--explain", "--key", SERVER_PUBLIC, "--commitment", other, str(path)], capsys)
    assert code == 1 and "commitment-noted fails: the transcript commits to" in out


def test_explain_tells_a_noted_commitment_that_matches(game, capsys):
    path, commitment = game
    code, out, _ = run(["--explain", "--key", SERVER_PUBLIC, "--commitment", commitment[:20], str(path)], capsys)
    assert code == 0 and f"(commitment-noted: the transcript commits to {commitment}" in out


def test_without_commitment_the_check_is_skipped_saying_how_to_ask(game, capsys):
    path, _ = game
    code, out, _ = run(["--key", SERVER_PUBLIC, str(path)], capsys)
    assert code == 0 and "skip  commitment-noted" in out and "--commitment HEX" in out


@pytest.mark.parametrize("bad", ["abc", "0123456789abcde", "g" * 16, "0" * 65, "12ae 1662e7b7253b"])
def test_too_short_or_not_hex_is_a_usage_error(game, bad, capsys):
    path, _ = game
    code, out, err = run(["--commitment", bad, str(path)], capsys)
    assert code == 2 and out == "" and "16 to 64 hex digits" in err


def test_parse_commitment():
    assert parse_commitment(" ABCDEF0123456789 ") == "abcdef0123456789"
    with pytest.raises(ValueError):
        parse_commitment("abcdef012345678")


def test_the_check_runs_on_a_game_not_yet_ended():
    t = valid_transcript("spades")
    del t["end"], t["signature"]
    report = verify_transcript(t, key=SERVER_PUBLIC, commitment=t["commit"]["commitment"][:16])
    assert report.unusable and report.check("commitment-noted").status == "pass"
