"""Key sets: reading keys, files of keys and the /keys JSON; which key signed a game and whether it was current."""

import json

import pytest

from fairdeal.core.checks import choose_key, verify_transcript
from fairdeal.core.keys import key_id, public_key_text
from fairdeal.core.keysets import KeySet, KeySetError, TrustedKey, keys_from_text, read_key_option, read_key_options
from tests.verifier.cli_run import run
from tests.verifier.tamper_kit import ATTACKER_KEY, SERVER_PUBLIC, valid_transcript

OTHER = public_key_text(ATTACKER_KEY)


def _published(created_a="2026-01-01T00:00:00Z", retired_a="2026-03-01T00:00:00Z"):
    """A /keys answer: SERVER_PUBLIC retired at retired_a, OTHER current since then."""
    return {
        "current": OTHER,
        "keys": [
            {
                "key": SERVER_PUBLIC,
                "key_id": key_id(SERVER_PUBLIC),
                "created": created_a,
                "retired": retired_a,
                "current": False,
            },
            {"key": OTHER, "key_id": key_id(OTHER), "created": retired_a, "retired": None, "current": True},
        ],
    }


@pytest.mark.parametrize(
    "when, status",
    [
        ("2025-12-31T23:59:59Z", "not-yet-created"),
        ("2026-01-01T00:00:00Z", "current"),
        ("2026-02-01T12:00:00Z", "current"),
        ("2026-03-01T00:00:00Z", "current"),
        ("2026-03-01T00:00:00.999Z", "current"),
        ("2026-03-01T00:00:01Z", "retired"),
        (None, "unknown"),
        ("not a time", "unknown"),
    ],
)
def test_status_at_the_games_time(when, status):
    key = TrustedKey(SERVER_PUBLIC, "k", "2026-01-01T00:00:00Z", "2026-03-01T00:00:00Z")
    assert key.status_at(when) == status


def test_key_times_to_the_millisecond():
    key = TrustedKey(SERVER_PUBLIC, "k", "2026-01-01T00:00:00.500Z", "2026-01-01T00:00:01.250Z")
    assert [key.status_at(f"2026-01-01T00:00:0{t}Z") for t in ("0.499", "0.500", "1.250", "1.251")] == [
        "not-yet-created",
        "current",
        "current",
        "retired",
    ]


def test_a_key_without_times_is_unknown_and_a_current_key_is_current_after_its_creation():
    assert TrustedKey(SERVER_PUBLIC, "--key").status_at("2026-01-01T00:00:00Z") == "unknown"
    assert TrustedKey(SERVER_PUBLIC, "k", "2026-01-01T00:00:00Z").status_at("2030-01-01T00:00:00Z") == "current"


def test_the_keys_json_gives_every_key_with_its_times():
    found = keys_from_text(json.dumps(_published()), "keys.json")
    assert [(k.key, k.created, k.retired) for k in found] == [
        (SERVER_PUBLIC, "2026-01-01T00:00:00Z", "2026-03-01T00:00:00Z"),
        (OTHER, "2026-03-01T00:00:00Z", None),
    ]
    assert {k.origin for k in found} == {"keys.json"}


def test_a_file_of_key_lines_and_comments(tmp_path):
    f = tmp_path / "keys.txt"
    f.write_text(f"# ours\n\n{SERVER_PUBLIC}\n  {OTHER}  \n")
    assert [k.key for k in read_key_option(str(f))] == [SERVER_PUBLIC, OTHER]


@pytest.mark.parametrize(
    "text, words",
    [
        ("", "holds no key"),
        ("ed25519:short\n", "line 1"),
        ('{"keys": []}', "holds no key"),
        ('{"keys": [{"key": "ed25519:x"}]}', "key 1"),
        ('{"other": 1}', "neither"),
        (f'[{{"key": "{SERVER_PUBLIC}", "created": "yesterday"}}]', "not an ISO 8601 time"),
        ('{"keys": [', "not valid JSON"),
    ],
)
def test_bad_key_files_are_refused_with_the_place(text, words):
    with pytest.raises(KeySetError, match=words):
        keys_from_text(text, "keys.json")


def test_the_same_key_twice_is_one_entry_that_keeps_its_times(tmp_path):
    f = tmp_path / "keys.json"
    f.write_text(json.dumps(_published()))
    found = read_key_options([SERVER_PUBLIC, str(f)])
    assert len(found) == 2 and found.find(SERVER_PUBLIC).created == "2026-01-01T00:00:00Z"
    assert read_key_options([]) is None


def test_a_key_set_accepts_any_of_its_keys_and_names_them_when_none_fits():
    both = KeySet([TrustedKey(SERVER_PUBLIC, "--key"), TrustedKey(OTHER, "keys.json")])
    assert choose_key(OTHER, both, {}) == (OTHER, "given", None)
    key, source, problem = choose_key("ed25519:X", both, {})
    assert key is None and source == "given"
    assert problem["given"] == f"--key ({key_id(SERVER_PUBLIC)}), keys.json ({key_id(OTHER)})"


def test_a_game_outside_the_key_set_fails_both_signatures_saying_so():
    report = verify_transcript(
        valid_transcript("spades"), key=KeySet([TrustedKey(OTHER, "a"), TrustedKey(OTHER[:-1] + "A", "b")])
    )
    start = report.check("signature-start")
    assert start.status == "fail" and start.code == "key-not-given" and "not one of the keys you gave" in start.detail
    assert report.check("signature-transcript").status == "fail"


def test_a_game_committed_after_its_key_was_retired_warns(tmp_path, capsys):
    t = valid_transcript("spades")
    keys_json = tmp_path / "keys.json"
    keys_json.write_text(json.dumps(_published(created_a="2000-01-01T00:00:00Z", retired_a="2001-01-01T00:00:00Z")))
    game = tmp_path / "g.json"
    game.write_text(json.dumps(t))
    code, out, err = run(["--key", str(keys_json), str(game)], capsys)
    assert code == 0
    assert "RETIRED before the game was committed" in out and "retired key should sign no new game" in err
    code, out, _ = run(["--json", "--key", str(keys_json), str(game)], capsys)
    assert json.loads(out)["key"]["status"] == "retired"
    code, out, _ = run(["audit", "--key", str(keys_json), str(game)], capsys)
    assert code == 0 and f"key {key_id(SERVER_PUBLIC)} 1 game(s) (RETIRED at the game's time)" in out


def test_a_bad_key_option_is_a_usage_error(capsys):
    code, _, err = run(["audit", "--key", "no-such-file", "."], capsys)
    assert code == 2 and "--key takes a public key" in err
    code, _, err = run(["audit", "--key", SERVER_PUBLIC, "--service", "x", "."], capsys)
    assert code == 2 and "cannot go with --key" in err


def test_the_keys_may_come_from_the_environment(tmp_path, capsys, monkeypatch):
    game = tmp_path / "g.json"
    game.write_text(json.dumps(valid_transcript("spades")))
    monkeypatch.setenv("FAIRDEAL_VERIFY_KEYS", f"{OTHER} {SERVER_PUBLIC}")
    code, out, _ = run(["audit", "--json", str(game)], capsys)
    assert code == 0 and json.loads(out)["signed_by"] == [
        {"key_id": key_id(SERVER_PUBLIC), "status": "unknown", "games": 1}
    ]
    monkeypatch.setenv("FAIRDEAL_VERIFY_KEYS", OTHER)
    code, _, _ = run(["audit", str(game)], capsys)
    assert code == 1


def test_the_current_key_of_a_set_is_its_one_live_key_with_times(tmp_path):
    """(The log's heads are held to the whole set with its times now, not to this one key: test_log_trust.py.)"""
    published = tmp_path / "keys.json"
    published.write_text(json.dumps(_published()))
    assert keys_from_text(published.read_text(), "k") and read_key_options([str(published)]).current.key == OTHER
    both = tmp_path / "both.txt"
    both.write_text(f"{SERVER_PUBLIC}\n{OTHER}\n")
    assert read_key_options([str(both)]).current is None
